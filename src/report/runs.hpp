// What `runs` prints: the stored runs, newest first, one row each, and the same as JSON.
#pragma once

#include <string>
#include <vector>

#include "report/document.hpp"
#include "store/store.hpp"

namespace benchguard::report {

// `db`: the database as shown, for the line said when there are no runs.
Document runs_document(const std::vector<store::RunSummary>& runs, const std::string& db);

}  // namespace benchguard::report
