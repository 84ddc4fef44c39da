// Importers on large files: time that grows with the square of the rows is a hang on a real
// results file. Here because the verdict rests on real timings (run alone).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "ingest/ingest.hpp"

namespace benchguard::ingest {
namespace {

TEST(IngestSize, DuetCsvOf150000IterationsImportsInSeconds) {
  // Each row searched the instances and their iterations so far: 100,000 rows (3 MB) took
  // 22 s in a gcc -O2 build, 150,000 about 50 s; AddressSanitizer builds took minutes.
  std::string csv = "benchmark,runid,pair,iteration,epoch_start_ms,iteration_time_ns\n";
  const int rows = 150000;
  for (int i = 0; i < rows; ++i) csv += "s,0,A," + std::to_string(i) + ",1714564800000,1000\n";
  const auto start = std::chrono::steady_clock::now();
  auto r = import_text("d.csv", std::move(csv), "duet-csv");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->iterations(), rows);
  EXPECT_LT(seconds, 20.0);
}

}  // namespace
}  // namespace benchguard::ingest
