#include "ingest/csv.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchguard::ingest {

Result<std::vector<CsvRecord>> read_csv(const Source& src) {
  const std::string& t = src.text;
  std::vector<CsvRecord> records;
  CsvRecord rec;
  std::string field;
  int line = 1;
  rec.line = 1;
  bool in_quotes = false, quoted_start = false;
  auto end_record = [&](bool terminated) {
    rec.fields.push_back(std::move(field));
    field.clear();
    rec.terminated = terminated;
    const bool blank = rec.fields.size() == 1 && rec.fields[0].empty();
    if (!blank) records.push_back(std::move(rec));
    rec = CsvRecord{};
    rec.line = line;
  };
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < t.size() && t[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !quoted_start) {
      in_quotes = quoted_start = true;
    } else if (c == ',') {
      rec.fields.push_back(std::move(field));
      field.clear();
      quoted_start = false;
    } else if (c == '\n') {
      ++line;
      end_record(true);
      quoted_start = false;
    } else if (c != '\r' || i + 1 >= t.size() || t[i + 1] != '\n') {
      field += c;
    }
  }
  if (in_quotes) return src.error(rec.line, "a quoted field is not closed (truncated file?)");
  if (!field.empty() || !rec.fields.empty()) end_record(false);
  return records;
}

Result<AlignedRecord> align_to_header(const Source& src, const CsvRecord& rec,
                                      const std::vector<bool>& free) {
  const size_t n = rec.fields.size(), m = free.size();
  AlignedRecord out;
  if (n == m) {
    out.values = rec.fields;
    return out;
  }
  const auto mismatch = [&] {
    return src.error(rec.line, fmt::format("{} fields where the header has {} columns{}", n, m,
                                           n < m ? " (a cut-off line?)" : ""));
  };
  size_t first = m, last = 0;
  for (size_t c = 0; c < m; ++c) {
    if (!free[c]) continue;
    first = std::min(first, c);
    last = c;
  }
  if (n < m || first == m) return mismatch();
  const size_t right = m - last - 1;  // columns after the last free one
  out.values.assign(m, "");
  for (size_t c = 0; c < first; ++c) out.values[c] = rec.fields[c];
  for (size_t c = 0; c < right; ++c) out.values[last + 1 + c] = rec.fields[n - right + c];
  std::string text;
  for (size_t f = first; f < n - right; ++f) text += (f == first ? "" : ",") + rec.fields[f];
  out.values[first] = std::move(text);
  out.ambiguous = last > first;
  return out;
}

}  // namespace benchguard::ingest
