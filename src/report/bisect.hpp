// Rendering `bisect` (docs/bisect.md): the steps measured, the first bad commit and the final
// check, as text or Markdown, and as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "refs/refs.hpp"
#include "report/document.hpp"

namespace benchguard::report {

nlohmann::json bisect_json(const refs::BisectOutcome& o, const std::string& benchmark,
                           const std::string& metric);
Document bisect_document(const refs::BisectOutcome& o, const std::string& benchmark,
                         const std::string& metric, double confidence);

}  // namespace benchguard::report
