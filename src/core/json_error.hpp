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

}  // namespace benchguard
