// The reporters: one per format, each writing a Document (report/document.hpp).
// write() picks the one asked for; a format the document has nothing for writes nothing
// (the command line refuses formats a command does not offer before it runs).
#pragma once

#include <ostream>
#include <string>

#include "report/document.hpp"
#include "report/format.hpp"

namespace benchguard::report {

void write_text(const Document& d, std::ostream& out);      // report/write_text.cpp
void write_markdown(const Document& d, std::ostream& out);  // report/write_markdown.cpp
void write_csv(const Document& d, std::ostream& out);       // report/write_records.cpp
void write_jsonl(const Document& d, std::ostream& out);     // report/write_records.cpp
void write_json(const Document& d, std::ostream& out);      // report/write_json.cpp

void write(const Document& d, Format format, std::ostream& out);

// What differs between the two people's formats; write_people walks the blocks for both.
struct PeopleSyntax {
  bool Block::*shown;                  // Block::text or Block::markdown
  const char* bullet;                  // before an item
  std::string (*span)(const Span& s);  // a span, made safe for the medium
  void (*table)(const Table& t, std::ostream& out);
};
void write_people(const Document& d, const PeopleSyntax& syntax, std::ostream& out);

// The JSON document as written: "schema" and "version" first, then the document's fields.
nlohmann::ordered_json json_document(const Document& d);

}  // namespace benchguard::report
