// Shared by the importer tests: paths of the inputs under tests/data/ingest, and small
// lookups into an imported run.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ingest/ingest.hpp"

namespace benchguard::ingest::testing {

// An input of the importer tests, under tests/data/ingest (its README.md says how each
// file was made).
inline std::string data_file(const std::string& name) {
  return std::string(BG_SOURCE_DIR) + "/tests/data/ingest/" + name;
}

// The variant of a benchmark, or nullptr.
inline const VariantData* find_variant(const RunData& run, const std::string& benchmark,
                                       const std::string& variant = "default") {
  for (const auto& v : run.variants)
    if (v.variant.benchmark == benchmark && v.variant.name == variant) return &v;
  return nullptr;
}

inline std::string artifact(const RunData& run, const std::string& key) {
  for (const auto& [k, v] : run.run.artifacts)
    if (k == key) return v;
  return "<missing>";
}

// What an importer made of a file: its format, and how many benchmark variants, instances and
// iterations.
inline void expect_counts(const Imported& r, const std::string& format, int benchmarks,
                          int instances, int iterations) {
  EXPECT_EQ(r.format, format);
  EXPECT_EQ(r.benchmarks(), benchmarks);
  EXPECT_EQ(r.instances(), instances);
  EXPECT_EQ(r.iterations(), iterations);
}

inline double metric(const IterationRecord& it, const std::string& name) {
  return it.metric(name).value_or(-1.0);
}

}  // namespace benchguard::ingest::testing
