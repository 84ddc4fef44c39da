// The suite as written, between its two stages: suite_parse.cpp checks the YAML and reads it
// into these types; suite_expand.cpp expands params and resolves variants into a Suite.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "core/yaml_util.hpp"

namespace benchguard::suite_detail {

// A command as written. Whether a string is allowed depends on `shell`, which a benchmark may
// set after a suite-wide variant was read, so that check waits for expansion.
struct RawCommand {
  std::vector<std::string> items;  // a string command is its single item
  bool is_string = false;
  int line = 0;
};

// Hooks as written (Hooks, before {param} substitution); unset ones are inherited.
struct RawHooks {
  std::optional<std::string> setup, prepare, conclude, cleanup;
};

struct RawVariant {
  std::string name;
  std::optional<RawCommand> command;  // replaces the benchmark's
  std::vector<std::string> args;      // appended to the command
  KeyValues env;                      // merged over the benchmark's
  std::optional<std::string> cwd;
  RawHooks hooks;  // each set one replaces the benchmark's
  int line = 0;
};

// Everything a benchmark inherits from the top level and may override.
struct RawSettings {
  // Counts, timeout and metrics live in their final form; name and line are per benchmark.
  BenchmarkSpec spec;
  bool shell = false;
  KeyValues env;
  std::string cwd = ".";             // relative to the suite file's directory
  Hooks hooks;                       // a benchmark's replace the top level's, hook by hook
  std::vector<RawVariant> variants;  // empty: the single variant "default"
};

using RawParams = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct RawBenchmark {
  RawSettings settings;
  std::optional<RawCommand> command;  // may be absent when every variant sets one
  RawParams params;                   // declaration order; expanded as a product
};

struct RawSuite {
  std::string name;
  std::string schedule = "interleaved";
  std::optional<UntilDecided> until_decided;
  std::vector<std::string> gate_require;
  std::vector<RawBenchmark> benchmarks;
};

// Checks keys, types and ranges of a parsed suite document.
Result<RawSuite> read_suite(const YAML::Node& root, const yaml::Reader& reader,
                            const std::string& default_name);

// Expands params, resolves commands, env and cwd (against `base_dir`) per variant, and checks
// what only shows once expanded: command/shell mismatches, missing commands, duplicate names.
// Suite::path is left to the caller.
Result<Suite> expand_suite(const RawSuite& raw, const yaml::Reader& reader,
                           const std::string& base_dir);

// Replaces {name} for every name in `params`; other braces are left as written. With
// `shell_words`, each value goes in as one shell word: as it is when it holds only letters,
// digits and -_./=:,+%@, otherwise single-quoted ("it's" -> 'it'\''s'), so a value can never
// add commands, redirections or words to a `shell: true` script.
std::string substitute(const std::string& text, const KeyValues& params, bool shell_words = false);

// `value` as one word of /bin/sh (see substitute).
std::string shell_word(const std::string& value);

}  // namespace benchguard::suite_detail
