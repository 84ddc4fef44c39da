// libFuzzer target: the duet-csv importer (asynchronous-duet results CSV).
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return benchguard::fuzz::import_as("duet-csv", data, size);
}
