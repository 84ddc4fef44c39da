// Why nlohmann's parser refused a text, in words and with the line: a syntax error, or a number
// beyond the range of a double ("1e999"), which it reports as out_of_range rather than as a
// parse error. Every JSON reader catches nlohmann::json::exception, the base of both, and
// reports it through here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace benchguard {

struct JsonError {
  int line = 0;  // 1-based line of `text` where it went wrong; 0 when unknown
  std::string reason;
};

JsonError json_error(const nlohmann::json::exception& e, std::string_view text);

// JSON text of `j` (indent -1: one line) that never throws: a string that is not UTF-8 (a
// name stored before names were checked) has its bad bytes replaced by U+FFFD, where
// nlohmann's dump() would throw.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace benchguard
