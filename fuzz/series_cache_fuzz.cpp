// libFuzzer target: the series cache entry reader (analysis/series_cache.hpp). The store keeps
// entries as bytes; whatever bytes it hands back, decode() is an Error or an entry whose every
// metric reads back with as many instances and values as it declares.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analysis/series_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto entry = benchguard::analysis::RunSeries::decode(
      std::string(reinterpret_cast<const char*>(data), size));
  if (!entry.ok()) return 0;
  for (const auto& v : entry->variants())
    for (const auto& m : v.metrics) {
      const auto values = entry->data(m);
      if (values.size() != m.values || values.instances() != m.instances) {
        std::fprintf(stderr, "metric %s declares %zu instances of %zu values, reads %zu of %zu\n",
                     m.info.name.c_str(), m.instances, m.values, values.instances(), values.size());
        std::abort();
      }
    }
  return 0;
}
