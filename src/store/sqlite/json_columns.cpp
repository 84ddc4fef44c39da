#include "store/sqlite/json_columns.hpp"

#include <nlohmann/json.hpp>

namespace benchguard::store::sqlite {
namespace {

using Json = nlohmann::ordered_json;

// Invalid UTF-8 is replaced rather than thrown on: a stored command must never abort a run.
std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Error malformed(const std::string& what, const std::string& expected) {
  return Error{what + " is not " + expected + " in the database"};
}

}  // namespace

std::string command_to_json(const std::vector<std::string>& command) {
  Json j = Json::array();
  for (const auto& arg : command) j.push_back(arg);
  return dump(j);
}

std::string key_values_to_json(const KeyValues& values) {
  Json j = Json::object();
  for (const auto& [k, v] : values) j[k] = v;
  return dump(j);
}

Result<std::vector<std::string>> command_from_json(const std::string& text,
                                                   const std::string& what) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return malformed(what, "a JSON array");
  std::vector<std::string> out;
  for (const auto& arg : j) {
    if (!arg.is_string()) return malformed(what, "a JSON array of strings");
    out.push_back(arg.get<std::string>());
  }
  return out;
}

Result<KeyValues> key_values_from_json(const std::string& text, const std::string& what) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return malformed(what, "a JSON object");
  KeyValues out;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) return malformed(what, "a JSON object of strings");
    out.emplace_back(k, v.get<std::string>());
  }
  return out;
}

}  // namespace benchguard::store::sqlite
