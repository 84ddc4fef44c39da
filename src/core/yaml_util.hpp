// Position-aware reading of YAML input files (suites, plans): every error is a value that
// names file:line, and no yaml-cpp exception escapes.
#pragma once

#include <yaml-cpp/yaml.h>

#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::yaml {

// 1-based line of a node; 0 when yaml-cpp has no position for it.
int line_of(const YAML::Node& node);

// How a node reads in "got ..." messages: 'text' for scalars, else "a list", "a mapping",
// "nothing".
std::string describe(const YAML::Node& node);

// Suites, plans and calibrations are written by hand or by benchguard: 64 MiB is far beyond
// any of them, and keeps a wrong path (/dev/zero, a log) from filling memory.
inline constexpr size_t kMaxTextFileBytes = size_t{64} << 20;

// The whole file, or "cannot read PATH: <reason>" (also when it is above `limit` bytes).
Result<std::string> read_text_file(const std::string& path, size_t limit = kMaxTextFileBytes);

// The closest of `candidates` to `word` when it looks like a typo of it, else "".
std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates);

// One entry of a mapping. `line` is the key's line: a null value has no useful position.
struct Field {
  std::string key;
  YAML::Node value;
  int line = 0;
};

// The entries of a mapping in document order, with YAML merge keys ("<<: *anchor") resolved:
// entries written in the mapping win over merged ones.
class Fields {
 public:
  const Field* find(std::string_view key) const;
  const std::vector<Field>& all() const { return fields_; }
  bool empty() const { return fields_.empty(); }

 private:
  friend class Reader;
  std::vector<Field> fields_;
};

// Reads typed values out of one parsed document; errors carry the document's file name.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  Error error(int line, const std::string& msg) const { return Error::at(file_, line, msg); }
  Error error(const Field& f, const std::string& msg) const { return error(f.line, msg); }

  Result<YAML::Node> parse(const std::string& text) const;

  // Entries of a mapping whose keys must be among `known` (keys starting with "x-" are
  // ignored when `allow_extensions`, so they can hold anchors). `what` names the mapping
  // in "... must be a mapping" errors; `line` is used when the node has no position.
  Result<Fields> fields(const YAML::Node& map, const std::vector<std::string_view>& known,
                        const std::string& what, int line, bool allow_extensions = false) const;
  // Entries of a mapping with arbitrary keys (variants, env, params, plan entries).
  Result<Fields> entries(const YAML::Node& map, const std::string& what, int line) const;

  // Each leaves `out` unchanged on error; a null value is an error unless stated otherwise.
  Status get_int(const Field& f, int min, int& out, int max = INT_MAX) const;
  Status get_bool(const Field& f, bool& out) const;
  Status get_string(const Field& f, std::string& out) const;
  // Accepts null (leaves `out` unset), numbers, .inf and .nan.
  Status get_number(const Field& f, std::optional<double>& out) const;
  // A scalar list element; `what` names the list ("command", "metrics", ...).
  Result<std::string> element(const YAML::Node& node, const std::string& what, int line) const;
  // NAME: value pairs merged over `out` (existing names keep their position).
  Status merge_env(const Field& f, KeyValues& out) const;

 private:
  // `merges` counts the mappings merged into one entries() call so far.
  Status collect(const YAML::Node& map, const std::string& what, int line, Fields& out, int depth,
                 int& merges) const;

  std::string file_;
};

}  // namespace benchguard::yaml
