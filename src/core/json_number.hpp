// A number as JSON writes it: the value, or null where it is not finite (NaN, infinities),
// which JSON cannot hold. Every JSON output of benchguard writes its numbers through this.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

namespace benchguard {

inline nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

}  // namespace benchguard
