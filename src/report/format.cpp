#include "report/format.hpp"

#include <array>

namespace benchguard::report {

namespace {

constexpr std::array<std::string_view, 5> kNames = {"table", "md", "csv", "json", "jsonl"};

}  // namespace

std::string_view format_name(Format f) {
  return kNames[static_cast<std::size_t>(f)];
}

std::optional<Format> parse_format(std::string_view name) {
  for (const Format f : kEveryFormat)
    if (format_name(f) == name) return f;
  return std::nullopt;
}

std::string Formats::names() const {
  std::string out;
  int left = 0;
  for (const Format f : kEveryFormat) left += has(f) ? 1 : 0;
  for (const Format f : kEveryFormat) {
    if (!has(f)) continue;
    --left;
    out += format_name(f);
    if (left > 1) out += ", ";
    if (left == 1) out += " or ";
  }
  return out;
}

}  // namespace benchguard::report
