#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "report/document.hpp"
#include "report/export.hpp"
#include "report/run_summary.hpp"
#include "store/location.hpp"

namespace benchguard::report {

namespace {

using nlohmann::json;

json key_values(const KeyValues& kv) {
  json j = json::object();
  for (const auto& [k, v] : kv) j[k] = v;
  return j;
}

// The writers below stream what nlohmann's dump() would write for the whole document (keys
// in sorted order; indent 2, or -1 for one line), without a DOM node per iteration: each
// level's scalar members are a small DOM, and the one member that holds many children (runs,
// instances, iterations) is written child by child in its place among the sorted keys.
class Writer {
 public:
  Writer(std::ostream& out, int indent) : out_(out), indent_(indent) {}

  // An object: the members of `j`, with `streamed` written by `write` where its key sorts.
  template <class Fn>
  void object(const json& j, int depth, std::string_view streamed, Fn&& write) {
    out_ << '{';
    bool first = true, done = false;
    const auto member = [&](std::string_view key) {
      out_ << (first ? "" : ",");
      first = false;
      newline(depth + 1);
      out_ << json_text(json(std::string(key))) << (indent_ < 0 ? ":" : ": ");
    };
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!done && std::string_view(it.key()) > streamed) {
        member(streamed);
        write(depth + 1);
        done = true;
      }
      member(it.key());
      value(it.value(), depth + 1);
    }
    if (!done) {
      member(streamed);
      write(depth + 1);
    }
    newline(depth);
    out_ << '}';
  }

  // An array of `n` elements, element k written by `write(k, depth)`.
  template <class Fn>
  void array(std::size_t n, int depth, Fn&& write) {
    out_ << '[';
    if (n == 0) {
      out_ << ']';
      return;
    }
    for (std::size_t k = 0; k < n; ++k) {
      out_ << (k ? "," : "");
      newline(depth + 1);
      write(k, depth + 1);
    }
    newline(depth);
    out_ << ']';
  }

  // Any value at `depth`, as dump() writes it there.
  void value(const json& j, int depth) {
    std::string text = json_text(j, indent_);
    if (indent_ >= 0 && depth > 0 && (j.is_object() || j.is_array())) {
      const std::string pad =
          "\n" +
          std::string(static_cast<std::size_t>(depth) * static_cast<std::size_t>(indent_), ' ');
      std::string out;
      out.reserve(text.size());
      for (const char c : text) {
        if (c == '\n')
          out += pad;
        else
          out += c;
      }
      text = std::move(out);
    }
    out_ << text;
  }

  // One iteration, as dump() writes {burn_in, end_ns, failure, index, metrics, start_ns,
  // timed_out}, with no DOM: metrics in name order, a repeated name counting once, as its
  // last value (a JSON object's rule).
  void iteration(const IterationRecord& it, int depth) {
    const char* sep = indent_ < 0 ? ":" : ": ";
    const auto member = [&](const char* quoted_key, bool first = false) {
      out_ << (first ? "" : ",");
      newline(depth + 1);
      out_ << quoted_key << sep;
    };
    out_ << '{';
    member("\"burn_in\"", true);
    out_ << (it.burn_in ? "true" : "false");
    member("\"end_ns\"");
    out_ << it.end_ns;
    member("\"failure\"");
    out_ << (it.failure.empty() ? "\"\"" : json_text(json(it.failure)));
    member("\"index\"");
    out_ << it.index;
    member("\"metrics\"");
    std::vector<std::pair<std::string_view, double>> m;
    m.reserve(it.metrics.size());
    for (const auto& [k, v] : it.metrics) m.emplace_back(k, v);
    std::stable_sort(m.begin(), m.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    bool first = true;
    out_ << '{';
    for (std::size_t k = 0; k < m.size(); ++k) {
      if (k + 1 < m.size() && m[k + 1].first == m[k].first) continue;  // the last one counts
      out_ << (first ? "" : ",");
      first = false;
      newline(depth + 2);
      out_ << json_text(json(std::string(m[k].first))) << sep << json_text(json(m[k].second));
    }
    if (!first) newline(depth + 1);
    out_ << '}';
    member("\"start_ns\"");
    out_ << it.start_ns;
    member("\"timed_out\"");
    out_ << (it.timed_out ? "true" : "false");
    newline(depth);
    out_ << '}';
  }

 private:
  void newline(int depth) {
    if (indent_ < 0) return;
    static const std::string kSpaces(256, ' ');
    out_ << '\n';
    for (auto n = static_cast<std::size_t>(depth) * static_cast<std::size_t>(indent_); n > 0;) {
      const std::size_t k = std::min(n, kSpaces.size());
      out_.write(kSpaces.data(), static_cast<std::streamsize>(k));
      n -= k;
    }
  }

  std::ostream& out_;
  int indent_;
};

json instance_columns(const InstanceRecord& inst) {
  json out = {{"index", inst.index},
              {"order", inst.order},
              {"start_ns", inst.start_ns},
              {"end_ns", inst.end_ns},
              {"started_at", format_iso8601(inst.started_at)},
              {"exit_code", inst.exit_code},
              {"signal", inst.signal},
              {"timed_out", inst.timed_out},
              {"failure", inst.failure},
              {"user_s", inst.user_s},
              {"sys_s", inst.sys_s},
              {"max_rss_bytes", inst.max_rss_bytes},
              {"mem_peak_bytes", inst.mem_peak_bytes},
              {"mem_avg_bytes", inst.mem_avg_bytes},
              {"mem_samples", inst.mem_samples},
              {"rss_floor_bytes", inst.rss_floor_bytes},
              {"mem_source", inst.mem_source},
              {"prepare_s", inst.prepare_s},
              {"conclude_s", inst.conclude_s},
              {"instructions", inst.instructions ? json(*inst.instructions) : json(nullptr)},
              {"cycles", inst.cycles ? json(*inst.cycles) : json(nullptr)},
              {"cpus", inst.cpus},
              {"schedule", inst.schedule},
              {"schedule_tag", inst.schedule_tag},
              {"timed_outside", inst.timed_outside}};
  // Only where some were measured, so that exports of other runs keep their shape.
  if (!inst.counts.empty()) {
    json counts = json::object();
    for (const auto& [name, count] : inst.counts) counts[name] = count;
    out["counts"] = std::move(counts);
  }
  return out;
}

json run_columns(const RunRecord& rr) {
  return {{"uuid", rr.uuid},
          {"started_at", format_iso8601(rr.started_at)},
          {"finished_at", rr.finished_at ? json(format_iso8601(rr.finished_at)) : json(nullptr)},
          {"status", rr.status},
          {"suite", rr.suite},
          {"suite_path", rr.suite_path},
          {"hostname", rr.hostname},
          {"git", {{"commit", rr.git_commit}, {"branch", rr.git_branch}, {"dirty", rr.git_dirty}}},
          {"command_line", store::redact_command_line(rr.command_line)},
          {"labels", key_values(rr.labels)},
          {"artifacts", key_values(rr.artifacts)}};
}

json variant_columns(const VariantData& v) {
  return {{"benchmark", v.variant.benchmark},
          {"variant", v.variant.name},
          {"command", v.variant.command},
          {"params", key_values(v.variant.params)},
          {"env", key_values(v.variant.env)},
          {"config", json::parse(v.variant.config_json.empty() ? "{}" : v.variant.config_json,
                                 nullptr, false)},
          {"summaries", summary_records_json(v)}};
}

}  // namespace

void export_json(const std::vector<RunData>& runs, std::ostream& out) {
  Writer w(out, 2);
  w.object(json({{"schema", "benchguard.export"},
                 {"version", kSchemaVersion},
                 {"benchguard_version", kVersion}}),
           0, "runs", [&](int d) {
             w.array(runs.size(), d, [&](std::size_t r, int d) {
               w.object(run_columns(runs[r].run), d, "variants", [&](int d) {
                 const auto& variants = runs[r].variants;
                 w.array(variants.size(), d, [&](std::size_t v, int d) {
                   w.object(variant_columns(variants[v]), d, "instances", [&](int d) {
                     const auto& instances = variants[v].instances;
                     w.array(instances.size(), d, [&](std::size_t i, int d) {
                       const InstanceRecord& inst = instances[i];
                       w.object(instance_columns(inst), d, "iterations", [&](int d) {
                         w.array(inst.iterations.size(), d,
                                 [&](std::size_t k, int d) { w.iteration(inst.iterations[k], d); });
                       });
                     });
                   });
                 });
               });
             });
           });
  out << "\n";
}

// Hail's instance record: {path, name, version, start, end, iterations: [{time, is_burn_in,
// timed_out, failure, task_memory}]}; benchguard adds variant, instance, run, the
// instance's own failure, and where its memory came from (mem_source, where recorded). time
// is seconds; task_memory is the instance's peak memory in bytes.
void export_jsonl(const std::vector<RunData>& runs, std::ostream& out) {
  Writer w(out, -1);
  for (const auto& r : runs) {
    for (const auto& v : r.variants) {
      for (const auto& inst : v.instances) {
        const auto peak = instance_peak_memory(inst);
        const json mem = peak ? json(*peak) : json(nullptr);
        const int64_t dur = inst.end_ns - inst.start_ns;
        json j = {{"path", r.run.suite_path.empty() ? r.run.suite : r.run.suite_path},
                  {"name", v.variant.benchmark},
                  {"version", kVersion},
                  {"start", format_iso8601(inst.started_at)},
                  {"end", format_iso8601(inst.started_at + dur)},
                  {"variant", v.variant.name},
                  {"instance", inst.index},
                  {"run", r.run.uuid},
                  {"failure", inst.failure.empty() ? json(nullptr) : json(inst.failure)}};
        if (!inst.mem_source.empty()) j["mem_source"] = inst.mem_source;
        w.object(j, 0, "iterations", [&](int d) {
          w.array(inst.iterations.size(), d, [&](std::size_t k, int d) {
            const IterationRecord& it = inst.iterations[k];
            const auto wall = it.metric("wall_time");
            w.value(json{{"time", wall ? json(*wall) : json(nullptr)},
                         {"is_burn_in", it.burn_in},
                         {"timed_out", it.timed_out},
                         {"failure", it.failure.empty() ? json(nullptr) : json(it.failure)},
                         {"task_memory", mem}},
                    d);
          });
        });
        out << "\n";
      }
    }
  }
}

}  // namespace benchguard::report
