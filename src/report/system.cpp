#include "report/system.hpp"

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

namespace benchguard::report {

Document system_check_document(const std::vector<measure::Finding>& findings) {
  using measure::Severity;
  int counts[4] = {0, 0, 0, 0};
  for (const auto& x : findings) ++counts[static_cast<int>(x.severity)];
  const int warnings = counts[static_cast<int>(Severity::kWarning)];
  Document d;
  d.schema = "system-check";
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& x : findings)
    checks.push_back({{"key", x.key},
                      {"value", x.value},
                      {"severity", measure::to_string(x.severity)},
                      {"why", x.why},
                      {"fix", x.fix}});
  d.json = {{"checks", checks}, {"warnings", warnings}};

  Table t;
  t.columns = {Column::left("check", "check"), Column::left("value", "value"),
               Column::left("status", "status"), Column::left("why it matters", "why"),
               Column::left("fix", "fix").scripts_only()};
  for (const auto& x : findings) {
    std::string fix;
    for (const auto& c : x.fix) fix += (fix.empty() ? "" : "; ") + c;
    t.add_row({x.key, x.value, measure::to_string(x.severity), x.why, fix});
  }
  d.raw(Format::kMarkdown, "**benchguard system check**\n\n");
  d.table(std::move(t), true);

  Table fixes;
  fixes.columns = {Column::left("check", "check"), Column::left("status", "status"),
                   Column::left("fix", "fix")};
  bool any = false;
  for (const auto& x : findings)
    for (const auto& c : x.fix) {
      fixes.add_row({x.key, measure::to_string(x.severity), c});
      any = true;
    }
  if (any) {
    d.raw(Format::kTable, "\nto fix:\n");
    d.raw(Format::kMarkdown, "\n**To fix**\n\n");
    d.table(std::move(fixes));
  }
  d.blank().line({own(fmt::format(
      "{} warning{}, {} info, {} unknown; {} ok", warnings, warnings == 1 ? "" : "s",
      counts[static_cast<int>(Severity::kInfo)], counts[static_cast<int>(Severity::kUnknown)],
      counts[static_cast<int>(Severity::kOk)]))});
  return d;
}

Document tune_plan_document(const measure::SystemRoot& root,
                            const std::vector<measure::TuneWrite>& writes) {
  Document d;
  d.schema = "system-tune";
  Table t;
  t.columns = {Column::left("check", "check"), Column::left("file", "file"),
               Column::left("now", "now"), Column::left("new", "new")};
  for (const auto& w : writes) t.add_row({w.key, root.path(w.path), w.previous, w.value});
  d.table(std::move(t), true);
  const auto list = [&](const char* title, auto command) {
    d.raw(Format::kTable, fmt::format("\n{}:\n", title));
    d.raw(Format::kMarkdown, fmt::format("\n**{}**\n\n", title));
    for (const auto& w : writes) {
      const std::size_t at = d.blocks.size();
      d.item({own(command(w))}).only(at, Format::kTable);
      d.raw(Format::kMarkdown, "- `" + command(w) + "`\n");
    }
  };
  list("commands", [](const measure::TuneWrite& w) { return w.command(); });
  list("to restore", [](const measure::TuneWrite& w) { return w.restore(); });
  return d;
}

Document tune_outcome_document(bool dry_run, const measure::SystemRoot& root,
                               const std::vector<measure::TuneWrite>& writes,
                               const std::vector<int>& errors) {
  Document d;
  d.schema = "system-tune";
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
  d.json = {{"dry_run", dry_run}, {"writes", list}};
  if (writes.empty()) {
    d.line(
        {own("nothing to tune: the CPU governor, turbo, ASLR and perf_event_paranoid are as "
             "benchmarks want them or cannot be read (see benchguard system check)")});
    return d;
  }
  bool attempted = false;
  for (int e : errors) attempted = attempted || e >= 0;
  if (!attempted) {
    d.blank().line({own(dry_run ? "dry run: nothing written" : "nothing written")});
    return d;
  }
  d.blank();
  for (size_t i = 0; i < writes.size(); ++i) {
    if (errors[i] == 0)
      d.line({own(fmt::format("written  {}: {} -> {}", root.path(writes[i].path),
                              writes[i].previous, writes[i].value))});
    else if (errors[i] > 0)
      d.line({own(
          fmt::format("failed   {}: {}", root.path(writes[i].path), std::strerror(errors[i])))});
  }
  return d;
}

}  // namespace benchguard::report
