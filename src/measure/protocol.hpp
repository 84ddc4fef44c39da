// The iteration protocol (benchmark -> benchguard): the benchmark appends one JSON object
// per line to the file named by BENCHGUARD_RESULTS:
//   {"iteration":3,"start_ns":...,"end_ns":...,"burn_in":false,"metrics":{"wall_time":1.2e-3}}
// Timestamps are CLOCK_MONOTONIC nanoseconds. wall_time (seconds) defaults to
// (end_ns - start_ns) * 1e-9 when absent. Optional: "timed_out", "failure" (string).
// A line with "metric" declares a metric's unit and direction instead of reporting an
// iteration:
//   {"metric":"spilled_bytes","unit":"B","better":"lower"}
// ("unit" defaults to "", "better" to "lower"). It may come anywhere in the file. Declaring a
// metric twice differently, or a built-in metric with another unit or direction, is an error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::measure {

// The largest results file one instance may write (1 GiB, some ten million iterations).
inline constexpr size_t kMaxProtocolBytes = size_t{1} << 30;

// Parses protocol text; `source` names it in errors ("file:line: ..."). The metrics the text
// declares go to `declared` when given (in order, each once).
Result<std::vector<IterationRecord>> parse_protocol(std::string_view text,
                                                    const std::string& source,
                                                    std::vector<MetricInfo>* declared = nullptr);
// Reads and parses a results file; a missing or empty file gives no iterations.
Result<std::vector<IterationRecord>> read_protocol_file(
    const std::string& path, std::vector<MetricInfo>* declared = nullptr);

}  // namespace benchguard::measure
