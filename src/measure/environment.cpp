#include "measure/environment.hpp"

#include <algorithm>
#include <bitset>
#include <cstring>

extern char** environ;

namespace benchguard::measure {
namespace {

// True when `entry` ("NAME=value") defines `name`.
bool defines(const char* entry, std::string_view name) {
  // The first byte settles most comparisons: this runs for every inherited variable and
  // every override at each launch.
  return !name.empty() && entry[0] == name[0] &&
         std::strncmp(entry, name.data(), name.size()) == 0 && entry[name.size()] == '=';
}

}  // namespace

ChildEnvironment::ChildEnvironment(const KeyValues& overrides) {
  if (overrides.empty()) {
    inherited_ = environ;
    return;
  }
  owned_.reserve(overrides.size());
  for (const auto& kv : overrides) {
    const std::string& name = kv.first;
    std::string entry;
    entry.reserve(name.size() + 1 + kv.second.size());
    entry.append(name).append(1, '=').append(kv.second);
    // A later override of the same name wins, as repeated setenv() calls would.
    auto same = std::find_if(owned_.begin(), owned_.end(),
                             [&](const std::string& o) { return defines(o.c_str(), name); });
    if (same != owned_.end())
      *same = std::move(entry);
    else
      owned_.push_back(std::move(entry));
  }
  // The first bytes of the overridden names: most inherited variables share none of them
  // and are kept after one lookup, instead of a comparison with every override.
  std::bitset<256> first_bytes;
  for (const auto& kv : overrides)
    if (!kv.first.empty()) first_bytes.set(static_cast<unsigned char>(kv.first[0]));
  size_t n = 0;
  while (environ[n] != nullptr) ++n;
  entries_.reserve(n + owned_.size() + 1);
  for (size_t i = 0; i < n; ++i) {
    const bool overridden = first_bytes.test(static_cast<unsigned char>(environ[i][0])) &&
                            std::any_of(overrides.begin(), overrides.end(), [&](const auto& kv) {
                              return defines(environ[i], kv.first);
                            });
    if (!overridden) entries_.push_back(environ[i]);
  }
  for (auto& o : owned_) entries_.push_back(o.data());
  entries_.push_back(nullptr);
}

const char* ChildEnvironment::get(std::string_view name) const {
  for (char* const* e = envp(); *e != nullptr; ++e)
    if (defines(*e, name)) return *e + name.size() + 1;
  return nullptr;
}

Status validate_env(const KeyValues& env) {
  for (const auto& [name, value] : env)
    if (name.empty() || name.find('=') != std::string::npos || name.find('\0') != std::string::npos)
      return Error{"invalid environment variable name '" + name + "'"};
  return ok_status();
}

}  // namespace benchguard::measure
