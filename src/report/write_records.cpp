// The reporters for scripts that read records: CSV and JSON Lines, both the document's table
// of records with numbers in base units and missing values empty (CSV) or null (JSON Lines).
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

void write_csv(const Document& d, std::ostream& out) {
  if (d.records >= 0) render_csv(d.tables[static_cast<std::size_t>(d.records)], out);
}

void write_jsonl(const Document& d, std::ostream& out) {
  if (d.records >= 0) render_jsonl(d.tables[static_cast<std::size_t>(d.records)], out);
}

}  // namespace benchguard::report
