// libFuzzer target: the iteration protocol reader (measure/protocol.hpp), which reads the
// JSON lines a benchmark appends to $BENCHGUARD_RESULTS.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "measure/protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto records = benchguard::measure::parse_protocol(text, "fuzz-input");
  if (records.ok()) {
    volatile double sum = 0;
    for (const auto& r : *records)
      if (const auto w = r.metric("wall_time")) sum = sum + *w;
  }
  return 0;
}
