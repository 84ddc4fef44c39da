// Compact JSON for large series: values as integers in units of a per-series scale (five
// significant digits of the largest value), and increasing indices as differences, so that a
// thousand series of a thousand commits stay a site of a few megabytes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "core/json_number.hpp"

namespace benchguard::report::html {

// A power of ten such that the largest finite |value| is below 100000 units of it (1 when
// there is none).
double scale_of(std::span<const double> values);

// round(value / scale) for each value; null where a value is not finite.
nlohmann::json scaled(std::span<const double> values, double scale);

// The first value, then each value minus the one before.
nlohmann::json deltas(std::span<const int64_t> values);

// Runs of equal values as pairs, flattened: [value, count, value, count, ...].
nlohmann::json run_lengths(std::span<const int64_t> values);

// The differences of increasing indices (commits, runs) as run lengths: a regular history is
// a few numbers.
nlohmann::json index_deltas(std::span<const int64_t> values);

// scaled(), then each integer minus the one before it (nulls stay null and are skipped).
nlohmann::json scaled_deltas(std::span<const double> values, double scale);

}  // namespace benchguard::report::html
