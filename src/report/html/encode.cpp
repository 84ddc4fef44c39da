#include "report/html/encode.hpp"

#include <algorithm>
#include <cmath>

namespace benchguard::report::html {

double scale_of(std::span<const double> values) {
  double largest = 0;
  for (double v : values)
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  if (largest == 0) return 1;
  return std::pow(10.0, std::floor(std::log10(largest)) - 4);
}

nlohmann::json scaled(std::span<const double> values, double scale) {
  nlohmann::json out = nlohmann::json::array();
  for (double v : values) {
    if (std::isfinite(v))
      out.push_back(static_cast<int64_t>(std::llround(v / scale)));
    else
      out.push_back(nullptr);
  }
  return out;
}

nlohmann::json deltas(std::span<const int64_t> values) {
  nlohmann::json out = nlohmann::json::array();
  int64_t before = 0;
  for (int64_t v : values) {
    out.push_back(v - before);
    before = v;
  }
  return out;
}

nlohmann::json run_lengths(std::span<const int64_t> values) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    out.push_back(values[i]);
    out.push_back(j - i);
    i = j;
  }
  return out;
}

nlohmann::json index_deltas(std::span<const int64_t> values) {
  std::vector<int64_t> d(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) d[i] = values[i] - (i == 0 ? 0 : values[i - 1]);
  return run_lengths(d);
}

nlohmann::json scaled_deltas(std::span<const double> values, double scale) {
  nlohmann::json out = nlohmann::json::array();
  int64_t before = 0;
  for (double v : values) {
    if (!std::isfinite(v)) {
      out.push_back(nullptr);
      continue;
    }
    const int64_t x = std::llround(v / scale);
    out.push_back(x - before);
    before = x;
  }
  return out;
}

}  // namespace benchguard::report::html
