#include "report/runs.hpp"

#include <fmt/format.h>

#include "core/units.hpp"

namespace benchguard::report {

Document runs_document(const std::vector<store::RunSummary>& runs, const std::string& db) {
  Document d;
  d.schema = "runs";
  d.json["runs"] = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json labels = nlohmann::json::object();
    for (const auto& [k, v] : r.labels) labels[k] = v;
    d.json["runs"].push_back({{"id", r.id},
                              {"uuid", r.uuid},
                              {"started_at", format_iso8601(r.started_at)},
                              {"status", r.status},
                              {"suite", r.suite},
                              {"hostname", r.hostname},
                              {"git_commit", r.git_commit},
                              {"git_branch", r.git_branch},
                              {"benchmarks", r.benchmarks},
                              {"instances", r.instances},
                              {"labels", labels}});
  }
  Table t;
  t.columns = {Column::number("id", "id"),
               Column::left("run", "uuid"),
               Column::left("started (UTC)", "started_at"),
               Column::left("status", "status"),
               Column::left("suite", "suite"),
               Column::number("benchmarks", "benchmarks"),
               Column::number("instances", "instances"),
               Column::left("host", "hostname"),
               Column::left("git", "git_commit"),
               Column::left("labels", "labels")};
  for (const auto& r : runs) {
    std::string labels;
    for (const auto& [k, v] : r.labels)
      labels += fmt::format("{}{}={}", labels.empty() ? "" : " ", k, v);
    t.add_row({Cell::count(r.id), Cell::both(r.uuid.substr(0, 8), r.uuid),
               Cell::both(format_time(r.started_at), format_iso8601(r.started_at)), r.status,
               r.suite, Cell::count(r.benchmarks), Cell::count(r.instances), r.hostname,
               Cell::both(r.git_commit.substr(0, 10), r.git_commit), labels});
  }
  if (runs.empty()) {
    d.line({own("no runs in "), data(db)});
    d.only(0, Format::kTable);
  }
  d.table(std::move(t), true);
  if (runs.empty()) d.blocks.back().text = false;
  return d;
}

}  // namespace benchguard::report
