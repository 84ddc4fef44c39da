// Importers: results written by other harnesses (and by benchguard's own exporters) read
// into the records the store keeps. Each file becomes one run with status "imported" (a file
// of Otava's CSV layout one run per commit).
// Parsing never touches a database: the CLI parses every file first and stores the runs
// afterwards in one transaction, so a bad file stores nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::ingest {

struct Imported {
  std::string path;
  std::string format;  // the importer that read it
  RunData data;        // run.uuid is left empty for the caller to assign
  // Formats that hold a history (Otava's CSV layout: one row per commit) give one run per
  // commit here, in file order, and leave `data` empty.
  std::vector<RunData> history;
  // Metrics that are not built in, with their unit and direction.
  std::vector<MetricInfo> metrics;
  // One line each, without the file name; e.g. samples that were not numbers.
  std::vector<std::string> warnings;

  // Every run the file holds: the runs of `history` when there are any, else `data`.
  std::vector<RunData*> runs();
  std::vector<const RunData*> runs() const;

  int benchmarks() const;
  int instances() const;
  int iterations() const;
  int summaries() const;
};

// The largest file import reads (1 GiB); a larger one, or an endless device, is refused.
inline constexpr size_t kMaxImportBytes = size_t{1} << 30;

// The formats, in the order auto-detection tries them.
std::vector<std::string> format_names();

// Reads one file and parses it with `importer` (a name of format_names(); "auto": recognised from
// the content, not from the name). Errors are one line naming the file, and the line or JSON field
// where it can.
Result<Imported> import_file(const std::string& path, const std::string& importer = "auto");

// The same for text already in memory; `fallback_time` (unix ns) is the run's start when
// the text records none (import_file passes the file's modification time).
Result<Imported> import_text(const std::string& path, std::string text,
                             const std::string& importer = "auto", int64_t fallback_time = 0);

// What one instance of a Google Benchmark binary wrote with --benchmark_out (a suite's
// `format: google-benchmark`): its repetition rows as iterations, in order, with their times
// and counters as metrics. An Error when the file holds no repetition row, or rows of several
// benchmarks (each benchguard benchmark runs one; --benchmark_filter narrows it).
Result<std::vector<IterationRecord>> google_benchmark_iterations(const std::string& path,
                                                                 std::string text);
// The metrics Google Benchmark adds itself that are not built in: its rates, higher is better.
std::vector<MetricInfo> google_benchmark_metrics();

}  // namespace benchguard::ingest
