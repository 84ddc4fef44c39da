// libFuzzer target: the pytest-benchmark importer.
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return benchguard::fuzz::import_as("pytest-benchmark", data, size);
}
