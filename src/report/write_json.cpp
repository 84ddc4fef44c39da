// The JSON reporter: the document's JSON with its schema's name and version first.
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

nlohmann::ordered_json json_document(const Document& d) {
  nlohmann::ordered_json j = {{"schema", "benchguard." + d.schema}, {"version", kSchemaVersion}};
  if (d.json.is_object())
    for (const auto& [key, value] : d.json.items()) j[key] = value;
  return j;
}

void write_json(const Document& d, std::ostream& out) {
  if (d.json.is_null()) return;
  out << json_document(d).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace benchguard::report
