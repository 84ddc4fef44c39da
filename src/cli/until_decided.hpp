// --until-decided for `run` and `ab`: the flags, and the run with its lines on the terminal.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/app.hpp"
#include "core/defaults.hpp"
#include "core/model.hpp"
#include "sequential/run.hpp"

namespace benchguard::cli {

struct UntilDecidedFlags {
  bool on = false;
  int max_instances = 0;  // a side; 0: the suite's until_decided, else twice the instances
  std::string max_time;   // the run's budget
  int round = 0;
  double threshold = kDefaultThreshold;
  std::string statistic = "robust";

  // --until-decided, --max-instances, --max-time, --round; with `verdict`, also --threshold
  // and --statistic (commands that have no verdict flags of their own).
  void add_to(CLI::App* c, bool verdict);
  // --statistic median has no t interval, which deciding in rounds needs: refused even
  // before --until-decided is known to be on.
  Status check_statistic() const;
  // On by the flag or by the suite's until_decided.
  bool active(const Suite& suite) const { return on || suite.until_decided.has_value(); }
  // The settings: these flags over the suite's until_decided; threshold and statistic as given.
  Result<sequential::Settings> settings(const Suite& suite, double threshold,
                                        stats::Statistic statistic) const;
  // The same, threshold and statistic from the flags above.
  Result<sequential::Settings> settings(const Suite& suite) const;
};

// Prints a look on a terminal (nothing otherwise).
sequential::LookFn look_printer(Context& ctx);

// Per benchmark, how it ended and the time saved against the suite's own count.
void print_sequential(Context& ctx, const sequential::SequentialRun& run);

}  // namespace benchguard::cli
