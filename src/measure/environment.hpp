// The environment of a child: the inherited one with a variant's variables set on top.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::measure {

// Built for every launch (BENCHGUARD_* variables differ per instance), so inherited entries
// are shared by pointer, never copied; with no overrides it is `environ` itself.
class ChildEnvironment {
 public:
  explicit ChildEnvironment(const KeyValues& overrides);
  ChildEnvironment(const ChildEnvironment&) = delete;
  ChildEnvironment& operator=(const ChildEnvironment&) = delete;

  char* const* envp() const { return inherited_ != nullptr ? inherited_ : entries_.data(); }
  // The value the child will see, nullptr when unset.
  const char* get(std::string_view name) const;

 private:
  std::vector<std::string> owned_;  // "NAME=value" of the overrides
  std::vector<char*> entries_;
  char* const* inherited_ = nullptr;
};

// An Error for names no environment can hold ("", "A=B").
Status validate_env(const KeyValues& env);

}  // namespace benchguard::measure
