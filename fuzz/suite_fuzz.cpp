// libFuzzer target: the suite parser (core/suite.hpp): YAML, settings, params expansion, and
// the A/A form of what it read.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // An absolute path: relative cwd values resolve without asking the file system.
  auto suite = benchguard::parse_suite(text, "/fuzz/suite.yml");
  if (suite.ok()) {
    auto null = benchguard::null_suite(*suite, "");
    (void)null.ok();
  }
  return 0;
}
