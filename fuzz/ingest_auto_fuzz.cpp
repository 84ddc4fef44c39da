// libFuzzer target: any importer, chosen by content detection ("auto").
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return benchguard::fuzz::import_as("auto", data, size);
}
