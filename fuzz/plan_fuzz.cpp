// libFuzzer target: the plan parser (core/suite.hpp parse_plan). A plan it reads must also
// survive format_plan and be read back with the same benchmarks and counts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto plan = benchguard::parse_plan(text, "fuzz-input");
  if (!plan.ok()) return 0;
  const std::string again_text = benchguard::format_plan(*plan, {"comment"});
  auto again = benchguard::parse_plan(again_text, "fuzz-output");
  if (!again.ok()) {
    std::fprintf(stderr, "format_plan wrote a plan parse_plan rejects: %s\n%s",
                 again.error().message.c_str(), again_text.c_str());
    std::abort();
  }
  bool same = again->benchmarks.size() == plan->benchmarks.size();
  for (const auto& [name, entry] : plan->benchmarks) {
    const auto it = again->benchmarks.find(name);
    same = same && it != again->benchmarks.end() && it->second.burn_in == entry.burn_in &&
           it->second.instances == entry.instances && it->second.iterations == entry.iterations;
  }
  if (!same) {
    std::fprintf(stderr, "format_plan changed the plan:\n%s", again_text.c_str());
    std::abort();
  }
  return 0;
}
