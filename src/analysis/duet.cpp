#include "analysis/duet.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "core/instance_table.hpp"
#include "core/iterations.hpp"

namespace benchguard::analysis {

namespace {

bool concurrent(const InstanceRecord& in) {
  return in.schedule == "duet" || in.schedule == "sync-duet";
}

// Concurrent pairs: (instance of a, instance of b) sharing their order.
std::vector<std::pair<const InstanceRecord*, const InstanceRecord*>> instance_pairs(
    const VariantData& a, const VariantData& b) {
  std::map<int64_t, const InstanceRecord*> by_order;
  for (const auto& in : b.instances)
    if (concurrent(in)) by_order.emplace(in.order, &in);
  std::vector<std::pair<const InstanceRecord*, const InstanceRecord*>> out;
  for (const auto& in : a.instances) {
    if (!concurrent(in)) continue;
    const auto found = by_order.find(in.order);
    if (found != by_order.end() && found->second->schedule == in.schedule)
      out.emplace_back(&in, found->second);
  }
  return out;
}

struct Usable {
  std::vector<stats::TimeSpan> spans;
  std::vector<double> values;
};

// The iterations extract() would keep, with their time spans.
Usable usable(const InstanceRecord& in, const std::string& metric, const BurnInPolicy& policy,
              std::size_t detected) {
  Usable u;
  const IterationsView its(in);
  const auto values = its.metric(metric);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < its.size(); ++k) {
    const bool leading =
        policy.mode == BurnInPolicy::Mode::kFixed ? k < policy.fixed : its.burn_in(k);
    if (leading || its.timed_out(k) || its.failed(k)) continue;
    const auto x = values.at(k);
    if (!x) continue;
    if (kept++ < detected) continue;
    u.spans.push_back({its.start_ns(k), its.end_ns(k)});
    u.values.push_back(*x);
  }
  return u;
}

}  // namespace

bool has_duet_pairs(const VariantData& a, const VariantData& b) {
  const auto any_concurrent = [](const VariantData& v) {
    bool any = false;
    for_each_instance(
        v, [&](const InstanceRecord& in, const IterationsView&) { any = any || concurrent(in); });
    return any;
  };
  if (!any_concurrent(a) || !any_concurrent(b)) return false;
  if (a.table != nullptr || b.table != nullptr)
    return instance_pairs(with_records(a), with_records(b)).size() >= 2;
  return instance_pairs(a, b).size() >= 2;
}

DuetPairing pair_duet(const VariantData& a, const VariantData& b, const std::string& metric,
                      const BurnInPolicy& policy, double min_overlap) {
  // Pairs are found by pointers to records.
  if (a.table != nullptr || b.table != nullptr)
    return pair_duet(with_records(a), with_records(b), metric, policy, min_overlap);
  DuetPairing out;
  if (policy.mode == BurnInPolicy::Mode::kAuto)
    out.burn_in = std::max(extract(a, metric, policy).detected_burn_in,
                           extract(b, metric, policy).detected_burn_in);
  std::vector<std::string> cells;
  for (const auto& [ia, ib] : instance_pairs(a, b)) {
    if (!ia->ok() || !ib->ok()) continue;
    const Usable ua = usable(*ia, metric, policy, out.burn_in);
    const Usable ub = usable(*ib, metric, policy, out.burn_in);
    stats::DuetRun run;
    for (const auto& [i, j] : stats::pair_overlapping(ua.spans, ub.spans, min_overlap)) {
      run.a.push_back(ua.values[i]);
      run.b.push_back(ub.values[j]);
    }
    out.b_cpus.push_back(ib->cpus);
    out.b_started_second.push_back(ib->schedule_tag == "AB");
    // The design cell: which CPUs B had, and which side started first.
    const auto cell = std::find(cells.begin(), cells.end(), ib->cpus + "/" + ib->schedule_tag);
    run.stratum = static_cast<int>(cell - cells.begin());
    if (cell == cells.end()) cells.push_back(ib->cpus + "/" + ib->schedule_tag);
    out.paired += run.a.size();
    out.unpaired_a += ua.values.size() - run.a.size();
    out.unpaired_b += ub.values.size() - run.b.size();
    out.runs.push_back(std::move(run));
  }
  return out;
}

DuetBalance duet_balance(const VariantData& a, const VariantData& b, const std::string& metric,
                         const BurnInPolicy& policy, double confidence) {
  DuetBalance out;
  out.benchmark = a.variant.benchmark;
  const DuetPairing p = pair_duet(a, b, metric, policy);
  out.runs = p.runs.size();
  std::vector<std::string> sets;
  for (const auto& c : p.b_cpus)
    if (std::find(sets.begin(), sets.end(), c) == sets.end()) sets.push_back(c);
  std::sort(sets.begin(), sets.end());
  if (!sets.empty()) out.cpus_first = sets.front();
  std::vector<double> cpu_b, cpu_a, second_b, second_a;
  for (std::size_t k = 0; k < p.runs.size(); ++k) {
    const double x = stats::run_log_ratio(p.runs[k]);
    if (sets.size() == 2) (p.b_cpus[k] == sets[1] ? cpu_b : cpu_a).push_back(x);
    (p.b_started_second[k] ? second_b : second_a).push_back(x);
  }
  if (sets.size() == 2) {
    out.cpus_second = sets[1];
    out.cpu = stats::side_effect(cpu_b, cpu_a, confidence);
  }
  out.start = stats::side_effect(second_b, second_a, confidence);
  return out;
}

VariantData with_slowdown(const VariantData& v, double slowdown,
                          const std::vector<std::string>& metrics) {
  VariantData out = with_records(v);
  const double factor = 1.0 + slowdown;
  // How a metric slows: not at all (0), times the factor (1) or divided by it (-1: less of a
  // higher-is-better metric, throughput, is slower).
  const auto effect = [&](const std::string& name) {
    if (std::find(metrics.begin(), metrics.end(), name) == metrics.end()) return 0;
    return metric_info(v, name).direction == Direction::kHigherIsBetter ? -1 : 1;
  };
  const auto slow = [&](int how, double& value) {
    if (how > 0) value *= factor;
    if (how < 0) value /= factor;
  };
  for (auto& in : out.instances) {
    int64_t shift = 0;
    const auto stretch = [&](int64_t& start, int64_t& end) {
      const int64_t duration = end - start;
      const auto stretched = static_cast<int64_t>(static_cast<double>(duration) * factor);
      start += shift;
      end = start + stretched;
      shift += stretched - duration;
    };
    for (auto& it : in.iterations) {
      stretch(it.start_ns, it.end_ns);
      for (auto& [name, value] : it.metrics) slow(effect(name), value);
    }
    if (in.columns) {
      auto c = std::make_shared<IterationColumns>(*in.columns);
      for (std::size_t k = 0; k < c->count; ++k) stretch(c->start_ns[k], c->end_ns[k]);
      for (auto& m : c->metrics) {
        const int how = effect(m.name);
        for (double& value : m.values) slow(how, value);
      }
      in.columns = std::move(c);
    }
    in.end_ns += shift;
  }
  return out;
}

}  // namespace benchguard::analysis
