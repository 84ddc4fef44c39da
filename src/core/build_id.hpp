// The identity of this build of benchguard: the GNU build id the linker stamps into the binary
// (a hash of its contents), so that what one build computed and kept (the dashboard's reusable
// pages) is never taken for what another build would compute.
#pragma once

#include <string>

namespace benchguard {

// The build id of the binary (or shared library) this code was linked into, as hex; empty when
// it has none (linked with --build-id=none), and then nothing is reused across runs.
const std::string& build_id();

}  // namespace benchguard
