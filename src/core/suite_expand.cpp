// RawSuite -> Suite: one BenchmarkSpec per member of each params product, every variant with
// its final argv, env and absolute cwd.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "core/names.hpp"
#include "core/suite_raw.hpp"

namespace benchguard::suite_detail {

namespace {

namespace fs = std::filesystem;
using yaml::Reader;

// The cartesian product of the params, the first declared varying slowest.
std::vector<KeyValues> product(const RawParams& params) {
  std::vector<KeyValues> members{{}};
  for (const auto& [name, values] : params) {
    std::vector<KeyValues> next;
    next.reserve(members.size() * values.size());
    for (const auto& partial : members) {
      for (const auto& value : values) {
        next.push_back(partial);
        next.back().emplace_back(name, value);
      }
    }
    members = std::move(next);
  }
  return members;
}

std::string member_name(const std::string& base, const KeyValues& params) {
  std::string name = base;
  for (const auto& [k, v] : params) name.append("/").append(k).append("=").append(v);
  return name;
}

std::string resolve_dir(const std::string& base_dir, const std::string& cwd) {
  // operator/ keeps an absolute cwd as it is.
  std::string dir = (fs::path(base_dir) / cwd).lexically_normal().string();
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// Overrides keep the variable's position, so the order stays the order of first mention.
void set_env(KeyValues& env, const std::string& name, const std::string& value) {
  for (auto& kv : env) {
    if (kv.first == name) {
      kv.second = value;
      return;
    }
  }
  env.emplace_back(name, value);
}

Result<VariantSpec> resolve_variant(const Reader& r, const RawBenchmark& b, const RawVariant& v,
                                    const KeyValues& params, const std::string& base_dir) {
  const std::string& bench = b.settings.spec.base_name;
  const RawCommand* cmd = v.command ? &*v.command : b.command ? &*b.command : nullptr;
  if (cmd == nullptr) {
    if (b.settings.variants.empty())
      return r.error(b.settings.spec.line, "benchmark '" + bench + "' has no command");
    return r.error(v.line, "benchmark '" + bench + "' has no command and variant '" + v.name +
                               "' does not set one");
  }
  // A suite-wide variant's command is checked against each benchmark's shell setting.
  const std::string where =
      v.command ? " (variant '" + v.name + "' of benchmark '" + bench + "')" : "";
  const bool shell = b.settings.shell;
  if (cmd->is_string && !shell)
    return r.error(cmd->line,
                   "command is a string; write it as a list, or set shell: true" + where);
  if (!cmd->is_string && shell)
    return r.error(
        cmd->line,
        "with shell: true, command must be a string (the script for /bin/sh -c)" + where);

  VariantSpec out;
  out.name = v.name;
  if (shell) {
    // The script is shell text, so args are appended to it as text too.
    std::string script = substitute(cmd->items[0], params, /*shell_words=*/true);
    for (const auto& a : v.args) script.append(" ").append(substitute(a, params, true));
    out.command = {"/bin/sh", "-c", std::move(script)};
  } else {
    for (const auto& item : cmd->items) out.command.push_back(substitute(item, params));
    for (const auto& a : v.args) out.command.push_back(substitute(a, params));
  }
  out.env = b.settings.env;
  for (const auto& kv : v.env) set_env(out.env, kv.first, kv.second);
  for (auto& kv : out.env) kv.second = substitute(kv.second, params);
  out.cwd = resolve_dir(base_dir, substitute(v.cwd.value_or(b.settings.cwd), params));
  // Hooks are shell text: each value goes in as one shell word, as in a shell command.
  auto hook = [&](const std::optional<std::string>& own, const std::string& inherited) {
    return substitute(own.value_or(inherited), params, /*shell_words=*/true);
  };
  const Hooks& h = b.settings.hooks;
  out.hooks = {hook(v.hooks.setup, h.setup), hook(v.hooks.prepare, h.prepare),
               hook(v.hooks.conclude, h.conclude), hook(v.hooks.cleanup, h.cleanup)};
  return out;
}

}  // namespace

std::string shell_word(const std::string& value) {
  const bool plain = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("-_./=:,+%@").find(c) != std::string_view::npos;
  });
  if (plain) return value;
  std::string out = "'";
  for (const char c : value) {
    if (c == '\'')
      out += "'\\''";  // close the quote, an escaped quote, reopen
    else
      out += c;
  }
  return out + "'";
}

std::string substitute(const std::string& text, const KeyValues& params, bool shell_words) {
  if (params.empty()) return text;
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i + 1);
      if (close != std::string::npos) {
        const std::string_view name(text.data() + i + 1, close - i - 1);
        auto it = std::find_if(params.begin(), params.end(),
                               [&](const auto& p) { return p.first == name; });
        if (it != params.end()) {
          out += shell_words ? shell_word(it->second) : it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

Result<Suite> expand_suite(const RawSuite& raw, const Reader& r, const std::string& base_dir) {
  Suite suite;
  suite.name = raw.name;
  suite.schedule = raw.schedule;
  suite.until_decided = raw.until_decided;
  suite.gate_require = raw.gate_require;
  std::map<std::string, int> first_line;  // expanded name -> line of its benchmark
  static const std::vector<RawVariant> kDefault = [] {
    RawVariant v;
    v.name = "default";
    return std::vector<RawVariant>{v};
  }();
  std::size_t total = 0;
  for (const auto& b : raw.benchmarks) {
    // The product's size first: a few long value lists multiply past any machine's memory.
    std::size_t members = 1;
    std::string sizes;
    for (const auto& [name, values] : b.params) {
      members = values.empty() ? 0 : std::min(members * values.size(), kMaxBenchmarks + 1);
      sizes += (sizes.empty() ? "" : " x ") + std::to_string(values.size());
    }
    total += members;
    if (total > kMaxBenchmarks)
      return r.error(b.settings.spec.line,
                     "params of '" + b.settings.spec.base_name + "' make " +
                         (members > kMaxBenchmarks ? "more than " + std::to_string(kMaxBenchmarks)
                                                   : std::to_string(members)) +
                         " benchmarks (" + sizes + "), and a suite may have at most " +
                         std::to_string(kMaxBenchmarks));
    const auto& variants = b.settings.variants.empty() ? kDefault : b.settings.variants;
    for (const auto& params : product(b.params)) {
      BenchmarkSpec spec = b.settings.spec;
      spec.params = params;
      spec.name = member_name(spec.base_name, params);
      if (auto st = check_name("benchmark name", spec.name); !st.ok())
        return r.error(spec.line, st.error().message);
      if (auto [it, fresh] = first_line.emplace(spec.name, spec.line); !fresh)
        return r.error(spec.line, "duplicate benchmark name '" + spec.name + "' (first at line " +
                                      std::to_string(it->second) + ")");
      for (const auto& v : variants) {
        BG_ASSIGN(auto variant, resolve_variant(r, b, v, params, base_dir));
        spec.variants.push_back(std::move(variant));
      }
      suite.benchmarks.push_back(std::move(spec));
    }
  }
  return suite;
}

}  // namespace benchguard::suite_detail
