// Helpers shared by the importers: the run builder and conversions of numbers, time units
// and timestamps.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "ingest/importer.hpp"

namespace benchguard::ingest {

VariantData& RunBuilder::append(const std::string& benchmark, const std::string& name) {
  index_.emplace(key(benchmark, name), data_.variants.size());
  VariantData v;
  v.variant.benchmark = benchmark;
  v.variant.name = name;
  data_.variants.push_back(std::move(v));
  return data_.variants.back();
}

VariantData& RunBuilder::variant(const std::string& benchmark, const std::string& name) {
  if (auto it = index_.find(key(benchmark, name)); it != index_.end())
    return data_.variants[it->second];
  return append(benchmark, name);
}

VariantData& RunBuilder::distinct_variant(const std::string& benchmark,
                                          std::vector<std::string>& warnings,
                                          const std::string& name) {
  if (!index_.contains(key(benchmark, name))) return append(benchmark, name);
  std::string renamed;
  for (int k = 2;; ++k) {
    renamed = fmt::format("{} #{}", benchmark, k);
    if (!index_.contains(key(renamed, name))) break;
  }
  warnings.push_back(
      fmt::format("'{}' appears again: kept apart as '{}', not merged", benchmark, renamed));
  return append(renamed, name);
}

InstanceRecord& RunBuilder::add_instance(VariantData& v) {
  InstanceRecord inst;
  inst.index = static_cast<int>(v.instances.size());
  inst.order = next_order_++;
  inst.exit_code = 0;  // imported results are of launches that ended normally unless told
  v.instances.push_back(std::move(inst));
  return v.instances.back();
}

InstanceRecord& add_single(RunBuilder& b, VariantData& v,
                           std::vector<std::pair<std::string, double>> metrics) {
  InstanceRecord& inst = b.add_instance(v);
  IterationRecord it;
  it.metrics = std::move(metrics);
  inst.iterations.push_back(std::move(it));
  return inst;
}

std::optional<double> seconds_per(std::string_view unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s" || unit == "sec") return 1.0;
  if (unit == "min") return 60.0;
  if (unit == "hr" || unit == "h") return 3600.0;
  if (unit == "day") return 86400.0;
  return std::nullopt;
}

std::optional<int64_t> parse_int(std::string_view text) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || text.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view text) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || text.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// Reads exactly `n` digits at `pos`.
std::optional<int> digits(std::string_view s, size_t& pos, size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  pos += n;
  return v;
}

bool expect(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

}  // namespace

std::optional<int64_t> parse_timestamp(std::string_view s) {
  size_t pos = 0;
  auto year = digits(s, pos, 4);
  if (!year || !expect(s, pos, '-')) return std::nullopt;
  auto month = digits(s, pos, 2);
  if (!month || !expect(s, pos, '-')) return std::nullopt;
  auto day = digits(s, pos, 2);
  if (!day || pos >= s.size() || (s[pos] != 'T' && s[pos] != ' ')) return std::nullopt;
  ++pos;
  auto hour = digits(s, pos, 2);
  if (!hour || !expect(s, pos, ':')) return std::nullopt;
  auto minute = digits(s, pos, 2);
  if (!minute || !expect(s, pos, ':')) return std::nullopt;
  auto second = digits(s, pos, 2);
  if (!second || *month < 1 || *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 ||
      *second > 60)
    return std::nullopt;
  int64_t frac_ns = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    int64_t scale = 100000000;
    const size_t start = pos;
    for (; pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])); ++pos) {
      frac_ns += (s[pos] - '0') * scale;
      scale /= 10;
    }
    if (pos == start) return std::nullopt;
  }
  int64_t offset_s = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const int sign = s[pos] == '-' ? -1 : 1;
    ++pos;
    auto oh = digits(s, pos, 2);
    if (!oh) return std::nullopt;
    expect(s, pos, ':');
    auto om = digits(s, pos, 2);
    if (!om) return std::nullopt;
    offset_s = sign * (*oh * 3600 + *om * 60);
  }
  if (pos != s.size()) return std::nullopt;
  const int64_t days =
      days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day));
  const int64_t secs = days * 86400 + *hour * 3600 + *minute * 60 + *second - offset_s;
  // Unix ns reach from 1677 to 2262 only: an earlier or later time is not one a run has.
  int64_t ns = 0;
  if (__builtin_mul_overflow(secs, int64_t{1000000000}, &ns) ||
      __builtin_add_overflow(ns, frac_ns, &ns))
    return std::nullopt;
  return ns;
}

std::vector<Line> split_lines(const std::string& text) {
  std::vector<Line> lines;
  size_t start = 0;
  int number = 1;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    const bool terminated = nl != std::string::npos;
    std::string_view line(text.data() + start, (terminated ? nl : text.size()) - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back({number++, line, terminated});
    start = terminated ? nl + 1 : text.size();
  }
  return lines;
}

std::string name_with_params(const std::string& base, const KeyValues& params) {
  std::string name = base;
  for (const auto& [k, v] : params) name.append("/").append(k).append("=").append(v);
  return name;
}

}  // namespace benchguard::ingest
