// Flags shared by the measuring commands (run, calibrate): what to run, how many times, where,
// and the suite they give.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/command_params.hpp"
#include "core/model.hpp"
#include "schedule/runner.hpp"

namespace benchguard::cli {

struct RunFlags {
  std::string suite;
  std::string name;
  std::string plan;
  std::string schedule;
  std::string timeout;
  std::string cpus;
  std::vector<std::string> labels;
  std::vector<std::string> measure;  // --measure: channels added to every benchmark
  std::string layout;                // --layout (--randomize-layout): every benchmark's
  std::string burn_in;               // --burn-in: a count (empty: the suite's)
  Hooks hooks;  // --setup, --prepare, --conclude, --cleanup: every variant's (empty: the suite's)
  int instances = 0, iterations = 0, warmup = -1, max_failures = 0;
  uint64_t seed = 0;
  bool seed_set = false;
  bool shell = false;
  bool no_counters = false;
  bool show_output = false;
  // The A/A form: each benchmark's variant `null_variant` (its first when empty) against itself.
  bool null = false;
  std::string null_variant;
  ParameterFlags params;  // run -- CMD: --parameter-scan, --parameter-list
};

// --plan, --schedule, --instances, --iterations, --burn-in, --warmup, --timeout,
// --max-failures, --cpus, --label, --seed, --measure, --layout (--randomize-layout),
// --no-counters, --show-output, --setup, --prepare, --conclude, --cleanup.
void add_run_flags(CLI::App* c, RunFlags& f);

// The count, timeout, channel, layout, hook and schedule flags applied to every benchmark of
// `s` (a hook flag's {param} substituted per benchmark as in a suite's hooks).
Status apply_run_flags(const RunFlags& f, Suite& s);

// The suite file (or `-- CMD` from ctx.trailing), with the plan, the count flags and, with
// f.null, the A/A form applied; warnings (unmatched plan entries) go to ctx.err.
Result<Suite> prepare_suite(Context& ctx, const RunFlags& f);

// Schedule, seed (from the clock unless --seed), CPUs, counters, labels, command line.
Result<schedule::RunOptions> run_options(const Context& ctx, const RunFlags& f, const Suite& suite);

}  // namespace benchguard::cli
