#include "cli/command_params.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>

#include "core/names.hpp"

namespace benchguard::cli {
namespace {

// At most this many values per scan: a typo in MAX (1e9) is refused rather than run.
constexpr long long kMaxScanValues = 10000;

Result<double> parse_number(const std::string& flag, const std::string& what,
                            const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (...) {
  }
  return Error{fmt::format("{}: {} must be a number, not '{}'", flag, what, text)};
}

// Digits after the decimal point as written ("0.25" -> 2; "1" and "1e-1" -> 0 and 1).
int decimals(const std::string& text) {
  const auto e = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e);
  const auto dot = mantissa.find('.');
  int d = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  if (e != std::string::npos) {
    try {
      d -= std::stoi(text.substr(e + 1));
    } catch (...) {
    }
  }
  return std::max(d, 0);
}

Status check_param_name(const std::string& flag, const std::string& name,
                        std::set<std::string>& seen) {
  BG_TRY(check_name(flag + " name", name));
  if (name.find_first_of("{}/= ") != std::string::npos)
    return Error{
        fmt::format("{}: a parameter name has no braces, '/', '=' or spaces: '{}'", flag, name)};
  if (!seen.insert(name).second)
    return Error{fmt::format("{}: parameter '{}' is given twice", flag, name)};
  return ok_status();
}

}  // namespace

void add_parameter_flags(CLI::App* c, ParameterFlags& f) {
  c->add_option("--parameter-scan", f.scan,
                "NAME MIN MAX: one benchmark per value from MIN to MAX, {NAME} in the command")
      ->expected(3)
      ->type_name("NAME MIN MAX");
  c->add_option("--parameter-step-size", f.step, "The step of --parameter-scan (default 1)")
      ->needs("--parameter-scan");
  c->add_option("--parameter-list", f.lists,
                "NAME a,b,c: one benchmark per value, {NAME} in the command; several lists give "
                "their product")
      ->expected(2)
      ->type_name("NAME VALUES");
}

Result<ParamValues> parameter_values(const ParameterFlags& f) {
  ParamValues out;
  std::set<std::string> seen;
  if (!f.scan.empty()) {
    const std::string flag = "--parameter-scan";
    if (f.scan.size() != 3) return Error{flag + " takes NAME MIN MAX"};
    BG_TRY(check_param_name(flag, f.scan[0], seen));
    BG_ASSIGN(const double lo, parse_number(flag, "MIN", f.scan[1]));
    BG_ASSIGN(const double hi, parse_number(flag, "MAX", f.scan[2]));
    const std::string step_text = f.step.empty() ? "1" : f.step;
    BG_ASSIGN(const double step, parse_number("--parameter-step-size", "the step", step_text));
    if (!(step > 0)) return Error{"--parameter-step-size must be above 0, not " + step_text};
    if (hi < lo)
      return Error{fmt::format("{}: MAX ({}) is below MIN ({})", flag, f.scan[2], f.scan[1])};
    const int digits = std::max({decimals(step_text), decimals(f.scan[1])});
    if (f.step.empty() && (lo != std::floor(lo) || hi != std::floor(hi)))
      return Error{flag +
                   ": MIN and MAX of a scan without --parameter-step-size are whole numbers"};
    // A value within a millionth of a step of MAX is MAX (0.1 + 0.2 is not 0.3 in binary).
    const double count = std::floor((hi - lo) / step + 1e-6) + 1;
    if (count > static_cast<double>(kMaxScanValues))
      return Error{fmt::format("{} gives {:.0f} values, above the limit of {}: widen the step",
                               flag, count, kMaxScanValues)};
    std::vector<std::string> values;
    for (long long k = 0; k < static_cast<long long>(count); ++k)
      values.push_back(fmt::format("{:.{}f}", lo + static_cast<double>(k) * step, digits));
    out.emplace_back(f.scan[0], std::move(values));
  }
  for (const auto& list : f.lists) {
    const std::string flag = "--parameter-list";
    if (list.size() != 2) return Error{flag + " takes NAME VALUES (VALUES separated by commas)"};
    BG_TRY(check_param_name(flag, list[0], seen));
    std::vector<std::string> values;
    std::size_t start = 0;
    while (true) {
      const auto comma = list[1].find(',', start);
      values.push_back(list[1].substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    for (const auto& v : values)
      if (v.empty())
        return Error{fmt::format("{} {}: an empty value in '{}'", flag, list[0], list[1])};
    out.emplace_back(list[0], std::move(values));
  }
  return out;
}

std::string parameter_suite_yaml(const std::string& name, const std::vector<std::string>& command,
                                 bool shell, const std::string& cwd, const ParamValues& params) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "command";
  y << YAML::Key << "benchmarks" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << name;
  y << YAML::Key << "instances" << YAML::Value << 10;
  y << YAML::Key << "cwd" << YAML::Value << YAML::DoubleQuoted << cwd;
  if (shell) {
    const std::string script = fmt::format("{}", fmt::join(command, " "));
    y << YAML::Key << "shell" << YAML::Value << true;
    y << YAML::Key << "command" << YAML::Value << YAML::DoubleQuoted << script;
  } else {
    y << YAML::Key << "command" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& a : command) y << YAML::DoubleQuoted << a;
    y << YAML::EndSeq;
  }
  y << YAML::Key << "params" << YAML::Value << YAML::BeginMap;
  for (const auto& [param, values] : params) {
    y << YAML::Key << param << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& v : values) y << YAML::DoubleQuoted << v;
    y << YAML::EndSeq;
  }
  y << YAML::EndMap << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return y.c_str();
}

}  // namespace benchguard::cli
