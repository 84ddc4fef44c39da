#include "ingest/json_field.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace benchguard::ingest {

namespace {

using nlohmann::json;

std::string type_phrase(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return fmt::format("the string \"{}\"", j.get_ref<const std::string&>().substr(0, 40));
    case json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    default:
      return "the number " + j.dump();
  }
}

std::string member_path(const std::string& where, std::string_view key) {
  return where.empty() ? std::string(key) : where + "." + std::string(key);
}

}  // namespace

Error JsonField::error(const std::string& msg) const {
  return Error{*origin_ + ": " + (where_.empty() ? "" : where_ + ": ") + msg};
}

Error JsonField::wrong_type(const char* expected) const {
  return error(fmt::format("expected {}, got {}", expected, type_phrase(*j_)));
}

bool JsonField::has(std::string_view key) const {
  if (!j_->is_object()) return false;
  auto it = j_->find(key);
  return it != j_->end() && !it->is_null();
}

Result<JsonField> JsonField::get(std::string_view key) const {
  if (!j_->is_object()) return wrong_type("an object");
  auto it = j_->find(key);
  if (it == j_->end() || it->is_null())
    return error(fmt::format("missing required field \"{}\"", key));
  return JsonField(*it, member_path(where_, key), *origin_);
}

std::optional<JsonField> JsonField::find(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return JsonField(*j_->find(key), member_path(where_, key), *origin_);
}

Result<std::vector<JsonField>> JsonField::elements() const {
  if (!j_->is_array()) return wrong_type("an array");
  std::vector<JsonField> out;
  out.reserve(j_->size());
  for (size_t i = 0; i < j_->size(); ++i)
    out.emplace_back((*j_)[i], fmt::format("{}[{}]", where_, i), *origin_);
  return out;
}

Result<std::vector<std::pair<std::string, JsonField>>> JsonField::members() const {
  if (!j_->is_object()) return wrong_type("an object");
  std::vector<std::pair<std::string, JsonField>> out;
  for (auto it = j_->begin(); it != j_->end(); ++it)
    out.emplace_back(it.key(), JsonField(it.value(), member_path(where_, it.key()), *origin_));
  return out;
}

Result<KeyValues> JsonField::key_values() const {
  if (!j_->is_object()) return wrong_type("an object");
  KeyValues out;
  for (auto it = j_->begin(); it != j_->end(); ++it)
    out.emplace_back(it.key(), scalar_text(it.value()));
  return out;
}

Result<double> JsonField::number() const {
  if (!j_->is_number()) return wrong_type("a number");
  return j_->get<double>();
}

Result<int64_t> JsonField::integer() const {
  if (j_->is_number_integer()) return j_->get<int64_t>();
  // 1e9 written as a float is still a whole number.
  if (j_->is_number_float()) {
    const double d = j_->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18)
      return static_cast<int64_t>(d);
  }
  return wrong_type("a whole number");
}

Result<std::string> JsonField::string() const {
  if (!j_->is_string()) return wrong_type("a string");
  return j_->get<std::string>();
}

Result<bool> JsonField::boolean() const {
  if (!j_->is_boolean()) return wrong_type("true or false");
  return j_->get<bool>();
}

Result<double> JsonField::number(std::string_view key) const {
  BG_ASSIGN(JsonField f, get(key));
  return f.number();
}

Result<std::string> JsonField::string(std::string_view key) const {
  BG_ASSIGN(JsonField f, get(key));
  return f.string();
}

namespace {

// An optional member read with one of the typed readers above.
template <class T, class Read>
Result<std::optional<T>> optional_member(const JsonField& obj, std::string_view key, Read read) {
  if (!obj.is_object()) {
    BG_TRY(obj.get(key));  // the "expected an object" error
  }
  auto f = obj.find(key);
  if (!f) return std::optional<T>();
  BG_ASSIGN(T v, read(*f));
  return std::optional<T>(std::move(v));
}

}  // namespace

Result<std::optional<double>> JsonField::opt_number(std::string_view key) const {
  return optional_member<double>(*this, key, [](const JsonField& f) { return f.number(); });
}

Result<std::optional<int64_t>> JsonField::opt_integer(std::string_view key) const {
  return optional_member<int64_t>(*this, key, [](const JsonField& f) { return f.integer(); });
}

Result<std::optional<std::string>> JsonField::opt_string(std::string_view key) const {
  return optional_member<std::string>(*this, key, [](const JsonField& f) { return f.string(); });
}

Result<std::optional<bool>> JsonField::opt_boolean(std::string_view key) const {
  return optional_member<bool>(*this, key, [](const JsonField& f) { return f.boolean(); });
}

std::string scalar_text(const nlohmann::json& j) {
  if (j.is_null()) return "";
  if (j.is_string()) return j.get<std::string>();
  return j.dump();
}

bool nests_deeper(const nlohmann::json& j, size_t limit) {
  std::vector<std::pair<const nlohmann::json*, size_t>> todo{{&j, 0}};  // value, its depth
  while (!todo.empty()) {
    const auto [v, depth] = todo.back();
    todo.pop_back();
    if (!v->is_structured()) continue;
    if (depth + 1 > limit) return true;
    for (const auto& child : *v) todo.emplace_back(&child, depth + 1);
  }
  return false;
}

void flatten_into(KeyValues& out, const nlohmann::json& j, const std::string& prefix) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten_into(out, it.value(), prefix.empty() ? it.key() : prefix + "." + it.key());
    return;
  }
  if (j.is_null() || prefix.empty()) return;
  out.emplace_back(prefix, scalar_text(j));
}

}  // namespace benchguard::ingest
