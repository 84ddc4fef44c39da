// Turning one launch into an InstanceRecord: the outside measurements, the iterations the
// benchmark reported through the protocol (or one timed from outside), burn-in flags and
// the failure, if any.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "measure/process.hpp"

namespace benchguard::schedule {

// What a variant is run with, for the record (VariantRecord::config_json): its benchmark's
// counts and options, the schedule `sched`, its cwd and hooks.
std::string variant_config_json(const BenchmarkSpec& b, const VariantSpec& v,
                                const std::string& sched);

// Environment benchguard gives every instance.
KeyValues instance_env(const BenchmarkSpec& b, const VariantSpec& v, int instance,
                       const std::string& results_path);

// The memory layout of one instance (BenchmarkSpec::layout; docs/measurement.md), added to
// its environment `env` and `spec`:
// - "randomized": the stack starts lower by a random 0..4095 bytes (BENCHGUARD_LAYOUT_PAD, an
//   environment variable of that length: the kernel copies the environment above the stack),
//   and BENCHGUARD_HEAP_OFFSET, a random multiple of 16 below 4096, is what the C++ client
//   allocates before the first iteration, so that later allocations start that much further.
//   Drawn from `seed`: the same seed gives every instance the same layout again.
// - "fixed": address randomization off for the child, and BENCHGUARD_LAYOUT_PAD sized so that
//   benchguard's own variables (whose values differ by variant and instance) always take the
//   same room modulo a page: A and B then differ in layout only by what their commands and
//   environments differ in.
// - "": nothing.
void apply_layout(const std::string& layout, uint64_t seed, KeyValues& env,
                  measure::LaunchSpec& spec);

// Builds the record from what was measured. `reported` are the protocol iterations (may be
// empty); `protocol_error` is non-empty when the results file could not be parsed.
InstanceRecord make_instance_record(const BenchmarkSpec& b, int instance,
                                    const measure::LaunchResult& launch,
                                    std::vector<IterationRecord> reported,
                                    const std::string& protocol_error, double timeout_s);

// `failure` of a hook (measure::HookResult::failure) on the instance: its only failure when
// the instance never ran (`ran` false: its prepare failed), else after its own, if any.
void add_hook_failure(InstanceRecord& rec, const std::string& failure, bool ran);

// "killed by signal 9 (SIGKILL)" style text.
std::string describe_signal(int sig);

}  // namespace benchguard::schedule
