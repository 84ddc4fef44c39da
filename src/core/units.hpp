// Durations, sizes and times as people write and read them.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace benchguard {

// "1.5" (seconds), "500ms", "30s", "2m", "1h", "250us", "100ns" -> seconds. Negative or
// malformed input is an Error that quotes the text.
Result<double> parse_duration(const std::string& text);

// "5%" or "0.05" -> 0.05: a percentage, or a fraction below 1. A bare number of 1 or more is an
// Error that says what it would mean ("--threshold 5 would mean 500%; write 5%"); so are
// negative, non-finite and malformed text and kMaxFraction or more, each naming `what` (the
// flag or key it came from). Callers check their own narrower ranges.
inline constexpr double kMaxFraction = 10;  // 1000%
Result<double> parse_fraction(const std::string& text, const std::string& what);

// 0.00123 -> "1.230 ms": three significant decimals in the largest fitting unit.
std::string format_seconds(double s);
// Like format_seconds, and in minutes or hours from a minute on: 4350 -> "1.21 h".
std::string format_duration(double s);
// 1536 -> "1.5 KiB".
std::string format_bytes(double bytes);
// "20G", "512M", "1.5GiB", "100K", "4096" -> bytes; K, M, G and T are powers of 1024, with or
// without "B" or "iB" after them. Negative or malformed input is an Error that quotes the text.
Result<double> parse_bytes(const std::string& text);
// A value in its metric's unit ("s", "B", or anything else printed as a plain number).
std::string format_value(double v, const std::string& unit);
// unix epoch ns -> "2026-11-21 13:46:22" (UTC) / "2026-11-21T13:46:22.123Z".
std::string format_time(int64_t unix_ns);
std::string format_iso8601(int64_t unix_ns);
// "2026-11-21", "2026-11-21 13:46", "2026-11-21T13:46:22Z" (UTC) -> unix ns.
Result<int64_t> parse_date(const std::string& text);

}  // namespace benchguard
