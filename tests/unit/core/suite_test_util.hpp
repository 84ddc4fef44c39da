// Helpers shared by the suite and plan tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/model.hpp"
#include "core/result.hpp"
#include "core/suite.hpp"

namespace benchguard::suite_test {

// Parses as if the suite lived in /proj/suite.yml, so cwd values are predictable.
inline Suite parse(const std::string& yaml) {
  auto r = parse_suite(yaml, "/proj/suite.yml");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : Suite{};
}

inline std::string env_of(const VariantSpec& v, const std::string& name) {
  for (const auto& [k, val] : v.env)
    if (k == name) return val;
  return "<unset>";
}

// The parse failed with "FILE:LINE: ..." (or "FILE: ..." for line 0) mentioning `point`.
template <class T>
void expect_error_at(const Result<T>& r, const std::string& file, int line,
                     const std::string& point) {
  ASSERT_FALSE(r.ok()) << "parsed although it should not";
  const std::string& msg = r.error().message;
  const std::string prefix = file + (line > 0 ? ":" + std::to_string(line) + ": " : ": ");
  EXPECT_EQ(msg.rfind(prefix, 0), 0u) << msg;
  EXPECT_NE(msg.find(point), std::string::npos) << msg;
  EXPECT_EQ(r.error().code, ExitCode::kInput);
}

}  // namespace benchguard::suite_test
