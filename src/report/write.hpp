// The reporters: one per format, each writing a Document (report/document.hpp).
// write() picks the one asked for; a format the document has nothing for writes nothing
// (the command line refuses formats a command does not offer before it runs).
#pragma once

#include <ostream>

#include "report/document.hpp"
#include "report/format.hpp"

namespace benchguard::report {

void write_text(const Document& d, std::ostream& out);      // report/write_text.cpp
void write_markdown(const Document& d, std::ostream& out);  // report/write_markdown.cpp
void write_csv(const Document& d, std::ostream& out);       // report/write_records.cpp
void write_jsonl(const Document& d, std::ostream& out);     // report/write_records.cpp
void write_json(const Document& d, std::ostream& out);      // report/write_json.cpp

void write(const Document& d, Format format, std::ostream& out);

// The JSON document as written: "schema" and "version" first, then the document's fields.
nlohmann::ordered_json json_document(const Document& d);

}  // namespace benchguard::report
