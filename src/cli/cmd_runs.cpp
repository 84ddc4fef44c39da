// benchguard runs: the stored runs, newest first.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/shared_flags.hpp"
#include "core/json_error.hpp"
#include "core/units.hpp"
#include "report/table.hpp"

namespace benchguard::cli {

Action add_runs(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("runs", "List stored runs, newest first");
  auto limit = std::make_shared<int>(20);
  c->add_option("-n,--limit", *limit, "How many (0: all)")->check(whole_number("--limit", 0));
  return [&ctx, limit]() -> Result<int> {
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(auto runs, store->list_runs());
    if (*limit > 0 && static_cast<int>(runs.size()) > *limit) runs.resize(*limit);
    if (ctx.globals.format == "json") {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& r : runs) {
        nlohmann::json labels = nlohmann::json::object();
        for (const auto& [k, v] : r.labels) labels[k] = v;
        j.push_back({{"id", r.id},
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
      ctx.out << json_text(j, 2) << "\n";
      return 0;
    }
    report::Table t;
    t.header = {"id",         "run",       "started (UTC)", "status", "suite",
                "benchmarks", "instances", "host",          "git",    "labels"};
    t.right = {true, false, false, false, false, true, true, false, false, false};
    for (const auto& r : runs) {
      std::string labels;
      for (const auto& [k, v] : r.labels)
        labels += fmt::format("{}{}={}", labels.empty() ? "" : " ", k, v);
      t.add_row({std::to_string(r.id), r.uuid.substr(0, 8), format_time(r.started_at), r.status,
                 r.suite, std::to_string(r.benchmarks), std::to_string(r.instances), r.hostname,
                 r.git_commit.substr(0, 10), labels});
    }
    if (runs.empty() && ctx.globals.format == "table") {
      ctx.out << "no runs in " << ctx.db_name() << "\n";
      return 0;
    }
    report::render(t, ctx.globals.format == "jsonl" ? "csv" : ctx.globals.format, ctx.out);
    return 0;
  };
}

}  // namespace benchguard::cli
