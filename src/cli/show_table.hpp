// Prints one run as `show` does: a header with the run's facts, then one row per
// benchmark and variant, in the format chosen with --format.
#pragma once

#include "cli/app.hpp"
#include "core/model.hpp"

namespace benchguard::cli {

void print_run(Context& ctx, const RunData& run);

}  // namespace benchguard::cli
