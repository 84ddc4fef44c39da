// A table: columns and rows of cells, each cell both what a person reads ("24.361 ms", "-")
// and what a script reads (0.024361 in base units, or nothing). The text and Markdown
// reporters show the first, CSV and JSON Lines write the second under each column's key.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace benchguard::report {

struct Cell {
  std::string text;                   // for people
  std::optional<double> number;       // for scripts, in base units (seconds, bytes, a ratio)
  bool integer = false;               // number is a count: written without a fraction
  bool missing = false;               // for scripts: empty (CSV) or null (JSON Lines)
  bool strong = false;                // bold in Markdown (a verdict that moved)
  std::optional<std::string> script;  // for scripts, where it differs from text (a full uuid)

  Cell() = default;
  Cell(std::string t) : text(std::move(t)) {}  // NOLINT(google-explicit-constructor)
  Cell(const char* t) : text(t) {}             // NOLINT(google-explicit-constructor)

  // A measured value shown as `shown`; not finite: "-" for people, missing for scripts.
  static Cell value(double v, std::string shown);
  // A count.
  static Cell count(std::int64_t n);
  // A size in bytes shown as `shown`: a whole number for scripts.
  static Cell bytes(double v, std::string shown) {
    Cell c = value(v, std::move(shown));
    c.integer = c.number.has_value();
    return c;
  }
  // A text shortened for people ("1f2e3d4c") and whole for scripts.
  static Cell both(std::string people, std::string scripts) {
    Cell c(std::move(people));
    c.script = std::move(scripts);
    return c;
  }
  // Shown as `shown` for people; nothing for scripts (an interval shown in one cell whose
  // bounds have their own columns, say).
  static Cell none(std::string shown = "-");
};

// "robust mean" -> "robust_mean": a header as a key scripts can use as a name.
std::string column_key(const std::string& header);

struct Column {
  std::string header;  // for people
  std::string key;     // for scripts: the CSV header and JSON Lines field (units in the name)
  bool right = false;  // right-aligned for people (numbers)
  enum class For : std::uint8_t { kEveryone, kPeople, kScripts } shown = For::kEveryone;

  static Column left(std::string header, std::string key) {
    return {std::move(header), std::move(key), false};
  }
  static Column number(std::string header, std::string key) {
    return {std::move(header), std::move(key), true};
  }
  Column people_only() && {
    shown = For::kPeople;
    return std::move(*this);
  }
  Column scripts_only() && {
    shown = For::kScripts;
    return std::move(*this);
  }
};

struct Table {
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  // Said under the table in text ("note: ...") and Markdown (in italics); not for scripts.
  // The project's own words: written as they are, not escaped as data.
  std::vector<std::string> notes;

  void add_row(std::vector<Cell> row) { rows.push_back(std::move(row)); }
};

// For people: aligned text, a Markdown table. Columns for scripts only are left out.
void render_text(const Table& t, std::ostream& out);
void render_markdown(const Table& t, std::ostream& out);
// For scripts: the keys, then each row's numbers (shortest exact form) and texts; missing
// cells empty. Columns for people only are left out.
void render_csv(const Table& t, std::ostream& out);
// For scripts: each row as one JSON object of the columns' keys; missing cells null.
void render_jsonl(const Table& t, std::ostream& out);

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
