// libFuzzer target: the otava-csv importer (Apache Otava's CSV layout).
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return benchguard::fuzz::import_as("otava-csv", data, size);
}
