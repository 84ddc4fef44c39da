// Apache Otava's (formerly Hunter's) CSV layout: one row per test run, a time column, attribute
// columns (commit, branch, ...) and one column per metric holding one number:
//
//   time,commit,metric1,metric2
//   2026.01.01 3:00:00 +0100,aaa0,154023,10.43
//
// Each row becomes one run (status imported) of the commit it names, at its time, holding
// one summary record per metric with a value: Otava keeps one number per run and commit, not
// the measurements behind it, so nothing instance-level is pretended. The benchmark is named
// after the file (its name without directory and extension), as an Otava test is named in
// its configuration. Columns: `time` (required), `commit` and `branch` (the run's git commit
// and branch), every column whose first value is a number a metric (its other values must be
// numbers or empty), every other column an attribute kept as the run's artifact
// "otava.<column>".
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/csv.hpp"
#include "ingest/importer.hpp"

namespace benchguard::ingest {

namespace {

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The header's columns, trimmed and lower-cased for matching.
std::vector<std::string> header_columns(std::string_view first_line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const auto comma = first_line.find(',', start);
    out.push_back(lower(trimmed(first_line.substr(start, comma - start))));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

bool detect(const Source& src) {
  if (src.json) return false;
  const auto nl = src.text.find('\n');
  const auto columns = header_columns(std::string_view(src.text).substr(0, nl));
  return columns.size() >= 2 && std::find(columns.begin(), columns.end(), "time") != columns.end();
}

// Otava's times as its examples write them ("2026.01.01 3:00:00 +0100"), ISO 8601, or unix
// seconds; unix ns, nullopt when it is none of these.
std::optional<int64_t> parse_time(std::string_view text) {
  std::string s(text);
  if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
      })) {
    const auto secs = parse_number(s);
    if (!secs || *secs < 0 || *secs > 9.2e9) return std::nullopt;
    return static_cast<int64_t>(*secs * 1e9);
  }
  // "YYYY.MM.DD" -> "YYYY-MM-DD"
  if (s.size() > 10 && s[4] == '.' && s[7] == '.') s[4] = s[7] = '-';
  // A one-digit hour: "YYYY-MM-DD H:" -> "YYYY-MM-DD 0H:"
  if (s.size() > 12 && (s[10] == ' ' || s[10] == 'T') && s[12] == ':') s.insert(11, "0");
  // A space before the offset: "... 03:00:00 +0100" -> "...03:00:00+0100"
  if (const auto sp = s.rfind(' '); sp != std::string::npos && sp > 10 && sp + 1 < s.size() &&
                                    (s[sp + 1] == '+' || s[sp + 1] == '-' || s[sp + 1] == 'Z'))
    s.erase(sp, 1);
  return parse_timestamp(s);
}

// The benchmark's name: the file's name without directory and extension.
std::string benchmark_name(const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string();
  return stem.empty() ? "otava" : stem;
}

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(std::vector<CsvRecord> records, read_csv(src));
  if (records.empty()) return src.error(0, "no header line");
  std::vector<std::string> header;
  for (const auto& f : records.front().fields) header.push_back(trimmed(f));
  const auto column = [&](std::string_view name) -> std::optional<size_t> {
    for (size_t c = 0; c < header.size(); ++c)
      if (lower(header[c]) == name) return c;
    return std::nullopt;
  };
  const auto time_col = column("time");
  if (!time_col) return src.error(records.front().line, "no \"time\" column in the header");
  const auto commit_col = column("commit");
  const auto branch_col = column("branch");
  for (size_t c = 0; c < header.size(); ++c) {
    if (header[c].empty())
      return src.error(records.front().line, fmt::format("column {} has no name", c + 1));
    for (size_t earlier = 0; earlier < c; ++earlier)
      if (lower(header[earlier]) == lower(header[c]))
        return src.error(records.front().line,
                         fmt::format("column \"{}\" appears twice in the header", header[c]));
  }

  const size_t rows = records.size() - 1;
  for (size_t r = 1; r <= rows; ++r) {
    const CsvRecord& rec = records[r];
    // Every writer ends its rows with a newline: a last row without one was cut off.
    if (!rec.terminated)
      return src.error(rec.line, "the file ends inside this row without its newline (cut off?)");
    if (rec.fields.size() != header.size())
      return src.error(rec.line, fmt::format("{} fields, the header has {} columns",
                                             rec.fields.size(), header.size()));
  }
  // A column is a metric when its first value is a number; then every value in it must be a
  // number or empty (a typo must not turn a metric into an attribute without a word).
  std::vector<bool> metric(header.size(), false);
  for (size_t c = 0; c < header.size(); ++c) {
    if (c == *time_col || c == commit_col || c == branch_col) continue;
    std::optional<bool> numbers;
    for (size_t r = 1; r <= rows; ++r) {
      const std::string v = trimmed(records[r].fields[c]);
      if (v.empty()) continue;
      const bool number = parse_number(v).has_value();
      if (!numbers) {
        numbers = number;
      } else if (*numbers && !number) {
        return src.error(records[r].line,
                         fmt::format("\"{}\" in metric column \"{}\" is not a number",
                                     v.substr(0, 40), header[c]));
      }
    }
    metric[c] = numbers.value_or(false);
  }
  if (std::none_of(metric.begin(), metric.end(), [](bool m) { return m; }))
    return src.error(records.front().line,
                     "no metric column: no column beside time, commit and branch holds numbers");

  Imported out;
  int without_values = 0;
  const std::string name = benchmark_name(src.path);
  out.history.reserve(rows);
  for (size_t r = 1; r <= rows; ++r) {
    const CsvRecord& rec = records[r];
    const std::string when = trimmed(rec.fields[*time_col]);
    const auto time = parse_time(when);
    if (!time)
      return src.error(rec.line, fmt::format("time \"{}\" is not a time (Otava's \"YYYY.MM.DD "
                                             "H:MM:SS +ZZZZ\", ISO 8601 or unix seconds)",
                                             when.substr(0, 40)));
    RunData data;
    RunRecord& run = data.run;
    run.started_at = *time;
    run.finished_at = *time;
    run.suite = "otava";
    if (commit_col) run.git_commit = trimmed(rec.fields[*commit_col]);
    if (branch_col) run.git_branch = trimmed(rec.fields[*branch_col]);
    run.artifacts.emplace_back("import_row", std::to_string(rec.line));
    for (size_t c = 0; c < header.size(); ++c)
      if (!metric[c] && c != *time_col && c != commit_col && c != branch_col)
        run.artifacts.emplace_back("otava." + header[c], trimmed(rec.fields[c]));
    VariantData v;
    v.variant.benchmark = name;
    v.variant.name = "default";
    for (size_t c = 0; c < header.size(); ++c) {
      if (!metric[c]) continue;
      const std::string text = trimmed(rec.fields[c]);
      if (text.empty()) continue;
      SummaryRecord s;
      s.metric = header[c];
      s.mean = *parse_number(text);
      v.summaries.push_back(std::move(s));
    }
    if (v.summaries.empty()) {
      ++without_values;
      continue;
    }
    data.variants.push_back(std::move(v));
    out.history.push_back(std::move(data));
  }
  if (out.history.empty()) return src.error(0, "no row holds a value");
  if (without_values > 0)
    out.warnings.push_back(
        fmt::format("{} row(s) without any metric value left out", without_values));
  std::vector<std::string> declared;
  for (size_t c = 0; c < header.size(); ++c)
    if (metric[c] && !find_builtin_metric(header[c])) {
      out.metrics.push_back(MetricInfo{header[c], "", Direction::kLowerIsBetter});
      declared.push_back(header[c]);
    }
  if (!declared.empty())
    out.warnings.push_back(
        fmt::format("metric(s) {} taken as lower-is-better with no unit (Otava's CSV does not say)",
                    fmt::join(declared, ", ")));
  return out;
}

}  // namespace

const Importer kOtavaCsv{"otava-csv", detect, parse};

}  // namespace benchguard::ingest
