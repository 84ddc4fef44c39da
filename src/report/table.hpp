// A table of strings rendered as aligned text, Markdown or CSV: one shape for every
// tabular report, with only the syntax differing per format.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace benchguard::report {

struct Table {
  std::vector<std::string> header;
  std::vector<bool> right;  // right-align column i (numbers); missing entries: left
  std::vector<std::vector<std::string>> rows;

  void add_row(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

void render_text(const Table& t, std::ostream& out);
void render_markdown(const Table& t, std::ostream& out);
void render_csv(const Table& t, std::ostream& out);
// "table" | "md" | "csv"; false for other formats.
bool render(const Table& t, const std::string& format, std::ostream& out);

// RFC 4180 quoting: only when the field holds a comma, quote or line break.
std::string csv_field(const std::string& s);

}  // namespace benchguard::report
