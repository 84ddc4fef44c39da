#include "pytest/pytest.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "measure/capture.hpp"

namespace benchguard::pytest {
namespace {

// The last non-empty line of `text`, and what comes before it.
std::pair<std::string, std::string> split_last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return {"", ""};
  const std::size_t start = text.rfind('\n', end);
  const std::size_t from = start == std::string::npos ? 0 : start + 1;
  return {text.substr(0, from), text.substr(from, end + 1 - from)};
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// importlib.metadata's view of the interpreter's distributions, as one JSON object.
constexpr const char* kPackagesScript =
    "import importlib.metadata as m, json\n"
    "d = {}\n"
    "for x in m.distributions():\n"
    "    n = x.metadata['Name']\n"
    "    if n:\n"
    "        d.setdefault(n, x.version)\n"
    "print(json.dumps(d, sort_keys=True))\n";

}  // namespace

std::string plugin_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate :
       {dir / ".." / "python", dir / ".." / "share" / "benchguard" / "python"}) {
    if (access((candidate / "benchguard_pytest" / "__init__.py").c_str(), R_OK) == 0)
      return candidate.lexically_normal().string();
  }
  return "";
}

KeyValues python_env(const std::string& plugin) {
  KeyValues env;
  if (!plugin.empty()) {
    const char* before = std::getenv("PYTHONPATH");
    env.emplace_back("PYTHONPATH",
                     before != nullptr && *before != '\0' ? plugin + ":" + before : plugin);
  }
  env.emplace_back("PYTHONDONTWRITEBYTECODE", "1");
  return env;
}

Result<Collection> collect(const std::string& python, const std::vector<std::string>& pytest_args,
                           const std::string& cwd, const KeyValues& env) {
  std::vector<std::string> argv{python, "-m", "benchguard_pytest._collect"};
  argv.insert(argv.end(), pytest_args.begin(), pytest_args.end());
  BG_ASSIGN(const measure::Captured got, measure::capture_output(argv, cwd, env));
  Collection c;
  const auto [before, last] = split_last_line(got.out);
  const auto j = nlohmann::json::parse(last, nullptr, /*allow_exceptions=*/false);
  if (got.exit_code != 0 || !j.is_object() || !j.contains("tests") || !j["tests"].is_array()) {
    c.exit_code = got.exit_code;
    c.output = trimmed(got.out);
    return c;
  }
  c.collector_ran = true;
  c.exit_code = j.value("exit", -1);
  c.output = trimmed(before);
  const std::string root = j.value("rootdir", std::string());
  for (const auto& t : j["tests"]) {
    if (!t.is_object()) continue;
    CollectedTest test{t.value("nodeid", std::string()), "", t.value("name", std::string()),
                       t.value("fixture", std::string())};
    test.target = root.empty() ? test.nodeid : root + "/" + test.nodeid;
    c.tests.push_back(std::move(test));
  }
  return c;
}

Result<std::map<std::string, std::string>> packages(const std::string& python,
                                                    const KeyValues& env) {
  BG_ASSIGN(const measure::Captured got,
            measure::capture_output({python, "-c", kPackagesScript}, "", env));
  const auto j = nlohmann::json::parse(split_last_line(got.out).second, nullptr, false);
  if (got.exit_code != 0 || !j.is_object())
    return Error{fmt::format("{} could not list its installed packages (exit code {})", python,
                             got.exit_code)};
  std::map<std::string, std::string> out;
  for (const auto& [name, version] : j.items())
    if (version.is_string()) out.emplace(name, version.get<std::string>());
  return out;
}

Suite suite_of(const std::vector<CollectedTest>& tests,
               const std::vector<Interpreter>& interpreters, const std::string& cwd,
               const KeyValues& env) {
  Suite s;
  s.name = "pytest";
  for (const auto& t : tests) {
    BenchmarkSpec b;
    b.name = b.base_name = t.name;
    b.instances = 5;
    b.iterations = 5;
    b.burn_in = 1;
    for (const auto& in : interpreters) {
      VariantSpec v;
      v.name = in.variant;
      v.command = {in.python,
                   "-m",
                   "pytest",
                   "-q",
                   "-p",
                   "no:cacheprovider",
                   "-p",
                   "benchguard_pytest",
                   t.target.empty() ? t.nodeid : t.target,
                   "--benchguard"};
      v.cwd = cwd;
      v.env = env;
      b.variants.push_back(std::move(v));
    }
    s.benchmarks.push_back(std::move(b));
  }
  return s;
}

std::string packages_artifact(
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>>& sides) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [variant, pkgs] : sides) j[variant] = pkgs;
  return j.dump();
}

}  // namespace benchguard::pytest
