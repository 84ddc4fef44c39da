// A JSON value together with where it sits ("benchmarks[3].real_time"), so that a missing
// member or a value of the wrong type is reported as "FILE: benchmarks[3].real_time:
// expected a number, got a string" instead of an exception from deep inside a parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::ingest {

class JsonField {
 public:
  // origin: what errors start with ("file.json", or "file.jsonl:12" for one line of it).
  JsonField(const nlohmann::json& j, std::string where, const std::string& origin)
      : j_(&j), where_(std::move(where)), origin_(&origin) {}

  const nlohmann::json& json() const { return *j_; }
  const std::string& where() const { return where_; }
  Error error(const std::string& msg) const;

  bool is_object() const { return j_->is_object(); }
  bool is_array() const { return j_->is_array(); }
  // A member that is present and not null.
  bool has(std::string_view key) const;

  // A required member (missing or null is an error); an optional one (nullopt then).
  Result<JsonField> get(std::string_view key) const;
  std::optional<JsonField> find(std::string_view key) const;
  // The elements of an array; the members of an object in file order.
  Result<std::vector<JsonField>> elements() const;
  Result<std::vector<std::pair<std::string, JsonField>>> members() const;
  // The members of an object as key = scalar_text(value) (parameters, labels).
  Result<KeyValues> key_values() const;

  Result<double> number() const;
  Result<int64_t> integer() const;
  Result<std::string> string() const;
  Result<bool> boolean() const;

  // Required members of a given type.
  Result<double> number(std::string_view key) const;
  Result<std::string> string(std::string_view key) const;
  // Optional members: nullopt when absent or null, an Error when of another type.
  Result<std::optional<double>> opt_number(std::string_view key) const;
  Result<std::optional<int64_t>> opt_integer(std::string_view key) const;
  Result<std::optional<std::string>> opt_string(std::string_view key) const;
  Result<std::optional<bool>> opt_boolean(std::string_view key) const;

 private:
  Error wrong_type(const char* expected) const;

  const nlohmann::json* j_;
  std::string where_;
  const std::string* origin_;
};

// A scalar as text (strings as they are, numbers as JSON writes them); other values as
// compact JSON; "" for null.
std::string scalar_text(const nlohmann::json& j);

// Adds an object's members as "prefix.key" = value pairs, nested objects flattened with
// dots, arrays written as compact JSON, nulls left out.
void flatten_into(KeyValues& out, const nlohmann::json& j, const std::string& prefix = "");

// The deepest nesting of arrays and objects an imported JSON document may have: far beyond
// what harnesses write, far below where the recursion of scalar_text (dump) and flatten_into
// would run out of stack.
inline constexpr size_t kMaxJsonDepth = 256;
// True when arrays and objects nest deeper than `limit` in `j` (found without recursion).
bool nests_deeper(const nlohmann::json& j, size_t limit);

}  // namespace benchguard::ingest
