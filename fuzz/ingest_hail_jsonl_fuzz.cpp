// libFuzzer target: the hail-jsonl importer (Hail benchmark JSON lines).
#include "ingest_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return benchguard::fuzz::import_as("hail-jsonl", data, size);
}
