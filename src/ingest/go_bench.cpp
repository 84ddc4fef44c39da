// Go benchmark text (`go test -bench` output, what benchstat reads; golang.org/design/
// 14313-benchmark-format). A result line "BenchmarkName-8  N  123 ns/op  45 B/op" is one
// instance with one iteration: ns/op becomes wall_time in seconds, every other unit a metric
// of that name. Configuration lines ("goos: linux", "pkg: ...", "cpu: ...") become
// artifacts; every other line is ignored, as the format says.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ingest/importer.hpp"

namespace benchguard::ingest {

namespace {

// "Benchmark" followed by the end of the name or a character that is not lower case.
bool is_result_line(std::string_view line) {
  if (!line.starts_with("Benchmark")) return false;
  if (line.size() == 9) return true;
  const auto c = static_cast<unsigned char>(line[9]);
  return !std::islower(c);
}

std::vector<std::string> fields_of(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(std::move(f));
  return fields;
}

// A key starts with a character that is not upper case, holds no space, and its colon is
// followed by a space or the end of the line.
bool config_line(std::string_view line, std::string& key, std::string& value) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const auto first = static_cast<unsigned char>(line[0]);
  if (std::isupper(first) || std::isspace(first)) return false;
  const auto k = line.substr(0, colon);
  if (std::any_of(k.begin(), k.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    return false;
  if (colon + 1 < line.size() && line[colon + 1] != ' ' && line[colon + 1] != '\t') return false;
  key = std::string(k);
  const auto start = line.find_first_not_of(" \t", colon + 1);
  value = start == std::string_view::npos ? "" : std::string(line.substr(start));
  return true;
}

bool detect(const Source& src) {
  if (src.json) return false;
  for (const auto& line : split_lines(src.text)) {
    if (!is_result_line(line.text)) continue;
    const auto f = fields_of(line.text);
    if (f.size() >= 4 && parse_int(f[1])) return true;
  }
  return false;
}

// What benchguard knows of a unit: the metric it becomes and how to read it.
MetricInfo metric_for(const std::string& unit) {
  if (unit == "B/op") return {unit, "B", Direction::kLowerIsBetter};
  // Rates (MB/s, and custom ones like ops/s) are higher-is-better; per-op costs lower.
  if (unit.ends_with("/s")) return {unit, unit, Direction::kHigherIsBetter};
  return {unit, "", Direction::kLowerIsBetter};
}

Status read_result(const Source& src, const Line& line, RunBuilder& b, Imported& out) {
  if (!line.terminated) return src.error(line.number, "the last line has no end (truncated file?)");
  const auto f = fields_of(line.text);
  if (f.size() < 2) return ok_status();  // `go test -v` names a benchmark before it runs
  if (!parse_int(f[1]))
    return src.error(line.number, fmt::format("{}: the iteration count \"{}\" is not a whole "
                                              "number",
                                              f[0], f[1]));
  if (f.size() < 4 || f.size() % 2 != 0)
    return src.error(line.number, fmt::format("{}: expected value-unit pairs after the iteration "
                                              "count",
                                              f[0]));
  std::vector<std::pair<std::string, double>> metrics;
  for (size_t i = 2; i + 1 < f.size(); i += 2) {
    const auto v = parse_number(f[i]);
    if (!v) return src.error(line.number, fmt::format("{}: \"{}\" is not a number", f[0], f[i]));
    const std::string& unit = f[i + 1];
    if (unit == "ns/op" || unit == "sec/op") {
      metrics.emplace_back("wall_time", *v * (unit == "ns/op" ? 1e-9 : 1.0));
      continue;
    }
    metrics.emplace_back(unit, *v);
    const MetricInfo info = metric_for(unit);
    if (std::none_of(out.metrics.begin(), out.metrics.end(),
                     [&](const MetricInfo& m) { return m.name == unit; }))
      out.metrics.push_back(info);
  }
  add_single(b, b.variant(f[0]), std::move(metrics));
  return ok_status();
}

Result<Imported> parse(const Source& src) {
  Imported out;
  RunBuilder b;
  b.data().run.suite = "go";
  std::string key, value;
  for (const auto& line : split_lines(src.text)) {
    if (is_result_line(line.text)) {
      BG_TRY(read_result(src, line, b, out));
    } else if (config_line(line.text, key, value)) {
      auto& artifacts = b.data().run.artifacts;
      const auto kv = std::make_pair(key, value);
      if (std::find(artifacts.begin(), artifacts.end(), kv) == artifacts.end())
        artifacts.push_back(kv);
    }
  }
  out.data = std::move(b.data());
  return out;
}

}  // namespace

const Importer kGoBench{"go", detect, parse};

}  // namespace benchguard::ingest
