// run --until-decided: A and B of every benchmark in rounds, a sequential decision after each
// round (analysis/sequential.hpp), each benchmark ending as soon as it is decided.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/app.hpp"
#include "core/model.hpp"
#include "schedule/runner.hpp"
#include "store/store.hpp"

namespace benchguard::cli {

struct UntilDecidedFlags {
  bool on = false;
  int max_instances = 0;  // a side; 0: the suite's until_decided, else twice the instances
  std::string max_time;   // the run's budget
  int round = 0;
  std::string threshold;  // empty: the verdict's default
  std::string statistic = "robust";

  // --until-decided, --max-instances, --max-time, --round, --threshold, --statistic.
  void add_to(CLI::App* c);
  // On by the flag or by the suite's until_decided.
  bool active(const Suite& suite) const { return on || suite.until_decided.has_value(); }
};

// Runs `suite` sequentially into `store`; prints the looks on a terminal and, per benchmark,
// how it ended and the time saved against the suite's own instance count. The run records
// its plan and looks (artifact "sequential").
Result<schedule::RunOutcome> run_until_decided(Context& ctx, const Suite& suite,
                                               schedule::RunOptions opts, store::Store& store,
                                               const UntilDecidedFlags& flags);

}  // namespace benchguard::cli
