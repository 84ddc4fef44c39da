// Hail JSONL: one record per instance; benchguard's own jsonl export reads back.
#include <gtest/gtest.h>

#include <sstream>

#include "ingest/ingest.hpp"
#include "report/export.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest {
namespace {

using testing::artifact;
using testing::data_file;
using testing::expect_counts;
using testing::find_variant;
using testing::metric;

TEST(IngestHailJsonl, RecordsAreInstancesWithBurnInAndFailures) {
  auto r = import_file(data_file("hail-benchmarks.jsonl"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_counts(*r, "hail-jsonl", 2, 3, 12);
  const auto* decode = find_variant(r->data, "benchmark_matrix_table_decode_and_count");
  ASSERT_NE(decode, nullptr);
  ASSERT_EQ(decode->instances.size(), 2u);
  const auto& inst = decode->instances[1];
  EXPECT_EQ(inst.index, 1);
  ASSERT_EQ(inst.iterations.size(), 4u);
  EXPECT_TRUE(inst.iterations[0].burn_in);
  EXPECT_FALSE(inst.iterations[1].burn_in);
  EXPECT_DOUBLE_EQ(metric(inst.iterations[0], "wall_time"), 10.112);
  EXPECT_EQ(inst.mem_peak_bytes, 253000000);        // the largest task_memory
  EXPECT_EQ(inst.started_at, 1730815383101001000);  // 2024-11-05T14:03:03.101001+00:00
  EXPECT_TRUE(inst.ok());

  const auto* arith = find_variant(r->data, "benchmark_matrix_table_array_arithmetic");
  ASSERT_NE(arith, nullptr);
  const auto& timed_out = arith->instances.at(0).iterations.at(3);
  EXPECT_TRUE(timed_out.timed_out);
  EXPECT_EQ(timed_out.failure, "TimeoutError: benchmark exceeded 100s");
  EXPECT_FALSE(timed_out.metric("wall_time").has_value());
  EXPECT_TRUE(arith->instances[0].ok());  // one failed iteration does not fail the instance

  EXPECT_EQ(r->data.run.suite, "hail");
  EXPECT_EQ(r->data.run.hostname, "batch-worker-7");
  EXPECT_EQ(r->data.run.started_at, 1730815331412345000);
  EXPECT_EQ(r->data.run.finished_at, 1730815540250000000);
  EXPECT_EQ(artifact(r->data, "version"), "0.2.133-4c60fddb171a");
  EXPECT_EQ(artifact(r->data, "path"), "benchmark/hail/benchmark_matrix_table.py");
  EXPECT_EQ(artifact(r->data, "batch_id"), "8123456");
  EXPECT_EQ(artifact(r->data, "uname.release"), "5.15.0-1057-gcp");
}

TEST(IngestHailJsonl, NewerWriterCallsTheIterationsRuns) {
  auto r =
      import_text("h.jsonl",
                  "{\"path\": \"p.py\", \"name\": \"b\", \"start\": "
                  "\"2024-01-01T00:00:00+00:00\", \"end\": null, \"runs\": [{\"iteration\": 0, "
                  "\"time\": 1.5, \"is_burn_in\": false, \"timed_out\": false, \"failure\": "
                  "null, \"task_memory\": null}]}\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->iterations(), 1);
  EXPECT_DOUBLE_EQ(metric(r->data.variants.at(0).instances.at(0).iterations.at(0), "wall_time"),
                   1.5);
}

TEST(IngestHailJsonl, BenchguardExportReadsBack) {
  RunData run;
  run.run.suite = "s";
  for (const char* name : {"A", "B"}) {
    VariantData v;
    v.variant.benchmark = "parse";
    v.variant.name = name;
    for (int i = 0; i < 2; ++i) {
      InstanceRecord inst;
      inst.index = i;
      inst.started_at = 1700000000000000000 + i * 1000000000LL;
      inst.mem_peak_bytes = 4096;
      inst.mem_samples = 1;
      for (int k = 0; k < 3; ++k) {
        IterationRecord it;
        it.index = k;
        it.burn_in = k == 0;
        it.metrics = {{"wall_time", 0.5 + k + i}};
        inst.iterations.push_back(it);
      }
      v.instances.push_back(inst);
    }
    run.variants.push_back(v);
  }
  run.variants[1].instances[1].failure = "exit code 3";
  std::ostringstream out;
  report::export_jsonl({run}, out);
  auto r = import_text("export.jsonl", out.str());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->format, "hail-jsonl");
  ASSERT_EQ(r->data.variants.size(), 2u);
  EXPECT_EQ(r->data.variants[1].variant.name, "B");
  const auto& inst = r->data.variants[1].instances.at(1);
  EXPECT_EQ(inst.failure, "exit code 3");
  EXPECT_EQ(inst.started_at, 1700000001000000000);
  EXPECT_EQ(inst.mem_peak_bytes, 4096);
  ASSERT_EQ(inst.iterations.size(), 3u);
  EXPECT_TRUE(inst.iterations[0].burn_in);
  EXPECT_DOUBLE_EQ(metric(inst.iterations[2], "wall_time"), 3.5);
}

// Records whose iterations are plain take the simdjson path; a nested member in an iteration
// (which both paths ignore) sends the line to the nlohmann DOM. Both read the same records:
// everything export writes agrees, over nulls, repeated members, escapes, large integers,
// "runs", failures, task_memory, flags and machine members of the first record.
TEST(IngestHailJsonl, FastPathAndDomReadTheSameRecords) {
  const std::vector<std::string> iterations = {
      R"({"time": 1.5, "is_burn_in": true, "timed_out": false, "failure": null})",
      R"({"time": 2, "is_burn_in": null, "task_memory": 18446744073709551615e-10})",
      R"({"time": 1e-9, "time": 3.25, "failure": "Trace\n\"x\" \u00e9 \ud83d\ude00"})",
      R"({"time": null, "timed_out": true, "task_memory": 253000000, "iteration": 7})",
      R"({"time": 18446744073709551615, "task_memory": 9223372036854775807.0e-9})",
      R"({"time": -0.0, "failure": "", "extra": "text", "n": 12})",
      R"({})",
  };
  std::string its;
  std::string nested;
  for (const auto& it : iterations) {
    its += (its.empty() ? "" : ", ") + it;
    nested += std::string(nested.empty() ? "" : ", ") + "{\"x\": {\"y\": [1]}, " + it.substr(1);
  }
  const std::string empty_tail = "{\"x\": {\"y\": [1]}, }";  // from the empty iteration
  nested.replace(nested.find(empty_tail), empty_tail.size(), "{\"x\": {\"y\": [1]}}");
  const auto file = [](const std::string& list) {
    return R"({"path": "p.py", "name": "b", "version": "0.2", "uname": {"node": "h1", "cpus": 8},)"
           R"( "start": "2024-11-05T14:02:11+00:00", "end": null, "iterations": [)" +
           list + "]}\n" + R"({"name": "c", "variant": "v\u00e9", "failure": "killed", "runs": [)" +
           list + "], \"name\": \"c2\"}\n" + R"({"name": "d", "iterations": []})" + "\n";
  };
  const auto exported = [](const std::string& text) {
    auto r = import_text("h.jsonl", text, "hail-jsonl", 1'700'000'000'000'000'000);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r.ok()) return std::string();
    r->data.run.uuid = "same";
    std::ostringstream out;
    report::export_json({r->data}, out);
    return out.str();
  };
  const std::string fast = exported(file(its));
  EXPECT_EQ(fast, exported(file(nested)));
  EXPECT_NE(fast.find("\"c2\""), std::string::npos);       // a repeated member: the last
  EXPECT_NE(fast.find("h1"), std::string::npos);           // the machine, from the first record
  EXPECT_NE(fast.find("9223372036,"), std::string::npos);  // the largest task_memory

  // What the fast path does not take, the DOM reports with the same words as ever.
  for (const char* bad : {R"({"name": "b", "iterations": [{"time": "fast"}]})",
                          R"({"name": "b", "iterations": [{"time": 1e999}]})",
                          R"({"name": "b", "iterations": [{"task_memory": 1e300}]})",
                          R"({"name": "b", "iterations": [1]})"}) {
    auto r = import_text("bad.jsonl", std::string(bad) + "\n", "hail-jsonl", 1);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().message.rfind("bad.jsonl:1: ", 0), 0u) << r.error().message;
  }
}

}  // namespace
}  // namespace benchguard::ingest
