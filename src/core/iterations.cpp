#include "core/iterations.hpp"

#include <algorithm>

namespace benchguard {

IterationsView::Metric IterationsView::metric(const std::string& name) const {
  Metric m;
  m.name_ = &name;
  if (columns_ == nullptr) {
    m.rows_ = rows_;
    return m;
  }
  for (const auto& c : columns_->metrics)
    if (c.name == name) m.column_ = &c;
  return m;
}

std::vector<std::string> IterationsView::metric_names() const {
  std::vector<std::string> names;
  add_metric_names(names);
  return names;
}

void IterationsView::add_metric_names(std::vector<std::string>& names) const {
  const auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  if (columns_ != nullptr) {
    for (const auto& c : columns_->metrics) add(c.name);
  } else {
    for (const auto& it : *rows_)
      for (const auto& [name, value] : it.metrics) add(name);
  }
}

}  // namespace benchguard
