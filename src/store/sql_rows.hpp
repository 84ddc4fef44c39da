// The rows both SQL stores read (sqlite/, postgres/), as the model: the columns a runs,
// variants, instances, summaries or change_points row is selected with, in one order, and the
// record made of them. A Row is a result row of either backend, read by column: int64(col),
// real(col), text(col) and is_null(col), each reading NULL as its backend does.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/model.hpp"
#include "core/result.hpp"
#include "store/sqlite/json_columns.hpp"
#include "store/store.hpp"

namespace benchguard::store {

// "higher" or "lower", as a metrics row holds a direction.
inline const char* direction_text(Direction d) {
  return d == Direction::kHigherIsBetter ? "higher" : "lower";
}
inline Direction direction_of(const std::string& text) {
  return text == "higher" ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
}

// NULL for an empty text: a failure is NULL when there is none, so that "WHERE failure IS NULL"
// finds successes.
inline std::optional<std::string> null_if_empty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// NaN for NULL (how a NaN is stored), else the column's value.
template <class Row>
double real_or_nan(const Row& row, int col) {
  return row.is_null(col) ? std::numeric_limits<double>::quiet_NaN() : row.real(col);
}

template <class Row>
std::optional<double> optional_real(const Row& row, int col) {
  if (row.is_null(col)) return std::nullopt;
  return row.real(col);
}

// From "uuid, started_at, finished_at, status, suite, suite_path, hostname, git_commit,
// git_branch, git_dirty, command_line" (labels and artifacts are rows of their own).
template <class Row>
RunRecord run_record_from(const Row& row) {
  RunRecord r;
  r.uuid = row.text(0);
  r.started_at = row.int64(1);
  r.finished_at = row.int64(2);
  r.status = row.text(3);
  r.suite = row.text(4);
  r.suite_path = row.text(5);
  r.hostname = row.text(6);
  r.git_commit = row.text(7);
  r.git_branch = row.text(8);
  r.git_dirty = row.int64(9) != 0;
  r.command_line = row.text(10);
  return r;
}

// From "r.id, r.uuid, r.started_at, r.finished_at, r.status, r.suite, r.hostname,
// r.git_commit, r.git_branch" (counts and labels are the caller's).
template <class Row>
RunSummary run_summary_from(const Row& row) {
  RunSummary s;
  s.id = row.int64(0);
  s.uuid = row.text(1);
  s.started_at = row.int64(2);
  s.finished_at = row.int64(3);
  s.status = row.text(4);
  s.suite = row.text(5);
  s.hostname = row.text(6);
  s.git_commit = row.text(7);
  s.git_branch = row.text(8);
  return s;
}

// From "v.id, b.name, v.name, v.command, v.params, v.env, v.config_json"; an Error naming the
// variant when its JSON columns do not read.
template <class Row>
Result<VariantRecord> variant_from(const Row& row) {
  const std::string what = "variant " + std::to_string(row.int64(0));
  VariantRecord v;
  v.benchmark = row.text(1);
  v.name = row.text(2);
  auto command = sqlite::command_from_json(row.text(3), what + " command");
  auto params = sqlite::key_values_from_json(row.text(4), what + " params");
  auto env = sqlite::key_values_from_json(row.text(5), what + " env");
  if (!command.ok()) return command.error();
  if (!params.ok()) return params.error();
  if (!env.ok()) return env.error();
  v.command = std::move(command).value();
  v.params = std::move(params).value();
  v.env = std::move(env).value();
  v.config_json = row.text(6);
  return v;
}

// The instance's own columns, from "i.id, i.variant_id, i.idx, i.schedule_order, i.start_ns,
// i.end_ns, i.started_at, i.exit_code, i.signal, i.timed_out, i.failure, i.user_s, i.sys_s,
// i.max_rss_bytes, i.mem_peak_bytes, i.mem_avg_bytes, i.mem_samples, i.instructions,
// i.cycles, i.cpus, i.schedule_tag, i.schedule, i.timed_outside, i.rss_floor_bytes,
// i.mem_source, i.prepare_s, i.conclude_s".
template <class Row>
InstanceRecord instance_from(const Row& row) {
  InstanceRecord in;
  in.index = static_cast<int>(row.int64(2));
  in.order = row.int64(3);
  in.start_ns = row.int64(4);
  in.end_ns = row.int64(5);
  in.started_at = row.int64(6);
  in.exit_code = static_cast<int>(row.int64(7));
  in.signal = static_cast<int>(row.int64(8));
  in.timed_out = row.int64(9) != 0;
  in.failure = row.text(10);
  in.user_s = row.real(11);
  in.sys_s = row.real(12);
  in.max_rss_bytes = row.int64(13);
  in.mem_peak_bytes = row.int64(14);
  in.mem_avg_bytes = row.real(15);
  in.mem_samples = static_cast<int>(row.int64(16));
  if (!row.is_null(17)) in.instructions = row.int64(17);
  if (!row.is_null(18)) in.cycles = row.int64(18);
  in.cpus = row.text(19);
  in.schedule_tag = row.text(20);
  in.schedule = row.text(21);
  in.timed_outside = row.int64(22) != 0;
  in.rss_floor_bytes = row.int64(23);
  in.mem_source = row.text(24);
  in.prepare_s = row.real(25);
  in.conclude_s = row.real(26);
  return in;
}

// Of metric `metric`, from "s.variant_id, s.metric_id, s.count, s.mean, s.stddev, s.median,
// s.min, s.max" (a NULL mean is NaN).
template <class Row>
SummaryRecord summary_from(const Row& row, const std::string& metric) {
  SummaryRecord summary;
  summary.metric = metric;
  summary.count = row.int64(2);
  summary.mean = real_or_nan(row, 3);
  summary.stddev = optional_real(row, 4);
  summary.median = optional_real(row, 5);
  summary.min = optional_real(row, 6);
  summary.max = optional_real(row, 7);
  return summary;
}

// The columns of a change_points row, in the order change_from reads them.
inline const std::string kChangeColumns =
    "change_id, series_key, benchmark, variant, metric, machine, method, last_good, first_bad, "
    "first_bad_time, point_index, segment_start, segment_end, \"before\", \"after\", change, "
    "change_lower, change_upper, p_value, kind, status, detected_at";

// From kChangeColumns (a NULL number is NaN: an interval that could not be computed).
template <class Row>
ChangeRecord change_from(const Row& row) {
  ChangeRecord c;
  c.id = row.text(0);
  c.series_key = row.text(1);
  c.benchmark = row.text(2);
  c.variant = row.text(3);
  c.metric = row.text(4);
  c.machine = row.text(5);
  c.method = row.text(6);
  c.last_good = row.text(7);
  c.first_bad = row.text(8);
  c.first_bad_time = row.int64(9);
  c.index = row.int64(10);
  c.segment_start = row.int64(11);
  c.segment_end = row.int64(12);
  c.before = real_or_nan(row, 13);
  c.after = real_or_nan(row, 14);
  c.change = real_or_nan(row, 15);
  c.change_lower = real_or_nan(row, 16);
  c.change_upper = real_or_nan(row, 17);
  c.p_value = real_or_nan(row, 18);
  c.kind = row.text(19);
  c.status = row.text(20);
  c.detected_at = row.int64(21);
  return c;
}

// NULL for a value that is not a number (an interval that could not be computed).
inline std::optional<double> finite_or_null(double v) {
  if (std::isfinite(v)) return v;
  return std::nullopt;
}

}  // namespace benchguard::store
