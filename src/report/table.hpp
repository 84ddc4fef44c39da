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
  // Said under the table in text ("note: ...") and Markdown (in italics); not part of CSV.
  // The project's own words: written as they are, not escaped as data.
  std::vector<std::string> notes;

  void add_row(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

void render_text(const Table& t, std::ostream& out);
void render_markdown(const Table& t, std::ostream& out);
void render_csv(const Table& t, std::ostream& out);
// "table" | "md" | "csv"; false for other formats.
bool render(const Table& t, const std::string& format, std::ostream& out);

// RFC 4180 quoting: only when the field holds a comma, quote or line break. A field a
// spreadsheet would run as a formula (=, +, -, @, tab or CR first, and not a plain number
// such as -1.5) gets a leading ' first.
std::string csv_field(const std::string& s);

// Text for a terminal from data: control characters (escape sequences, newlines, C1),
// bidirectional controls and bytes that are not UTF-8 as U+FFFD, so a benchmark name cannot
// move the cursor, retitle the window, forge a line or reorder what is read.
std::string terminal_text(const std::string& s);

// Text for a Markdown (GitHub) cell or line from data: & < > as entities, | \ ` [ ] escaped
// with a backslash, control characters (newlines included) as U+FFFD. Names then show as
// written and can open no HTML, link, image or code span in a pull-request comment.
std::string markdown_text(const std::string& s);

}  // namespace benchguard::report
