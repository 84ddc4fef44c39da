// benchguard history | detect | ack | unack | gate: series over commits, their change points,
// acknowledgements and the CI gate (docs/history.md).
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analysis/gate.hpp"
#include "cli/analysis_flags.hpp"
#include "cli/app.hpp"
#include "core/names.hpp"
#include "core/units.hpp"
#include "report/history.hpp"
#include "vcs/git.hpp"
#include "vcs/log.hpp"

namespace benchguard::cli {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Which series, over which commits: the flags history, detect and gate share.
struct SelectFlags {
  std::vector<std::string> benchmarks;
  std::vector<std::string> metrics;
  std::string branch;
  std::string repo;
  std::string machine;
  std::string since;
  size_t last = 0;
  std::string burn_in = "auto";

  void add_to(CLI::App* c, bool with_window) {
    c->add_option("benchmarks", benchmarks, "Benchmarks (exact names; default: all)");
    c->add_option("--metric", metrics, "Metric(s) (default: wall_time)");
    c->add_option("--branch", branch,
                  "Only this branch: with --repo its first-parent history, else the runs "
                  "recorded on it");
    c->add_option("--repo", repo,
                  "A git repository: order points by its first-parent history (of --branch, "
                  "else HEAD) instead of commit time");
    c->add_option("--machine", machine, "Only this machine class (see `history`)");
    if (with_window) {
      c->add_option("--since", since, "Only points at or after this date (YYYY-MM-DD[THH:MM:SS])");
      c->add_option("--last", last, "Only the newest N points of each series");
    }
    c->add_option("--burn-in", burn_in,
                  "auto (flagged + detected), configured (flagged only), or a count per instance");
  }

  Result<analysis::HistoryOptions> options() const {
    analysis::HistoryOptions o;
    o.benchmarks = benchmarks;
    o.metrics = metrics;
    o.machine = machine;
    o.last = last;
    if (!since.empty()) {
      BG_ASSIGN(o.since, parse_date(since));
    }
    AnalysisFlags a;
    a.burn_in = burn_in;
    BG_ASSIGN(o.burn_in, a.burn_in_policy());
    if (!repo.empty()) {
      BG_ASSIGN(auto commits, vcs::first_parent_history(repo, branch));
      for (auto& c : commits) o.commits.push_back(std::move(c.hash));
    } else {
      o.branch = branch;
    }
    return o;
  }
};

struct DetectFlags {
  std::string method = "e-divisive";
  std::optional<double> p;
  size_t window = 50;
  double min_magnitude = 0;
  double floor = 0;
  size_t permutations = 100;
  uint64_t seed = 1;
  bool full = false;

  void add_to(CLI::App* c) {
    c->add_option("--method", method,
                  "e-divisive (t-test, as Apache Otava), permutation (E-divisive with a "
                  "permutation test, as MongoDB) or threshold (mean of the 10 before + "
                  "max(3 sigma, --floor), confirmed by 3 points)")
        ->check(CLI::IsMember({"e-divisive", "permutation", "threshold"}));
    c->add_option("--p", p, "Largest p-value of a change point (0.001; permutation: 0.05)")
        ->check(CLI::Range(1e-12, 0.5));
    c->add_option("--window", window, "E-divisive window, in points")->check(CLI::Range(6, 100000));
    c->add_option("--min-magnitude", min_magnitude,
                  "Drop changes smaller than this relative size (0.02 = 2%)")
        ->check(CLI::Range(0.0, 10.0));
    c->add_option("--floor", floor, "Threshold rule: absolute floor, in the metric's unit")
        ->check(CLI::NonNegativeNumber);
    c->add_option("--permutations", permutations, "Permutation test: permutations")
        ->check(CLI::Range(19, 100000));
    c->add_option("--seed", seed, "Seed of permutations and the confirming bootstrap");
    c->add_flag("--full", full, "Re-examine every series from its start");
  }

  analysis::DetectOptions options() const {
    analysis::DetectOptions o;
    o.method = method == "permutation" ? stats::ChangeMethod::kEDivisivePermutation
               : method == "threshold" ? stats::ChangeMethod::kThreshold
                                       : stats::ChangeMethod::kEDivisiveTTest;
    o.max_p_value = p;
    o.window = window;
    o.min_magnitude = min_magnitude;
    o.absolute_floor = floor;
    o.permutations = permutations;
    o.seed = seed;
    o.verdict.seed = seed;
    o.full = full;
    return o;
  }
};

Action add_history_cmd(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("history",
                               "Series over commits: per benchmark, metric and machine class, one "
                               "point per commit");
  auto f = std::make_shared<SelectFlags>();
  f->add_to(c, true);
  return [&ctx, f]() -> Result<int> {
    BG_ASSIGN(auto opts, f->options());
    BG_ASSIGN(auto store, ctx.open_store_read_only());
    BG_ASSIGN(auto history, analysis::load_history(*store, opts));
    for (const auto& w : history.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    report::render_history(history, ctx.globals.format, ctx.out);
    return 0;
  };
}

Action add_detect_cmd(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand(
      "detect", "Find change points in every series (incremental; results are stored)");
  auto f = std::make_shared<SelectFlags>();
  auto d = std::make_shared<DetectFlags>();
  auto all = std::make_shared<bool>(false);
  f->add_to(c, false);
  d->add_to(c);
  c->add_flag("--all", *all, "Also list acknowledged change points");
  return [&ctx, f, d, all]() -> Result<int> {
    BG_ASSIGN(auto opts, f->options());
    BG_ASSIGN(auto store, ctx.open_store());
    BG_ASSIGN(auto history, analysis::load_history(*store, opts));
    for (const auto& w : history.warnings) ctx.err << "benchguard: " << escape_text(w) << "\n";
    BG_ASSIGN(auto found, analysis::detect_and_store(*store, history, d->options(), now_ns()));
    BG_ASSIGN(auto acks, store->load_acks());
    auto rows = analysis::with_acks(found.changes, acks);
    if (!*all) std::erase_if(rows, [](const auto& r) { return r.ack != nullptr; });
    report::render_changes(rows, ctx.globals.format, ctx.out);
    if (!ctx.globals.quiet && ctx.globals.format == "table")
      ctx.err << fmt::format(
          "benchguard: {} series examined ({} incrementally), {} change "
          "point(s)\n",
          found.series, found.reused, found.changes.size());
    return 0;
  };
}

Action add_ack_cmd(CLI::App& app, Context& ctx, bool ack) {
  auto* c = app.add_subcommand(ack ? "ack" : "unack",
                               ack ? "Acknowledge a change point: it no longer fails the gate"
                                   : "Take an acknowledgement back");
  auto id = std::make_shared<std::string>();
  auto reason = std::make_shared<std::string>();
  c->add_option("change", *id, "The change point's id (from `detect`)")->required();
  if (ack) c->add_option("--reason", *reason, "Why it is accepted");
  return [&ctx, id, reason, ack]() -> Result<int> {
    BG_TRY(check_name("change id", *id));
    if (!reason->empty()) BG_TRY(check_name("--reason", *reason));
    BG_ASSIGN(auto store, ctx.open_store());
    if (!ack) {
      BG_ASSIGN(bool removed, store->remove_ack(*id));
      ctx.out << (removed ? fmt::format("{}: acknowledgement removed\n", *id)
                          : fmt::format("{}: was not acknowledged\n", *id));
      return 0;
    }
    BG_ASSIGN(auto changes, store->load_changes());
    const bool known =
        std::any_of(changes.begin(), changes.end(), [&](const auto& ch) { return ch.id == *id; });
    if (!known)
      return Error{
          fmt::format("no change point '{}' in {} (ids are listed by `benchguard "
                      "detect --all`)",
                      *id, ctx.db_name())};
    BG_ASSIGN(bool fresh, store->set_ack({*id, *reason, now_ns()}));
    ctx.out << fmt::format("{}: {}\n", *id, fresh ? "acknowledged" : "already acknowledged");
    return 0;
  };
}

Action add_gate_cmd(CLI::App& app, Context& ctx) {
  auto* c = app.add_subcommand("gate",
                               "CI gate: exit 1 when the newest run brings an unacknowledged "
                               "confirmed regression, 0 otherwise, 2 on bad input");
  auto f = std::make_shared<SelectFlags>();
  auto d = std::make_shared<DetectFlags>();
  auto against = std::make_shared<std::string>("history");
  f->add_to(c, false);
  d->add_to(c);
  c->add_option("--against", *against,
                "history (change points of each series), a branch or a commit (the newest "
                "run against its newest run)");
  return [&ctx, f, d, against]() -> Result<int> {
    analysis::GateOptions o;
    o.against = *against;
    if (o.against != "history") o.against_commit = vcs::rev_parse(f->repo, o.against);
    BG_ASSIGN(o.history, f->options());
    o.detect = d->options();
    BG_ASSIGN(auto store, ctx.open_store());
    BG_ASSIGN(auto gate, analysis::run_gate(*store, o, now_ns()));
    const std::string format = ctx.globals.format;
    report::render_gate(gate, format, ctx.out);
    // GitHub Actions shows this file on the run's summary page.
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
      std::ostringstream md;
      report::render_gate_markdown(gate, md);
      std::ofstream file(summary, std::ios::app);
      file << md.str();
      if (!file) return Error{fmt::format("cannot append to $GITHUB_STEP_SUMMARY ({})", summary)};
    }
    return gate.failed() ? 1 : 0;
  };
}

}  // namespace

Action add_history(CLI::App& app, Context& ctx) {
  return add_history_cmd(app, ctx);
}
Action add_detect(CLI::App& app, Context& ctx) {
  return add_detect_cmd(app, ctx);
}
Action add_ack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, true);
}
Action add_unack(CLI::App& app, Context& ctx) {
  return add_ack_cmd(app, ctx, false);
}
Action add_gate(CLI::App& app, Context& ctx) {
  return add_gate_cmd(app, ctx);
}

}  // namespace benchguard::cli
