// The importer targets: each feeds its input to ingest::import_text as one format (or "auto").
// A parser must answer every input with a Result: an exception, a crash, a sanitizer report, a
// leak or a hang is a bug.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ingest/ingest.hpp"

namespace benchguard::fuzz {

inline int import_as(const std::string& format, const uint8_t* data, size_t size) {
  // A renamed format would leave the target fuzzing "unknown format" errors only.
  static const bool known = [&] {
    const auto names = ingest::format_names();
    if (format == "auto" || std::find(names.begin(), names.end(), format) != names.end())
      return true;
    std::fprintf(stderr, "no importer is called '%s'\n", format.c_str());
    std::abort();
  }();
  (void)known;
  std::string text(reinterpret_cast<const char*>(data), size);
  auto imported = ingest::import_text("fuzz-input", std::move(text), format, 1);
  if (imported.ok()) {
    // What `import` prints next.
    volatile int n = imported->benchmarks() + imported->instances() + imported->iterations();
    (void)n;
  }
  return 0;
}

}  // namespace benchguard::fuzz
