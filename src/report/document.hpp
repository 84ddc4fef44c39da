// What a command prints, as a value handed to the reporter of the format asked for
// (report/write.hpp): lines, notes and tables for people (text and Markdown), one table of
// records for scripts (CSV, JSON Lines), and the JSON document. Builders say what there is;
// only the reporters know a format's syntax.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/format.hpp"
#include "report/table.hpp"

namespace benchguard::report {

// A piece of a line: the project's own words, or data (a benchmark's name, a description, a
// commit) that each reporter makes safe for its medium; strong is bold in Markdown.
struct Span {
  std::string text;
  bool data = false;
  bool strong = false;
};
inline Span own(std::string text) {
  return {std::move(text), false, false};
}
inline Span data(std::string text) {
  return {std::move(text), true, false};
}
inline Span strong(std::string text) {
  return {std::move(text), false, true};
}

struct Block {
  enum class Kind : std::uint8_t {
    kLine,   // a line of spans
    kItem,   // a line in a list: indented in text, a bullet in Markdown
    kTable,  // tables[table]
    kRaw,    // text written as it is: the builder has made its data safe for the format
  };
  Kind kind = Kind::kLine;
  std::vector<Span> spans;
  std::string raw;
  std::size_t table = 0;
  // Which of the people's formats show it (text, Markdown or both).
  bool text = true;
  bool markdown = true;
};

// Its implicit move is noexcept as nlohmann::json's is; clang-tidy cannot see through json.
struct Document {  // NOLINT(bugprone-exception-escape)
  // The name of the JSON document's schema (docs/output.md): "compare", "gate", ...
  std::string schema;
  std::vector<Block> blocks;
  std::vector<Table> tables;
  // The table scripts read (CSV, JSON Lines); -1: none, those formats print nothing.
  int records = -1;
  // The JSON document, an object; the JSON reporter adds "schema" and "version".
  nlohmann::json json;

  // Builders, for both people's formats unless a format is named.
  Document& line(std::vector<Span> spans);
  Document& item(std::vector<Span> spans);
  Document& blank() { return line({}); }
  // A table; `records`: the one scripts read.
  Document& table(Table t, bool records = false);
  // Text as it is in one format only: Format::kTable or Format::kMarkdown.
  Document& raw(Format format, std::string text);
  // Another document's blocks and tables after these, for people (its records and JSON are
  // not taken).
  Document& append(Document other);
  // The blocks added from `from` on show only in `format` (kTable or kMarkdown).
  void only(std::size_t from, Format format);
};

// The JSON documents' version: raised when a field changes meaning or goes away, not when
// one is added (docs/output.md).
inline constexpr int kSchemaVersion = 1;

}  // namespace benchguard::report
