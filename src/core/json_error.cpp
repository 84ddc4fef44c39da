#include "core/json_error.hpp"

#include <algorithm>

namespace benchguard {

namespace {

int line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

}  // namespace

JsonError json_error(const nlohmann::json::exception& e, std::string_view text) {
  const std::string what = e.what();
  JsonError out;
  if (const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
    out.line = line_at(text, p->byte > 0 ? p->byte - 1 : 0);
    // Without the "[json.exception.parse_error.101] parse error at line 3, column 5: " prefix.
    const auto column = what.find("column ");
    const auto colon = what.find(": ", column == std::string::npos ? 0 : column);
    out.reason = colon == std::string::npos ? what : what.substr(colon + 2);
    return out;
  }
  // out_of_range.406: "number overflow parsing '1e999'".
  constexpr std::string_view kParsing = "parsing '";
  if (const auto at = what.find(kParsing); e.id == 406 && at != std::string::npos) {
    const auto begin = at + kParsing.size();
    const auto end = what.find('\'', begin);
    const std::string token = what.substr(begin, end == std::string::npos ? end : end - begin);
    out.reason = "number " + token + " is beyond the range of a double";
    if (const auto pos = text.find(token); pos != std::string_view::npos)
      out.line = line_at(text, pos);
    return out;
  }
  const auto bracket = what.find("] ");
  out.reason = bracket == std::string::npos ? what : what.substr(bracket + 2);
  return out;
}

}  // namespace benchguard
