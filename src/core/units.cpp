#include "core/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <utility>

namespace benchguard {
namespace {

// The number `text` starts with and the unit after it; nothing when it starts with none.
std::optional<std::pair<double, std::string>> number_and_unit(const std::string& text) {
  size_t used = 0;
  try {
    const double v = std::stod(text, &used);
    return std::make_pair(v, text.substr(used));
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

Result<double> parse_duration(const std::string& text) {
  const Error bad{"invalid duration '" + text + "' (write e.g. 30s, 500ms, 2m, 1h or seconds)"};
  const auto parsed = number_and_unit(text);
  if (!parsed) return bad;
  const auto& [v, unit] = *parsed;
  double scale = 0;
  if (unit.empty() || unit == "s")
    scale = 1;
  else if (unit == "ms")
    scale = 1e-3;
  else if (unit == "us")
    scale = 1e-6;
  else if (unit == "ns")
    scale = 1e-9;
  else if (unit == "m" || unit == "min")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  else
    return bad;
  if (!std::isfinite(v) || v < 0) return bad;
  return v * scale;
}

Result<double> parse_fraction(const std::string& text, const std::string& what) {
  const Error bad{what + " must be a fraction below 1 or a percentage (0.05 or 5%), not '" + text +
                  "'"};
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (...) {
    return bad;
  }
  const std::string rest = text.substr(used);
  const bool percent = rest == "%";
  if ((!percent && !rest.empty()) || !std::isfinite(v) || v < 0) return bad;
  // A bare 5 is 500%: one missing % would switch a threshold off.
  if (!percent && v >= 1)
    return Error{fmt::format("{} {} would mean {:.10g}%; write {}%{}", what, text, 100 * v, text,
                             v == 1 ? " or 100%" : "")};
  if (percent) v /= 100;
  if (v >= kMaxFraction)
    return Error{fmt::format("{} must be below {:g}%, not '{}'", what, 100 * kMaxFraction, text)};
  return v;
}

std::string format_seconds(double s) {
  const double a = std::fabs(s);
  if (a == 0) return "0 s";
  if (a < 1e-6) return fmt::format("{:.3f} ns", s * 1e9);
  if (a < 1e-3) return fmt::format("{:.3f} µs", s * 1e6);
  if (a < 1) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} s", s);
}

std::string format_duration(double s) {
  const double a = std::fabs(s);
  if (a >= 3600) return fmt::format("{:.2f} h", s / 3600);
  if (a >= 60) return fmt::format("{:.1f} min", s / 60);
  return format_seconds(s);
}

std::string format_bytes(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{:.0f} B", v);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

Result<double> parse_bytes(const std::string& text) {
  const Error bad{"invalid size '" + text + "' (write e.g. 20G, 512M or bytes)"};
  const auto parsed = number_and_unit(text);
  if (!parsed) return bad;
  const double v = parsed->first;
  std::string unit = parsed->second;
  if (unit.ends_with("iB"))
    unit.resize(unit.size() - 2);
  else if (unit.size() > 1 && unit.ends_with("B"))
    unit.pop_back();
  static const std::string kUnits = "KMGT";
  const auto power =
      unit.size() == 1 ? kUnits.find(static_cast<char>(std::toupper(unit[0]))) : std::string::npos;
  double scale = 1;
  if (power != std::string::npos)
    scale = std::pow(1024.0, static_cast<double>(power + 1));
  else if (!unit.empty() && unit != "B")
    return bad;
  if (!std::isfinite(v) || v < 0) return bad;
  return v * scale;
}

std::string format_value(double v, const std::string& unit) {
  if (unit == "s") return format_seconds(v);
  if (unit == "B") return format_bytes(v);
  return fmt::format("{:.4g}", v);
}

namespace {
std::tm utc(int64_t unix_ns, long* frac_ms) {
  const time_t secs = static_cast<time_t>(unix_ns / 1000000000);
  if (frac_ms != nullptr) *frac_ms = static_cast<long>((unix_ns % 1000000000) / 1000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return tm;
}
}  // namespace

std::string format_time(int64_t unix_ns) {
  const std::tm tm = utc(unix_ns, nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string format_iso8601(int64_t unix_ns) {
  long ms = 0;
  const std::tm tm = utc(unix_ns, &ms);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03d}Z", buf, ms);
}

Result<int64_t> parse_date(const std::string& text) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char sep = 0;
  const int n =
      std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d", &y, &mo, &d, &sep, &h, &mi, &s);
  const bool ok = (n == 3) || ((n == 6 || n == 7) && (sep == ' ' || sep == 'T'));
  if (!ok || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return Error{"invalid date '" + text + "' (write YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS], UTC)"};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return static_cast<int64_t>(timegm(&tm)) * 1000000000;
}

}  // namespace benchguard
