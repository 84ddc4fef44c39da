// Row checksums (migration 0006): FNV-1a 64 over a canonical encoding of what a row holds,
// computed when it is written and verified by `benchguard db check`. Any single flipped bit
// in the encoded values changes the checksum. The encodings are part of the file format:
// never change one; add a new version beside it.
//
// The encodings follow what the store reads back, not what it was given: metrics of an
// iteration in name order, every NaN alike, -0.0 as 0.0, an empty failure as none, and an
// instance timed from outside as the reader rebuilds it (one iteration, its metrics taken
// from the instance's own columns, so they are not encoded twice).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/model.hpp"
#include "store/writer.hpp"

namespace benchguard::store {

// The fields of a runs row that say which run it is and how it ended, with its labels and
// artifacts in stored order.
int64_t run_checksum(const RunRecord& run);

// A variants row: its run's uuid, its benchmark's name and its own columns as stored (the
// JSON texts of command, params and env).
struct VariantColumns {
  std::string run_uuid;
  std::string benchmark;
  std::string name;
  std::string command;
  std::string params;
  std::string env;
  std::string config_json;
};
int64_t variant_checksum(const VariantColumns& variant);

// A metrics row: name, unit and direction ("lower" or "higher") as stored.
int64_t metric_checksum(const std::string& name, const std::string& unit,
                        const std::string& direction);

// A run_writers row (0005), with its run's uuid.
int64_t writer_checksum(const std::string& run_uuid, const WriterIdentity& writer);

// An instance with its iterations and metric values; `variant_key` names its variant
// (variant_key()), so that an instance moved to another variant no longer matches.
int64_t instance_checksum(const std::string& variant_key, const InstanceRecord& instance);
// A summaries row (0008): its variant (variant_key()), metric name, count and statistics.
int64_t summary_checksum(const std::string& variant_key, const SummaryRecord& summary);
// A series_cache row (0011): its run's uuid, its key and its bytes.
int64_t series_cache_checksum(const std::string& run_uuid, const std::string& key,
                              std::string_view data);
std::string variant_key(const std::string& run_uuid, const std::string& benchmark,
                        const std::string& variant);

}  // namespace benchguard::store
