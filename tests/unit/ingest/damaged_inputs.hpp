// Every importer test input, and how to damage it: cut off in the middle, one required
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
  return {
      json_input(data_file("gbench-repetitions.json"), "google-benchmark",
                 "/benchmarks/0/real_time", "fast"),
      json_input(data_file("gbench-complexity.json"), "google-benchmark", "/benchmarks/0/real_time",
                 json::array()),
      json_input(data_file("gbench-plain.json"), "google-benchmark", "/benchmarks/1/time_unit",
                 true),
      json_input(data_file("gbench-aggregates-only.json"), "google-benchmark",
                 "/benchmarks/0/run_type", 5),
      json_input(data_file("hyperfine-two.json"), "hyperfine", "/results/0/times/3", "0.1"),
      json_input(data_file("hyperfine-one.json"), "hyperfine", "/results/0/command", 42),
      json_input(data_file("hyperfine-scan.json"), "hyperfine", "/results/1/exit_codes/0", "1"),
      json_input(data_file("jmh-throughput.json"), "jmh", "/1/primaryMetric/rawData/0/1", "fast"),
      json_input(data_file("jmh-modes.json"), "jmh", "/1/primaryMetric/rawDataHistogram/0/0/0",
                 "11.5"),
      json_input(data_file("renaissance-scrabble.json"), "renaissance",
                 "/data/scrabble/results/4/duration_ns", "1.9e9"),
      json_input(data_file("renaissance-two.json"), "renaissance", "/format_version", "5"),
      json_input(data_file("pytest-benchmark.json"), "pytest-benchmark", "/benchmarks/0/fullname",
                 7),
      json_input(data_file("pytest-benchmark-stats-only.json"), "pytest-benchmark",
                 "/benchmarks/0/stats", json::array({1, 2})),
      text_input(data_file("duet-unified.csv"), "duet-csv", ",856789012,", ",856789012ns,"),
      text_input(data_file("duet-unified-v0.csv"), "duet-csv", ",421098765,", ",4.2e8s,"),
      text_input(data_file("hail-benchmarks.jsonl"), "hail-jsonl", "\"time\": 9.871",
                 "\"time\": \"9.871\""),
      text_input(data_file("go-test-bench.txt"), "go", "41696568", "4169x568"),
      text_input(data_file("otava-sample.csv"), "otava-csv", ",1002.4,", ",1002.4x,"),
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

// The wrong-type field (JSON) or the first number of `from` (text) written as 1e999: valid
// syntax, beyond the range of a double.
inline std::string huge_number(const InputFile& f, const std::string& text) {
  if (!f.pointer.empty()) {
    auto j = nlohmann::json::parse(text);
    j[nlohmann::json::json_pointer(f.pointer)] = "@huge@";
    std::string out = j.dump(1);
    out.replace(out.find("\"@huge@\""), 8, "1e999");
    return out;
  }
  const auto digit = f.from.find_first_of("0123456789");
  const auto end = f.from.find_first_not_of("0123456789.", digit);
  std::string huge = f.from;
  huge.replace(digit, (end == std::string::npos ? huge.size() : end) - digit, "1e999");
  std::string out = text;
  const auto at = out.find(f.from);
  if (at != std::string::npos) out.replace(at, f.from.size(), huge);
  return out;
}

inline std::string garbage(const std::string& text) {
  std::string out = text;
  out.insert(text.size() / 3, std::string("\x00\xff\xfe\x01garbage\x7f", 12));
  return out;
}

}  // namespace benchguard::ingest::testing
