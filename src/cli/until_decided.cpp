#include "cli/until_decided.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cli/analysis_flags.hpp"
#include "cli/shared_flags.hpp"
#include "core/names.hpp"
#include "core/units.hpp"

namespace benchguard::cli {

// Deciding in rounds reads a t interval, which the median has not.
constexpr const char* kUntilDecidedNoMedian =
    "--statistic median has no t interval, which --until-decided needs: use robust, trimmed or "
    "mean";

void UntilDecidedFlags::add_to(CLI::App* c, bool verdict) {
  c->add_flag("--until-decided", on,
              "A/B in rounds, stopping each benchmark when slower, faster or equivalent is known "
              "(docs/sequential.md)");
  add_max_instances(c, max_instances);
  c->add_option("--max-time", max_time, "With --until-decided: the run's time budget, e.g. 10m");
  c->add_option("--round", round, "With --until-decided: instances a side between looks (1)")
      ->check(whole_number("--round", 1, kMaxInstances));
  if (!verdict) return;
  add_threshold(c, threshold);
  add_statistic(c, statistic);
}

Status UntilDecidedFlags::check_statistic() const {
  if (statistic == "median") return Error{kUntilDecidedNoMedian};
  return ok_status();
}

Result<sequential::Settings> UntilDecidedFlags::settings(const Suite& suite, double threshold,
                                                         stats::Statistic statistic) const {
  if (statistic == stats::Statistic::kMedian) return Error{kUntilDecidedNoMedian};
  double max_time_s = 0;
  if (!max_time.empty()) {
    BG_ASSIGN(max_time_s, parse_duration(max_time));
    if (!(max_time_s > 0)) return Error{"--max-time must be above 0, not '" + max_time + "'"};
  }
  auto s = sequential::settings_for(suite, max_instances, max_time_s, round);
  s.setup.verdict.threshold = threshold;
  s.setup.verdict.statistic = statistic;
  return s;
}

Result<sequential::Settings> UntilDecidedFlags::settings(const Suite& suite) const {
  BG_ASSIGN(const stats::Statistic st, statistic_from_flag(statistic));
  return settings(suite, threshold, st);
}

sequential::LookFn look_printer(Context& ctx) {
  if (!ctx.interactive()) return {};
  return [&ctx](const std::string& name, const stats::Look& l) {
    ctx.err << fmt::format(
        "\r\033[K{}: look {}, {} instances a side: B/A {:.4f} [{:.4f}, {:.4f}] at {:.4g}%: {}\n",
        escape_text(name), l.look, std::min(l.instances_a, l.instances_b), l.ratio, l.ci.lower,
        l.ci.upper, 100 * l.level,
        l.decision == stats::SequentialDecision::kContinue
            ? "go on (" + l.reason + ")"
            : std::string(stats::to_string(l.decision)));
  };
}

void print_sequential(Context& ctx, const sequential::SequentialRun& run) {
  if (run.family > 1)
    ctx.err << fmt::format(
        "benchguard: {} benchmarks, each decided at {:.4g}% confidence, so that a false slower, "
        "faster or equivalent in any of them stays within {:.4g}%\n",
        run.family, 100 * run.benchmark_confidence,
        100 * (1 - run.benchmark_confidence) * static_cast<double>(run.family));
  for (const auto& r : run.benchmarks) {
    const auto& o = r.outcome;
    const auto& l = o.look;
    std::string line = fmt::format("{}: {} after {} of at most {} instances a side",
                                   escape_text(o.benchmark), stats::to_string(l.decision),
                                   std::max(l.instances_a, l.instances_b), o.max_instances);
    if (l.look > 0 && std::isfinite(l.ratio) && std::isfinite(l.ci.lower))
      line +=
          fmt::format(" (B/A {:.4f} [{:.4f}, {:.4f}], look {}{})", l.ratio, l.ci.lower, l.ci.upper,
                      l.look, std::isfinite(l.p_value) ? fmt::format(", p {:.3g}", l.p_value) : "");
    if (o.out_of_time) line += "; the time budget ran out";
    if (r.measured > 0) {
      const double saved = r.saved_seconds();
      line += saved >= 0
                  ? fmt::format("; {:.1f} s saved against the fixed {} a side", saved, r.fixed)
                  : fmt::format("; {:.1f} s more than the fixed {} a side", -saved, r.fixed);
    }
    ctx.err << "benchguard: " << line << "\n";
    if (l.decision == stats::SequentialDecision::kInconclusive && !l.reason.empty())
      ctx.err << "benchguard:   " << escape_text(l.reason) << "\n";
  }
}

}  // namespace benchguard::cli
