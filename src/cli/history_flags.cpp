#include "cli/history_flags.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "cli/analysis_flags.hpp"
#include "cli/shared_flags.hpp"
#include "core/units.hpp"
#include "vcs/git.hpp"
#include "vcs/log.hpp"

namespace benchguard::cli {

Result<store::ChangeRecord> find_change(const std::string& where, store::Store& store,
                                        const std::string& id) {
  BG_ASSIGN(const auto changes, store.load_changes());
  std::vector<const store::ChangeRecord*> matches;
  for (const auto& c : changes) {
    if (c.id == id) return c;
    if (c.id.starts_with(id)) matches.push_back(&c);
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.size() > 1)
    return Error{
        fmt::format("change id '{}' is ambiguous in {}: {} and {} more start with it; give "
                    "more of the id",
                    id, where, matches.front()->id, matches.size() - 1)};
  return Error{fmt::format(
      "no change point '{}' in {} (ids are listed by `benchguard detect --all` and by `gate`)", id,
      where)};
}

int64_t now_ns() {
  // The reproducible-builds convention: a fixed "now" for output that must not change from
  // one run to the next (the golden outputs of tests/golden).
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch != nullptr && *epoch != '\0') {
    char* end = nullptr;
    const long long seconds = std::strtoll(epoch, &end, 10);
    if (end != epoch && *end == '\0' && seconds >= 0) return seconds * 1'000'000'000LL;
  }
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void SelectFlags::add_to(CLI::App* c, bool with_window) {
  c->add_option("benchmarks", benchmarks, "Benchmarks (exact names; default: all)");
  add_metrics(c, metrics);
  add_branch(c, branch);
  add_repo(c, repo);
  add_machine(c, machine);
  if (with_window) {
    c->add_option("--since", since, "Only points at or after this date (YYYY-MM-DD[THH:MM:SS])");
    c->add_option("--last", last, "Only the newest N points of each series")
        ->check(whole_number("--last", 0));
  }
  add_burn_in(c, burn_in);
}

Result<analysis::HistoryOptions> SelectFlags::options() const {
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
    if (vcs::is_shallow(repo))
      return Error{fmt::format(
          "{} is a shallow clone: its history is cut short, so the series would be too; fetch "
          "every commit (git fetch --unshallow; in GitHub Actions, actions/checkout with "
          "fetch-depth: 0)",
          repo)};
    BG_ASSIGN(auto commits, vcs::first_parent_history(repo, branch));
    for (auto& c : commits) o.commits.push_back(std::move(c.hash));
  } else {
    o.branch = branch;
  }
  return o;
}

void DetectFlags::add_to(CLI::App* c) {
  c->add_option("--method", method,
                "e-divisive (t-test, as Apache Otava), permutation (E-divisive with a "
                "permutation test, as MongoDB) or threshold (mean of the 10 before + "
                "max(3 sigma, --floor), confirmed by 3 points)")
      ->check(CLI::IsMember({"e-divisive", "permutation", "threshold"}));
  add_percentage(
      c, "--p", [this](double v) { p = v; },
      "Largest p-value of a change point, e.g. 0.1% or 0.001 (default 0.001; permutation: 0.05)",
      {.min = 0, .max = 0.5, .min_open = true, .max_open = false}, "");
  c->add_option("--window", window, "E-divisive window, in points")
      ->check(whole_number("--window", 6, 100000));
  add_percentage(c, "--min-magnitude", min_magnitude,
                 "Drop changes smaller than this relative size, e.g. 2% or 0.02", {});
  c->add_option("--floor", floor, "Threshold rule: absolute floor, in the metric's unit")
      ->check(number_at_least("--floor", 0));
  c->add_option("--permutations", permutations, "Permutation test: permutations")
      ->check(whole_number("--permutations", 19, 100000));
  add_bootstrap_seed(c, seed);
  add_renamed(c, "--seed", "--bootstrap-seed",
              "the seed of the permutations and the confirming bootstrap; --seed is the order a "
              "run measures in");
  c->add_flag("--full", full, "Re-examine every series from its start");
}

analysis::DetectOptions DetectFlags::options() const {
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

}  // namespace benchguard::cli
