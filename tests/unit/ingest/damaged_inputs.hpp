// Every fixture and test input, and how to damage it: cut off in the middle, one required
// field given the wrong type, garbage bytes. Shared by the importer tests and the CLI
// tests, which check that each damaged copy is refused and stores nothing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "unit/ingest/ingest_test_util.hpp"

namespace benchguard::ingest::testing {

struct InputFile {
  std::string path;
  std::string format;
  // The wrong-type damage: a JSON pointer set to `wrong` (JSON files), or the first
  // occurrence of `from` replaced by `to` (text files).
  std::string pointer;
  nlohmann::json wrong;
  std::string from, to;
};

inline InputFile json_input(std::string path, std::string format, std::string pointer,
                            nlohmann::json wrong) {
  return InputFile{
      std::move(path), std::move(format), std::move(pointer), std::move(wrong), "", ""};
}
inline InputFile text_input(std::string path, std::string format, std::string from,
                            std::string to) {
  return InputFile{std::move(path), std::move(format), "", nullptr, std::move(from), std::move(to)};
}

inline std::vector<InputFile> all_inputs() {
  using nlohmann::json;
  const std::string gb = "google-benchmark/", jmh = "jmh/", pb = "pytest-benchmark/";
  return {
      json_input(fixture(gb + "cxxgraph-base-20reps.json"), "google-benchmark",
                 "/benchmarks/0/real_time", "fast"),
      json_input(fixture(gb + "cxxgraph-bellmanford-bigO.json"), "google-benchmark",
                 "/benchmarks/0/real_time", json::array()),
      json_input(fixture(gb + "gbench-Inputs-test3_run0.json"), "google-benchmark",
                 "/benchmarks/1/real_time", "9"),
      json_input(fixture(gb + "gbench-Inputs-test3_run1.json"), "google-benchmark",
                 "/benchmarks/0/name", 12),
      json_input(fixture(gb + "gbench-Inputs-test4_run.json"), "google-benchmark",
                 "/benchmarks/0/run_type", 5),
      json_input(fixture(gb + "github-action-benchmark-googlecpp_output.json"), "google-benchmark",
                 "/benchmarks/1/time_unit", true),
      json_input(fixture("hyperfine/bencher-hyperfine-two.json"), "hyperfine", "/results/0/times/3",
                 "0.1"),
      json_input(fixture("hyperfine/bencher-hyperfine-one.json"), "hyperfine", "/results/0/command",
                 42),
      json_input(fixture(jmh + "bencher-jmh-six.json"), "jmh", "/3/primaryMetric/rawData/0/1",
                 "fast"),
      json_input(fixture(jmh + "bencher-jmh-latency.json"), "jmh", "/0/primaryMetric/scoreUnit", 1),
      json_input(fixture(jmh + "github-action-benchmark-jmh_output.json"), "jmh", "/0/mode", true),
      json_input(fixture(jmh + "github-action-benchmark-jmh_output_2.json"), "jmh", "/0/params",
                 "paramA=17"),
      json_input(fixture("renaissance/chi-square.0.A.results.json"), "renaissance",
                 "/data/chi-square/results/4/duration_ns", "1.9e9"),
      json_input(fixture("renaissance/chi-square.0.B.results.json"), "renaissance",
                 "/format_version", "5"),
      json_input(fixture(pb + "github-action-benchmark-pytest_output.json"), "pytest-benchmark",
                 "/benchmarks/0/fullname", 7),
      json_input(fixture(pb + "github-action-benchmark-pytest_several_units.json"),
                 "pytest-benchmark", "/benchmarks/2/stats/data", "none"),
      json_input(fixture(pb + "pytest-benchmark-test_storage-0030.json"), "pytest-benchmark",
                 "/benchmarks/0/stats", json::array({1, 2})),
      text_input(fixture("asynchronous-duet/results.renaissance.test.csv"), "duet-csv",
                 ",5589904584,", ",5589904584ns,"),
      text_input(fixture("asynchronous-duet/results.renaissance.test.v0.csv"), "duet-csv",
                 ",9052543216,", ",9.05e9s,"),
      text_input(data_file("hail-benchmarks.jsonl"), "hail-jsonl", "\"time\": 9.871",
                 "\"time\": \"9.871\""),
      text_input(data_file("go-test-bench.txt"), "go", "41696568", "4169x568"),
  };
}

// Cut inside a line, never right after a newline (which would leave a shorter valid file).
inline std::string truncated(const std::string& text) {
  size_t cut = text.size() / 2;
  while (cut < text.size() && (text[cut - 1] == '\n' || text[cut] == '\n')) ++cut;
  return text.substr(0, cut);
}

inline std::string wrong_type(const InputFile& f, const std::string& text) {
  if (!f.pointer.empty()) {
    auto j = nlohmann::json::parse(text);
    j[nlohmann::json::json_pointer(f.pointer)] = f.wrong;
    return j.dump(1);
  }
  std::string out = text;
  const auto at = out.find(f.from);
  if (at != std::string::npos) out.replace(at, f.from.size(), f.to);
  return out;
}

inline std::string garbage(const std::string& text) {
  std::string out = text;
  out.insert(text.size() / 3, std::string("\x00\xff\xfe\x01garbage\x7f", 12));
  return out;
}

}  // namespace benchguard::ingest::testing
