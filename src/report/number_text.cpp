#include "report/number_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace benchguard::report {

std::string fixed_text(double x, int digits) {
  return std::isfinite(x) ? fmt::format("{:.{}f}", x, digits) : kNotKnown;
}

std::string percent_text(double fraction, int digits, bool sign) {
  if (!std::isfinite(fraction)) return kNotKnown;
  return sign ? fmt::format("{:+.{}f}%", 100 * fraction, digits)
              : fmt::format("{:.{}f}%", 100 * fraction, digits);
}

std::string significant_percent_text(double fraction, int digits) {
  return std::isfinite(fraction) ? fmt::format("{:.{}g}%", 100 * fraction, digits) : kNotKnown;
}

std::string significant_text(double x, int digits) {
  return std::isfinite(x) ? fmt::format("{:.{}g}", x, digits) : kNotKnown;
}

}  // namespace benchguard::report
