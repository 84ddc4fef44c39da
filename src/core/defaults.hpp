// Defaults that several layers share, each written once: the verdict rule's threshold is the
// same for `compare`, `ab`, `calibrate`, `gate`, the dashboard and a calibration file.
#pragma once

namespace benchguard {

// The smallest relative change a verdict calls slower or faster (1%).
inline constexpr double kDefaultThreshold = 0.01;

}  // namespace benchguard
