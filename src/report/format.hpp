// The output formats, parsed once where the command line is read (cli) and handed down as a
// value: no other code compares format names. A command offers a set of them (Formats); one
// it does not offer is refused before it runs, naming those it does.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace benchguard::report {

enum class Format : std::uint8_t {
  kTable,     // aligned text for a terminal (`table`)
  kMarkdown,  // GitHub-flavoured Markdown for a pull request or an issue (`md`)
  kCsv,       // one table of records, numbers in base units (`csv`)
  kJson,      // one JSON document with its schema name and version (`json`)
  kJsonl,     // the records of the CSV as one JSON object a line (`jsonl`)
};

inline constexpr Format kEveryFormat[] = {Format::kTable, Format::kMarkdown, Format::kCsv,
                                          Format::kJson, Format::kJsonl};

// "table", "md", "csv", "json", "jsonl": what --format takes.
std::string_view format_name(Format f);
// The format of a --format value; nullopt for any other text.
std::optional<Format> parse_format(std::string_view name);

// The formats a command writes.
class Formats {
 public:
  constexpr Formats(std::initializer_list<Format> formats) {
    for (const Format f : formats) bits_ |= bit(f);
  }
  constexpr bool has(Format f) const { return (bits_ & bit(f)) != 0; }
  // "table, md or json", in kEveryFormat's order.
  std::string names() const;

 private:
  static constexpr std::uint8_t bit(Format f) {
    return static_cast<std::uint8_t>(1U << static_cast<unsigned>(f));
  }
  std::uint8_t bits_ = 0;
};

// Every format: commands that print a report with a table of records.
inline constexpr Formats kAllFormats{Format::kTable, Format::kMarkdown, Format::kCsv, Format::kJson,
                                     Format::kJsonl};
// A command that prints only what it did, for people.
inline constexpr Formats kTextOnly{Format::kTable};

}  // namespace benchguard::report
