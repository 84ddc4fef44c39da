// Iterations stored by column (migration 0009): an instance's iterations are one
// iteration_blocks row of packed arrays, and each metric they report one iteration_values row.
// A million iterations are then a few rows and 24 bytes each, written and read as arrays.
//
// The encodings are part of the file format:
//   idx, start_ns, end_ns  int64 little-endian, one per iteration, in the order given;
//                          idx is NULL when the indexes are 0, 1, 2, ...
//   flags                  one byte per iteration: 1 burn-in, 2 timed out; NULL when all 0
//   failures               JSON [[position, "message"], ...]; NULL when none failed
//   data                   float64 little-endian per iteration (one NaN for every NaN, 0.0
//                          for -0.0, as the row layout read them back)
//   present                one byte per iteration, 1 where it reports the metric; NULL when
//                          every iteration does (an absent value is stored as NaN)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "store/sqlite/db.hpp"

namespace benchguard::store::sqlite {

struct PackedMetric {
  std::string name;
  std::optional<std::string> present;
  std::string data;
};

struct PackedIterations {
  int64_t count = 0;
  std::optional<std::string> idx;
  std::string start_ns;
  std::string end_ns;
  std::optional<std::string> flags;
  std::optional<std::string> failures;
  std::vector<PackedMetric> metrics;  // in the order first reported
};

// Packs `iterations`; `with_metrics` false packs none of their metrics. Fails when an
// iteration reports one metric twice, naming it and `instance_index`.
Result<PackedIterations> pack_iterations(const std::vector<IterationRecord>& iterations,
                                         int instance_index, bool with_metrics = true);

// One stored iteration_blocks row as read (NULL columns as nullopt).
struct BlockView {
  int64_t count = 0;
  std::optional<std::string_view> idx;
  std::string_view start_ns;
  std::string_view end_ns;
  std::optional<std::string_view> flags;
  std::optional<std::string_view> failures;
};

// Appends the iterations of `block` to `out` (which holds none yet). Fails with what is
// malformed (an array of the wrong length, a flag byte above 3, failures that are not the
// JSON above).
Status unpack_iterations(const BlockView& block, std::vector<IterationRecord>& out);

// Adds metric `name` to each of `iterations` that `present` (NULL: every one) says reports it.
Status unpack_metric(const std::string& name, std::optional<std::string_view> present,
                     std::string_view data, std::vector<IterationRecord>& iterations);

// The same as the two above into columns: times, flags (failures as kFailed) and values.
// `out` is empty; unpack_metric_column needs its count set.
Status unpack_columns(const BlockView& block, IterationColumns& out);
Status unpack_metric_column(const std::string& name, std::optional<std::string_view> present,
                            std::string_view data, IterationColumns& out);

// Before 0009: an iterations row, its columns idx, start_ns, end_ns, burn_in, timed_out and
// failure read from `row` at columns first, first + 1, ... (the old reader and 0009's step).
IterationRecord iteration_from_row(const Stmt& row, int first);

}  // namespace benchguard::store::sqlite
