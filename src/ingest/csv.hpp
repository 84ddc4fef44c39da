// Comma-separated records as benchguard's exporter writes them (RFC 4180 quoting) and as the
// asynchronous-duet scripts write them (no quoting at all, so free-text columns may hold
// commas: see duet_csv.cpp for how those are put back together).
#pragma once

#include <string>
#include <vector>

#include "ingest/importer.hpp"

namespace benchguard::ingest {

struct CsvRecord {
  int line = 0;  // where the record starts
  std::vector<std::string> fields;
  bool terminated = true;  // false: the file ends inside this record
};

// Every non-empty record; an Error when a quoted field is never closed.
Result<std::vector<CsvRecord>> read_csv(const Source& src);

// A record's fields by header column. Unquoted free text (free[i] true) may hold commas,
// which gives a record more fields than the header has columns: the columns before the
// first free one are read from the left, those after the last free one from the right, and
// what is left belongs to the free ones. With a single free column that is exact; with
// several it cannot be split, so all of it goes to the first free column, the others stay
// empty and `ambiguous` is set. Fewer fields than columns is an Error (a cut-off line).
struct AlignedRecord {
  std::vector<std::string> values;  // one per column
  bool ambiguous = false;
};
Result<AlignedRecord> align_to_header(const Source& src, const CsvRecord& rec,
                                      const std::vector<bool>& free);

}  // namespace benchguard::ingest
