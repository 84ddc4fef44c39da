// The rules that turn what the detector finds into what the gate acts on
// (src/analysis/detection.hpp, docs/history.md), through detect_history as `detect` and `gate`
// run it:
//  1. confirmation by the history alone: how many change points are confirmed per 1,000
//     commits in series with no change at all, when commits differ by more than the instances
//     of one commit do; and how many real 3% and 5% steps are found and confirmed;
//  2. the "undone" rule of a regression confirmed by measuring it again: replayed over the 29
//     commits after a lasting step (how often the gate passes, how often it counts undone),
//     and after a real revert (how often it counts undone within 1, 2 and 3 commits).
// Usage: detection_rules_bench [aa_series power_series replay_series]
//                              (default 6000 2000 2000)
// Every series comes from a fixed seed. Each point is a commit: its level is 1 + d, d normal
// with the given relative sd (the commit-to-commit drift: a build's layout, the machine's
// state that day), and 3 instances of one value each, normal with 1% relative sd about it.
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "analysis/detection.hpp"
#include "stats/rng.hpp"

namespace {

using benchguard::analysis::Detection;
using benchguard::analysis::DetectOptions;
using benchguard::analysis::History;
using benchguard::analysis::HistoryPoint;
using benchguard::analysis::HistorySeries;
using benchguard::analysis::TextPool;
using benchguard::stats::derive_seed;
using benchguard::stats::Rng;

const auto texts = std::make_shared<TextPool>();

std::string commit_name(std::size_t k) {
  return "c" + std::to_string(k);
}

// One commit: its level `level` moved by the commit's drift, then 3 instances about that.
HistoryPoint point(Rng& rng, std::size_t commit, double level, double drift) {
  HistoryPoint p;
  p.commit = texts->keep(commit_name(commit));
  p.time = static_cast<int64_t>(commit);
  p.runs = {static_cast<int64_t>(commit)};
  p.run_uuids = {p.commit};
  const double at = level * (1 + drift * rng.normal());
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    const double v = at * (1 + 0.01 * rng.normal());
    p.data.add_instance(std::span<const double>(&v, 1));
    sum += v;
  }
  p.centre = sum / 3;
  return p;
}

HistorySeries series_of(std::size_t index) {
  HistorySeries hs;
  hs.benchmark = "bench" + std::to_string(index);
  hs.machine = "m";
  hs.texts = texts;
  hs.metric = {"wall_time", "s", benchguard::Direction::kLowerIsBetter};
  return hs;
}

// The exact (Garwood) 95% interval of a Poisson count.
std::pair<double, double> poisson_interval(std::size_t k) {
  using boost::math::chi_squared;
  using boost::math::quantile;
  const double lo = k == 0 ? 0.0 : quantile(chi_squared(2.0 * static_cast<double>(k)), 0.025) / 2;
  const double hi = quantile(chi_squared(2.0 * static_cast<double>(k) + 2), 0.975) / 2;
  return {lo, hi};
}

// The Wilson 95% interval of a proportion k / n.
std::pair<double, double> wilson(std::size_t k, std::size_t n) {
  const double z = 1.959964, nn = static_cast<double>(n), p = static_cast<double>(k) / nn;
  const double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void share(const char* what, std::size_t k, std::size_t n) {
  const auto [lo, hi] = wilson(k, n);
  std::printf("  %-58s %5zu of %5zu  %6.2f%% [%.2f%%, %.2f%%]\n", what, k, n,
              100.0 * static_cast<double>(k) / static_cast<double>(n), 100 * lo, 100 * hi);
}

// 1a. Series of 1,000 commits with no change: change points found, and confirmed by the history.
void false_confirmations(std::size_t series, double drift) {
  constexpr std::size_t points = 1000, batch = 500;
  std::size_t found = 0, confirmed = 0;
  for (std::size_t first = 0; first < series; first += batch) {
    History h;
    for (std::size_t s = first; s < std::min(series, first + batch); ++s) {
      HistorySeries hs = series_of(s);
      Rng rng(derive_seed(11, static_cast<uint64_t>(drift * 1e4)), s);
      for (std::size_t k = 0; k < points; ++k) hs.points.push_back(point(rng, k, 1.0, drift));
      h.series.push_back(std::move(hs));
    }
    const Detection d = benchguard::analysis::detect_history(h, DetectOptions{}, {}, {}, 1);
    for (const auto& c : d.changes) {
      if (c.method == "head") continue;  // the newest commit's check: not the detector's
      ++found;
      confirmed += c.status == "confirmed" ? 1 : 0;
    }
  }
  const double thousands = static_cast<double>(series) * points / 1000.0;
  const auto [flo, fhi] = poisson_interval(found);
  const auto [clo, chi] = poisson_interval(confirmed);
  std::printf(
      "  drift %.1f%%: %zu series x %zu commits: change points %zu (%.4f [%.4f, %.4f] per 1,000 "
      "commits), confirmed %zu (%.4f [%.4f, %.4f] per 1,000 commits)\n",
      100 * drift, series, points, found, static_cast<double>(found) / thousands, flo / thousands,
      fhi / thousands, confirmed, static_cast<double>(confirmed) / thousands, clo / thousands,
      chi / thousands);
}

// 1b. Series of 200 commits with a step at a seeded commit in [50, 150): found within 2 commits
// (a change point of the step's direction), and confirmed.
void power(std::size_t series, double step, double drift) {
  constexpr std::size_t points = 200;
  History h;
  std::vector<std::size_t> at(series);
  for (std::size_t s = 0; s < series; ++s) {
    HistorySeries hs = series_of(s);
    Rng rng(derive_seed(13, static_cast<uint64_t>(step * 1e4 + drift * 1e8)), s);
    at[s] = 50 + rng.below(100);
    for (std::size_t k = 0; k < points; ++k)
      hs.points.push_back(point(rng, k, k >= at[s] ? 1 + step : 1.0, drift));
    h.series.push_back(std::move(hs));
  }
  const Detection d = benchguard::analysis::detect_history(h, DetectOptions{}, {}, {}, 1);
  std::vector<int> state(series, 0);  // 0 missed, 1 found, 2 found and confirmed
  for (const auto& c : d.changes) {
    if (c.method == "head" || c.kind != "regression") continue;
    const std::size_t s = std::strtoul(c.benchmark.c_str() + 5, nullptr, 10);
    if (std::llabs(c.index - static_cast<int64_t>(at[s])) > 2) continue;
    state[s] = std::max(state[s], c.status == "confirmed" ? 2 : 1);
  }
  const std::size_t found = std::count_if(state.begin(), state.end(), [](int x) { return x > 0; });
  const std::size_t confirmed = std::count(state.begin(), state.end(), 2);
  char what[128];
  std::snprintf(what, sizeof what, "%.0f%% step, drift %.1f%%: found within 2 commits", 100 * step,
                100 * drift);
  share(what, found, series);
  std::snprintf(what, sizeof what, "%.0f%% step, drift %.1f%%: found and confirmed", 100 * step,
                100 * drift);
  share(what, confirmed, series);
}

// What the gate does with one series at its newest point: does it fail on anything? As
// gate.cpp decides it for --against history without --confirm: the newest confirmed change
// (the change at the head left out) fails
// when it is a confirmed regression, unless it is the kept change and the newest commits
// undid it; a regression suspected at the head fails when its p is below 1%.
struct GateView {
  bool fails = false;
  bool undone = false;    // the kept change counts undone (the note "undone, not failing")
  bool by_newer = false;  // because a newer improvement follows it, not by the newest commits
};
GateView gate_view(const Detection& d, const std::string& head_commit, const std::string& kept) {
  GateView g;
  const benchguard::store::ChangeRecord* last = nullptr;
  for (const auto& c : d.changes) {
    if (c.method == "head" && c.first_bad == head_commit) continue;
    if (c.status != "confirmed") continue;
    if (last == nullptr || c.index > last->index) last = &c;
  }
  if (last != nullptr && last->kind == "regression" && last->status == "confirmed") {
    if (last->id == kept && d.heads[0].kept_id == kept && d.heads[0].undoes_kept())
      g.undone = true;
    else
      g.fails = true;
  }
  // The kept change left behind by a newer change (an improvement found after it): undone too.
  if (last != nullptr && last->id != kept && last->kind == "improvement")
    g.undone = g.by_newer = true;
  const auto& hc = d.heads[0].check;
  if (hc.examined && hc.suspected && d.heads[0].regression && hc.p_value < 0.01) g.fails = true;
  return g;
}

// 2. A 3% step at commit 30, found at the head and confirmed by measuring it again (the stored
// record says so), after 30 flat commits; then either it lasts for the 29 commits after it, or
// it is reverted at commit 35 (5 commits after the step). The series replayed commit by
// commit, as the gate would see it after each.
void undone(std::size_t series, double step, double drift) {
  constexpr std::size_t step_at = 30, last = 59, revert_at = 35;
  std::size_t lasting_pass = 0, lasting_undone = 0, commits = 0;
  std::size_t lasting_by_newer = 0;
  std::size_t series_ever_undone = 0, series_ever_pass = 0;
  std::size_t revert_within[4] = {0, 0, 0, 0};  // undone by revert_at + k - 1 (k commits)
  for (int revert = 0; revert < 2; ++revert)
    for (std::size_t s = 0; s < series; ++s) {
      HistorySeries hs = series_of(s);
      Rng rng(derive_seed(17, static_cast<uint64_t>(revert)), s);
      for (std::size_t k = 0; k <= last; ++k) {
        const bool stepped = k >= step_at && (revert == 0 || k < revert_at);
        hs.points.push_back(point(rng, k, stepped ? 1 + step : 1.0, drift));
      }
      benchguard::store::ChangeRecord kept;
      kept.series_key = hs.key();
      kept.id = benchguard::analysis::change_id(kept.series_key, commit_name(step_at));
      kept.benchmark = hs.benchmark;
      kept.metric = hs.metric.name;
      kept.machine = hs.machine;
      kept.method = "head";
      kept.last_good = commit_name(step_at - 1);
      kept.first_bad = commit_name(step_at);
      kept.index = static_cast<int64_t>(step_at);
      kept.kind = "regression";
      kept.status = "confirmed";
      kept.change = step;
      const std::vector<benchguard::store::ChangeRecord> stored = {kept};
      bool ever_undone = false, ever_pass = false;
      std::size_t first = 0;  // reverted commits when it first counted undone (0: never)
      for (std::size_t h = step_at + 1; h <= last; ++h) {
        if (revert == 1 && h >= revert_at + 3) break;
        History view;
        HistorySeries part = hs;
        part.points.resize(h + 1);
        view.series.push_back(std::move(part));
        const Detection d =
            benchguard::analysis::detect_history(view, DetectOptions{}, {}, stored, 1);
        const GateView g = gate_view(d, commit_name(h), kept.id);
        if (revert == 0) {
          ++commits;
          lasting_pass += g.fails ? 0 : 1;
          lasting_undone += g.undone ? 1 : 0;
          lasting_by_newer += g.by_newer ? 1 : 0;
          ever_undone = ever_undone || g.undone;
          ever_pass = ever_pass || !g.fails;
        } else if (h >= revert_at && g.undone && first == 0) {
          first = h - revert_at + 1;
        }
      }
      if (first > 0)
        for (std::size_t k = first; k <= 3; ++k) ++revert_within[k];
      series_ever_undone += ever_undone ? 1 : 0;
      series_ever_pass += ever_pass ? 1 : 0;
    }
  std::printf(
      "  a lasting %.0f%% step, drift %.1f%%, found at the head and confirmed by measuring "
      "again; the %zu commits after it:\n",
      100 * step, 100 * drift, last - step_at);
  share("commits where the gate passes", lasting_pass, commits);
  share("commits where the change counts undone", lasting_undone, commits);
  share("  of which: a newer change point (an improvement) follows it", lasting_by_newer, commits);
  share("series where it counts undone at some commit (a flip)", series_ever_undone, series);
  share("series where the gate passes at some commit", series_ever_pass, series);
  std::printf(
      "  the same step reverted %zu commits after it (the step's commits measured as slow):\n",
      revert_at - step_at);
  share("counts undone at the first reverted commit", revert_within[1], series);
  share("counts undone within 2 reverted commits", revert_within[2], series);
  share("counts undone within 3 reverted commits", revert_within[3], series);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t aa = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 6000;
  const std::size_t pw = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2000;
  const std::size_t replay = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 2000;
  std::printf(
      "confirmation by the history, no change (3 instances a commit, 1%% noise within a "
      "commit; detect's defaults; docs/history.md said: 0.001 confirmed per 1,000-commit "
      "series):\n");
  for (const double drift : {0.0, 0.015, 0.03}) false_confirmations(aa, drift);
  std::printf("power: %zu series of 200 commits, a step at a seeded commit in [50, 150):\n", pw);
  for (const double step : {0.03, 0.05})
    for (const double drift : {0.0, 0.015}) power(pw, step, drift);
  std::printf("undone: %zu series per case, 30 flat commits, a 3%% step at the 31st:\n", replay);
  undone(replay, 0.03, 0.01);
  return 0;
}
