#include "stats/hierarchical.hpp"

#include <algorithm>

#include "stats/descriptive.hpp"

namespace benchguard::stats {

Hierarchical::Hierarchical(const std::vector<std::vector<double>>& instances) {
  for (const auto& inst : instances) add_instance(inst);
}

void Hierarchical::add_instance(std::span<const double> iterations) {
  if (iterations.empty()) return;
  if (offsets_.empty()) offsets_.push_back(0);
  values_.insert(values_.end(), iterations.begin(), iterations.end());
  offsets_.push_back(values_.size());
}

Hierarchical Hierarchical::from_parts(std::vector<double> values,
                                      std::vector<std::size_t> offsets) {
  Hierarchical h;
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != values.size()) return h;
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] <= offsets[i - 1]) return h;
  h.values_ = std::move(values);
  h.offsets_ = std::move(offsets);
  return h;
}

bool Hierarchical::balanced() const {
  for (std::size_t i = 1; i < instances(); ++i) {
    if (instance(i).size() != instance(0).size()) return false;
  }
  return true;
}

std::vector<double> instance_means(const Hierarchical& data) {
  std::vector<double> means;
  means.reserve(data.instances());
  for (std::size_t i = 0; i < data.instances(); ++i) means.push_back(mean(data.instance(i)));
  return means;
}

Hierarchical drop_leading(const Hierarchical& data, std::size_t count) {
  Hierarchical out;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    const auto inst = data.instance(i);
    if (inst.size() > count) out.add_instance(inst.subspan(count));
  }
  return out;
}

Hierarchical first_instances(const Hierarchical& data, std::size_t count) {
  Hierarchical out;
  for (std::size_t i = 0; i < std::min(count, data.instances()); ++i)
    out.add_instance(data.instance(i));
  return out;
}

Hierarchical scaled(const Hierarchical& data, double factor) {
  Hierarchical out;
  std::vector<double> buffer;
  for (std::size_t i = 0; i < data.instances(); ++i) {
    const auto inst = data.instance(i);
    buffer.assign(inst.begin(), inst.end());
    std::transform(buffer.begin(), buffer.end(), buffer.begin(),
                   [factor](double x) { return x * factor; });
    out.add_instance(buffer);
  }
  return out;
}

}  // namespace benchguard::stats
