// The flags history, detect, ack and gate share: which series over which commits, and how
// change points are found (docs/history.md).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/detection.hpp"
#include "analysis/history.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace benchguard::cli {

// Now, in unix ns: when a detection or an acknowledgement was made; $SOURCE_DATE_EPOCH
// (seconds) when it is set.
int64_t now_ns();

// The change point `id` of the store, or the one change whose id starts with `id` (as git takes
// a unique prefix of a hash); an Error names the store and where ids are listed, or, for a prefix
// of several ids, one of them and how many more.
Result<store::ChangeRecord> find_change(const std::string& where, store::Store& store,
                                        const std::string& id);

// Which series, over which commits: the flags history, detect and gate share.
struct SelectFlags {
  std::vector<std::string> benchmarks;
  std::vector<std::string> metrics;
  std::string branch;
  std::string repo;
  std::string machine;
  std::string since;
  size_t last = 0;
  std::string burn_in = "auto";

  void add_to(CLI::App* c, bool with_window);
  Result<analysis::HistoryOptions> options() const;
};

struct DetectFlags {
  std::string method = "e-divisive";
  std::optional<double> p;
  size_t window = 50;
  double min_magnitude = 0;
  double floor = 0;
  size_t permutations = 100;
  uint64_t seed = 1;
  bool full = false;

  void add_to(CLI::App* c);
  analysis::DetectOptions options() const;
};

}  // namespace benchguard::cli
