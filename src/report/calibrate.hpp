// What `calibrate` prints: per benchmark and metric the A/A false alarms, their rate with its
// interval and the calibrated threshold (text, Markdown, CSV), then what the repetitions bound.
// JSON is the calibration file itself (core/calibration.hpp).
#pragma once

#include <map>
#include <ostream>
#include <string>

#include "core/calibration.hpp"
#include "report/document.hpp"

namespace benchguard::report {

// `planned`: the simulated A/A rate of a plan per benchmark (a column of its own when a plan
// was given; empty: no column).
Document calibration_document(const Calibration& c, const std::map<std::string, double>* planned);

}  // namespace benchguard::report
