// libFuzzer target: the calibration file reader (core/calibration.hpp). A calibration it reads
// must also survive format_calibration and be read back with the same entries.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/calibration.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto cal = benchguard::parse_calibration(text, "fuzz-input");
  if (!cal.ok()) return 0;
  const std::string again_text = benchguard::format_calibration(*cal);
  auto again = benchguard::parse_calibration(again_text, "fuzz-output");
  if (!again.ok()) {
    std::fprintf(stderr, "format_calibration wrote a file parse_calibration rejects: %s\n%s",
                 again.error().message.c_str(), again_text.c_str());
    std::abort();
  }
  bool same = again->entries.size() == cal->entries.size() && again->runs == cal->runs;
  for (std::size_t i = 0; same && i < cal->entries.size(); ++i)
    same = again->find(cal->entries[i].benchmark, cal->entries[i].metric) != nullptr &&
           again->entries[i].comparisons == cal->entries[i].comparisons;
  if (!same) {
    std::fprintf(stderr, "format_calibration changed the calibration:\n%s", again_text.c_str());
    std::abort();
  }
  return 0;
}
