// Rendering a comparison (`compare`, `ab`): the table of ratios, intervals and verdicts with
// its notes, in the output formats (text, md, csv), and the JSON document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "analysis/compare.hpp"
#include "report/document.hpp"

namespace benchguard::report {

// The verdict in the metric's own words: `more memory`/`less memory` for sizes (unit "B"),
// `slower`/`faster` for times, rates and the built-in counts of work (instructions, cycles),
// `worse`/`better` for any other metric; `unchanged` and `inconclusive` as they are. JSON keeps
// `verdict` as it is and adds this as `says`.
std::string verdict_word(stats::Verdict verdict, const MetricInfo& metric);

nlohmann::json compare_json(const analysis::CompareReport& r, const std::string& description,
                            const std::string& statistic, double confidence);

// The comparison as a document: the table with its counts and notes, the records (one row per
// benchmark and metric, the geometric mean's rows without values), and compare_json.
Document compare_document(const analysis::CompareReport& r, const std::string& description,
                          const std::string& statistic, double confidence);
}  // namespace benchguard::report
