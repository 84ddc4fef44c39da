#include "report/system.hpp"

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "report/table.hpp"

namespace benchguard::report {

namespace {

std::string table_format(const std::string& format) {
  return format == "jsonl" ? "csv" : format;
}

}  // namespace

void print_system_check(std::ostream& out, const std::string& format,
                        const std::vector<measure::Finding>& findings) {
  using measure::Severity;
  int counts[4] = {0, 0, 0, 0};
  for (const auto& x : findings) ++counts[static_cast<int>(x.severity)];
  const int warnings = counts[static_cast<int>(Severity::kWarning)];

  if (format == "json") {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& x : findings)
      checks.push_back({{"key", x.key},
                        {"value", x.value},
                        {"severity", measure::to_string(x.severity)},
                        {"why", x.why},
                        {"fix", x.fix}});
    const nlohmann::json j = {{"checks", checks}, {"warnings", warnings}};
    out << json_text(j, 2) << "\n";
    return;
  }

  const bool machine = format == "csv" || format == "jsonl";
  const bool md = format == "md";
  Table t;
  t.header = {"check", "value", "status", "why it matters"};
  if (machine) t.header.emplace_back("fix");
  for (const auto& x : findings) {
    std::vector<std::string> row{x.key, x.value, measure::to_string(x.severity), x.why};
    if (machine) {
      std::string fix;
      for (const auto& c : x.fix) fix += (fix.empty() ? "" : "; ") + c;
      row.push_back(fix);
    }
    t.add_row(std::move(row));
  }
  if (md) out << "**benchguard system check**\n\n";
  render(t, table_format(format), out);
  if (machine) return;

  Table fixes;
  fixes.header = {"check", "status", "fix"};
  for (const auto& x : findings)
    for (const auto& c : x.fix)
      fixes.add_row({x.key, measure::to_string(x.severity), md ? "`" + c + "`" : c});
  if (!fixes.rows.empty()) {
    out << (md ? "\n**To fix**\n\n" : "\nto fix:\n");
    render(fixes, format, out);
  }
  out << fmt::format("\n{} warning{}, {} info, {} unknown; {} ok\n", warnings,
                     warnings == 1 ? "" : "s", counts[static_cast<int>(Severity::kInfo)],
                     counts[static_cast<int>(Severity::kUnknown)],
                     counts[static_cast<int>(Severity::kOk)]);
}

void print_tune_plan(std::ostream& out, const std::string& format, const measure::SystemRoot& root,
                     const std::vector<measure::TuneWrite>& writes) {
  const bool md = format == "md";
  Table t;
  t.header = {"check", "file", "now", "new"};
  for (const auto& w : writes) t.add_row({w.key, root.path(w.path), w.previous, w.value});
  render(t, table_format(format), out);
  const auto list = [&](const char* title, auto command) {
    out << (md ? fmt::format("\n**{}**\n\n", title) : fmt::format("\n{}:\n", title));
    for (const auto& w : writes) out << (md ? "- `" + command(w) + "`" : "  " + command(w)) << "\n";
  };
  list("commands", [](const measure::TuneWrite& w) { return w.command(); });
  list("to restore", [](const measure::TuneWrite& w) { return w.restore(); });
}

void print_tune_outcome(std::ostream& out, const std::string& format, bool dry_run,
                        const measure::SystemRoot& root,
                        const std::vector<measure::TuneWrite>& writes,
                        const std::vector<int>& errors) {
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < writes.size(); ++i) {
      const auto& w = writes[i];
      nlohmann::json j = {{"key", w.key},
                          {"path", root.path(w.path)},
                          {"previous", w.previous},
                          {"value", w.value},
                          {"command", w.command()},
                          {"restore", w.restore()},
                          {"written", errors[i] == 0}};
      if (errors[i] > 0) j["error"] = std::strerror(errors[i]);
      list.push_back(std::move(j));
    }
    out << json_text(nlohmann::json({{"dry_run", dry_run}, {"writes", list}}), 2) << "\n";
    return;
  }
  bool attempted = false;
  for (int e : errors) attempted = attempted || e >= 0;
  if (!attempted) {
    out << (dry_run ? "\ndry run: nothing written\n" : "\nnothing written\n");
    return;
  }
  out << "\n";
  for (size_t i = 0; i < writes.size(); ++i) {
    if (errors[i] == 0)
      out << fmt::format("written  {}: {} -> {}\n", root.path(writes[i].path), writes[i].previous,
                         writes[i].value);
    else if (errors[i] > 0)
      out << fmt::format("failed   {}: {}\n", root.path(writes[i].path), std::strerror(errors[i]));
  }
}

}  // namespace benchguard::report
