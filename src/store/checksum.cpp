#include "store/checksum.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "core/hash.hpp"

namespace benchguard::store {
namespace {

// The row encodings: Fnv1a (core/hash.hpp) with the store's compound values.
class Hasher : public Fnv1a {
 public:
  using Fnv1a::Fnv1a;
  void opt(const std::optional<int64_t>& v) {
    i64(v.has_value() ? 1 : 0);
    if (v) i64(*v);
  }
  void opt(const std::optional<double>& v) {
    i64(v.has_value() ? 1 : 0);
    if (v) f64(*v);
  }
  void key_values(const KeyValues& kv) {
    i64(static_cast<int64_t>(kv.size()));
    for (const auto& [k, v] : kv) {
      str(k);
      str(v);
    }
  }
};

void hash_iteration(Hasher& h, const IterationRecord& it, bool with_metrics) {
  h.i64(it.index);
  h.i64(it.start_ns);
  h.i64(it.end_ns);
  h.i64(it.burn_in ? 1 : 0);
  h.i64(it.timed_out ? 1 : 0);
  h.str(it.failure);
  if (!with_metrics) {
    h.i64(-1);
    return;
  }
  std::vector<const std::pair<std::string, double>*> metrics;
  metrics.reserve(it.metrics.size());
  for (const auto& m : it.metrics) metrics.push_back(&m);
  std::sort(metrics.begin(), metrics.end(), [](auto* a, auto* b) { return a->first < b->first; });
  h.i64(static_cast<int64_t>(metrics.size()));
  for (const auto* m : metrics) {
    h.str(m->first);
    h.f64(m->second);
  }
}

}  // namespace

int64_t run_checksum(const RunRecord& run) {
  Hasher h("benchguard run 1");
  h.str(run.uuid);
  h.i64(run.started_at);
  h.i64(run.finished_at);
  h.str(run.status);
  h.str(run.suite);
  h.str(run.suite_path);
  h.str(run.hostname);
  h.str(run.git_commit);
  h.str(run.git_branch);
  h.i64(run.git_dirty ? 1 : 0);
  h.str(run.command_line);
  h.key_values(run.labels);
  h.key_values(run.artifacts);
  return h.value();
}

int64_t variant_checksum(const VariantColumns& v) {
  Hasher h("benchguard variant 1");
  h.str(v.run_uuid);
  h.str(v.benchmark);
  h.str(v.name);
  h.str(v.command);
  h.str(v.params);
  h.str(v.env);
  h.str(v.config_json);
  return h.value();
}

int64_t metric_checksum(const std::string& name, const std::string& unit,
                        const std::string& direction) {
  Hasher h("benchguard metric 1");
  h.str(name);
  h.str(unit);
  h.str(direction);
  return h.value();
}

int64_t writer_checksum(const std::string& run_uuid, const WriterIdentity& w) {
  Hasher h("benchguard writer 1");
  h.str(run_uuid);
  h.str(w.hostname);
  h.str(w.machine_id);
  h.str(w.boot_id);
  h.str(w.pid_ns);
  h.i64(w.pid);
  h.i64(w.pid_start);
  h.str(w.lock);
  return h.value();
}

std::string variant_key(const std::string& run_uuid, const std::string& benchmark,
                        const std::string& variant) {
  Hasher h("benchguard variant key 1");
  h.str(run_uuid);
  h.str(benchmark);
  h.str(variant);
  return std::to_string(h.value());
}

int64_t instance_checksum(const std::string& variant_key, const InstanceRecord& in) {
  Hasher h("benchguard instance 1");
  h.str(variant_key);
  h.i64(in.index);
  h.i64(in.order);
  h.i64(in.start_ns);
  h.i64(in.end_ns);
  h.i64(in.started_at);
  h.i64(in.exit_code);
  h.i64(in.signal);
  h.i64(in.timed_out ? 1 : 0);
  h.str(in.failure);
  h.f64(in.user_s);
  h.f64(in.sys_s);
  h.i64(in.max_rss_bytes);
  h.i64(in.mem_peak_bytes);
  h.f64(in.mem_avg_bytes);
  h.i64(in.mem_samples);
  h.opt(in.instructions);
  h.opt(in.cycles);
  h.str(in.cpus);
  h.str(in.schedule);
  h.str(in.schedule_tag);
  h.i64(in.timed_outside ? 1 : 0);
  // Hashed only when recorded, so that instances stored before it keep their checksums.
  if (in.rss_floor_bytes != 0) {
    h.str("rss_floor_bytes");
    h.i64(in.rss_floor_bytes);
  }
  // The same for where the peak memory came from (0014).
  if (!in.mem_source.empty()) {
    h.str("mem_source");
    h.str(in.mem_source);
  }
  // The same for the hooks' times (0015).
  if (in.prepare_s != 0 || in.conclude_s != 0) {
    h.str("hook_times");
    h.f64(in.prepare_s);
    h.f64(in.conclude_s);
  }
  // The same for counts (0012).
  if (!in.counts.empty()) {
    h.str("counts");
    for (const auto& [name, count] : in.counts) {
      h.str(name);
      h.i64(count);
    }
  }
  // Timed from outside: the store keeps no metric values (they are the instance's columns,
  // hashed above) and rebuilds a missing iteration from the instance.
  const bool with_metrics = !in.timed_outside;
  if (in.timed_outside && in.iterations.empty()) {
    h.i64(1);
    hash_iteration(h, outside_iteration(in), false);
    return h.value();
  }
  h.i64(static_cast<int64_t>(in.iterations.size()));
  for (const auto& it : in.iterations) hash_iteration(h, it, with_metrics);
  return h.value();
}

int64_t series_cache_checksum(const std::string& run_uuid, const std::string& key,
                              std::string_view data) {
  Hasher h("benchguard series cache 1");
  h.str(run_uuid);
  h.str(key);
  h.str(data);
  return h.value();
}

int64_t summary_checksum(const std::string& variant_key, const SummaryRecord& s) {
  Hasher h("benchguard summary 1");
  h.str(variant_key);
  h.str(s.metric);
  h.i64(s.count);
  h.f64(s.mean);
  h.opt(s.stddev);
  h.opt(s.median);
  h.opt(s.min);
  h.opt(s.max);
  return h.value();
}

}  // namespace benchguard::store
