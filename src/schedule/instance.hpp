// Turning one launch into an InstanceRecord: the outside measurements, the iterations the
// benchmark reported through the protocol (or one timed from outside), burn-in flags and
// the failure, if any.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "measure/process.hpp"

namespace benchguard::schedule {

// Environment benchguard gives every instance.
KeyValues instance_env(const BenchmarkSpec& b, const VariantSpec& v, int instance,
                       const std::string& results_path);

// Builds the record from what was measured. `reported` are the protocol iterations (may be
// empty); `protocol_error` is non-empty when the results file could not be parsed.
InstanceRecord make_instance_record(const BenchmarkSpec& b, int instance,
                                    const measure::LaunchResult& launch,
                                    std::vector<IterationRecord> reported,
                                    const std::string& protocol_error, double timeout_s);

// "killed by signal 9 (SIGKILL)" style text.
std::string describe_signal(int sig);

}  // namespace benchguard::schedule
