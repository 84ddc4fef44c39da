// Numbers as people read them, written in one place: a value that is not finite is "-"
// everywhere (scripts get an empty cell or null instead: report/table.hpp).
#pragma once

#include <string>

namespace benchguard::report {

// What people see for a value that is not known.
inline constexpr const char* kNotKnown = "-";

// 0.98143 -> "0.981" (digits 3).
std::string fixed_text(double x, int digits);
// A fraction as a percentage with `digits` decimals: 0.0512 -> "5.1%" (digits 1); `sign`:
// "+5.1%".
std::string percent_text(double fraction, int digits, bool sign = false);
// A fraction as a percentage with `digits` significant digits: 0.000512 -> "0.0512%".
std::string significant_percent_text(double fraction, int digits);
// A number with `digits` significant digits: 0.000123456 -> "0.000123" (digits 3).
std::string significant_text(double x, int digits);

}  // namespace benchguard::report
