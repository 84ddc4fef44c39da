// Rendering a comparison (`compare`, `ab`): the table of ratios, intervals and verdicts with
// its notes, in the output formats (text, md, csv), and the JSON document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "analysis/compare.hpp"

namespace benchguard::report {

nlohmann::json compare_json(const analysis::CompareReport& r, const std::string& description,
                            const std::string& statistic, double confidence);

// `format`: text, md, csv (jsonl is written as csv).
void print_compare(std::ostream& out, const std::string& format, const analysis::CompareReport& r,
                   const std::string& description, const std::string& statistic, double confidence);

}  // namespace benchguard::report
