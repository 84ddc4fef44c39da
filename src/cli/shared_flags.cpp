#include "cli/shared_flags.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "core/model.hpp"
#include "core/units.hpp"
#include "ingest/ingest.hpp"

namespace benchguard::cli {

namespace {

// "from 100 to 10000000", "at least 1", "above 0% and at most 100%".
std::string range_words(const std::string& min, bool min_open, const std::string& max,
                        bool max_open) {
  if (max.empty()) return (min_open ? "above " : "at least ") + min;
  if (!min_open && !max_open) return "from " + min + " to " + max;
  return (min_open ? "above " : "at least ") + min + " and " + (max_open ? "below " : "at most ") +
         max;
}

}  // namespace

std::string percent_text(double fraction) {
  return fmt::format("{:.10g}%", 100 * fraction);
}

CLI::Validator whole_number(const std::string& flag, long long min, long long max) {
  // The most an int holds is no range a person would name: above it, only what was too much.
  const bool bounded = max != std::numeric_limits<int>::max();
  const std::string words =
      range_words(std::to_string(min), false, bounded ? std::to_string(max) : "", false);
  return CLI::Validator(
      [flag, min, max, bounded, words](const std::string& text) -> std::string {
        long long v = 0;
        std::size_t used = 0;
        try {
          v = std::stoll(text, &used);
        } catch (const std::out_of_range&) {
          v = text.starts_with("-") ? std::numeric_limits<long long>::min()
                                    : std::numeric_limits<long long>::max();
          used = text.size();
        } catch (...) {
          used = 0;
        }
        if (used == 0 || used != text.size())
          return fmt::format("{} must be a whole number, not '{}'", flag, text);
        if (v < min) return fmt::format("{} must be {}, not {}", flag, words, text);
        if (v > max)
          return fmt::format("{} must be {}, not {}", flag,
                             bounded ? words : "at most " + std::to_string(max), text);
        return {};
      },
      words);
}

CLI::Validator number_at_least(const std::string& flag, double min) {
  const std::string words = fmt::format("at least {:g}", min);
  return CLI::Validator(
      [flag, min, words](const std::string& text) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(text, &used);
        } catch (...) {
          used = 0;
        }
        if (used == 0 || used != text.size() || std::isnan(v))
          return fmt::format("{} must be a number, not '{}'", flag, text);
        if (v < min) return fmt::format("{} must be {}, not {}", flag, words, text);
        return {};
      },
      words);
}

CLI::Option* add_percentage(CLI::App* c, const std::string& name, std::function<void(double)> set,
                            const std::string& help, const PercentRange& range,
                            const std::string& shown) {
  const std::string words =
      range_words(percent_text(range.min), range.min_open,
                  range.max >= kMaxFraction ? "" : percent_text(range.max), range.max_open);
  return c
      ->add_option_function<std::string>(
          name,
          [name, set = std::move(set), range, words](const std::string& text) {
            const auto v = parse_fraction(text, name);
            if (!v.ok()) throw CLI::ValidationError(v.error().message);
            const bool low = range.min_open ? !(*v > range.min) : !(*v >= range.min);
            const bool high = range.max_open ? !(*v < range.max) : !(*v <= range.max);
            if (low || high)
              throw CLI::ValidationError(fmt::format("{} must be {}, not {}", name, words, text));
            set(*v);
          },
          help)
      ->default_str(shown);
}

CLI::Option* add_percentage(CLI::App* c, const std::string& name, double& value,
                            const std::string& help, const PercentRange& range) {
  return add_percentage(
      c, name, [&value](double v) { value = v; }, help, range, percent_text(value));
}

void add_renamed(CLI::App* c, const std::string& old_name, const std::string& new_name,
                 const std::string& why) {
  const std::string message =
      fmt::format("{} {} is now {} ({})", c->get_name(), old_name, new_name, why);
  c->add_option_function<std::string>(
       old_name, [message](const std::string&) { throw CLI::ValidationError(message); }, "")
      ->group("");
}

// ---- What is measured, and how

CLI::Option* add_instances(CLI::App* c, int& instances) {
  return c->add_option("--instances", instances, "Process launches per benchmark variant")
      ->check(whole_number("--instances", 1));
}

CLI::Option* add_iterations(CLI::App* c, int& iterations) {
  return c->add_option("--iterations", iterations, "Measured iterations per instance")
      ->check(whole_number("--iterations", 1));
}

CLI::Option* add_schedule(CLI::App* c, std::string& schedule) {
  // The values alone: the shell completions offer them (packaging/parse-help.awk).
  return c->add_option("--schedule", schedule,
                       "interleaved | sequential | alternate | randomized | duet | sync-duet");
}

CLI::Option* add_plan_file(CLI::App* c, std::string& plan) {
  return c->add_option("--plan", plan, "Plan YAML (from `benchguard plan`) overriding counts");
}

CLI::Option* add_seed(CLI::App* c, uint64_t& seed, bool& set) {
  return c
      ->add_option("--seed", seed,
                   "Seed of the random order a run measures in: schedules, duet starts, layout "
                   "offsets, task assignment (default: from the clock)")
      ->each([&set](const std::string&) { set = true; });
}

CLI::Option* add_labels(CLI::App* c, std::vector<std::string>& labels) {
  return c->add_option("--label", labels, "KEY=VALUE recorded with each run stored (repeatable)");
}

CLI::Option* add_burn_in(CLI::App* c, std::string& burn_in) {
  return c
      ->add_option("--burn-in", burn_in,
                   "Burn-in, left out of the analysis: N iterations at the start of each "
                   "instance (measuring commands run N more first, flagged), auto (flagged + "
                   "detected) or configured (flagged only)")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            if (text == "auto" || text == "configured") return {};
            if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
              return {};
            return "--burn-in must be auto, configured or a count, not '" + text + "'";
          },
          ""));
}

CLI::Option* add_max_instances(CLI::App* c, int& max_instances) {
  return c
      ->add_option("--max-instances", max_instances,
                   "Most instances a side before a benchmark is left undecided (run, ab: with "
                   "--until-decided, default twice --instances; bisect: per commit, default 4x)")
      ->check(whole_number("--max-instances", 2, kMaxInstances));
}

CLI::Option* add_null(CLI::App* c, bool& null) {
  return c->add_flag("--null", null,
                     "A/A: measure A against itself (run: each benchmark's variant; ab: beside "
                     "A/B; pytest: the one interpreter)");
}

CLI::Option* add_variant(CLI::App* c, std::string& variant) {
  return c->add_option("--variant", variant,
                       "The variant of each benchmark to use (default: ab, bisect, calibrate: "
                       "its first; plan: all, pooled)");
}

CLI::Option* add_build(CLI::App* c, std::string& build) {
  return c->add_option(
      "--build", build,
      "Shell command that builds a checked-out commit (run in its worktree; cached per commit)");
}

CLI::Option* add_repo(CLI::App* c, std::string& repo) {
  return c->add_option("--repo", repo,
                       "A directory of the git repository: where commits are built (default: the "
                       "suite file's), whose first-parent history orders series (default: by "
                       "commit time)");
}

// ---- What is analysed, and how

CLI::Option* add_metrics(CLI::App* c, std::vector<std::string>& metrics) {
  return c->add_option("--metric", metrics,
                       "Metric(s) to analyse, or all (default: wall time, peak memory and the "
                       "benchmarks' own metrics; summary, plan, bisect, report, serve: wall_time)");
}

CLI::Option* add_resamples(CLI::App* c, int& resamples) {
  return c->add_option("--resamples", resamples, "Bootstrap resamples")
      ->check(whole_number("--resamples", 100, 10000000));
}

CLI::Option* add_confidence(CLI::App* c, double& confidence) {
  return add_percentage(c, "--confidence", confidence,
                        "Confidence level of intervals, e.g. 95% or 0.95",
                        {.min = 0.5, .max = 0.9999, .max_open = false});
}

CLI::Option* add_bootstrap_seed(CLI::App* c, uint64_t& seed) {
  return c->add_option(
      "--bootstrap-seed", seed,
      "Seed of the resampling: bootstrap, permutations, simulated experiments (same "
      "seed, same answer)");
}

CLI::Option* add_statistic(CLI::App* c, std::string& statistic) {
  return c
      ->add_option("--statistic", statistic,
                   "What B/A compares: robust (the mean without spike iterations), trimmed (the "
                   "mean of the middle 80%), median, or mean")
      ->check(CLI::IsMember({"robust", "trimmed", "median", "mean"}));
}

CLI::Option* add_interval(CLI::App* c, std::string& interval) {
  return c
      ->add_option("--interval", interval,
                   "t (a t interval from each side's variance, Welch's degrees of freedom) or "
                   "bootstrap (expanded percentile of the hierarchical bootstrap)")
      ->check(CLI::IsMember({"t", "bootstrap"}));
}

CLI::Option* add_threshold(CLI::App* c, double& threshold) {
  return add_percentage(c, "--threshold", threshold, "Smallest change that counts, e.g. 5% or 0.05",
                        {});
}

CLI::Option* add_fail_on(CLI::App* c, std::string& fail_on) {
  return c->add_option("--fail-on", fail_on, "Exit 1 when a benchmark is slower, faster, or either")
      ->check(CLI::IsMember({"slower", "faster", "change"}));
}

CLI::Option* add_target(CLI::App* c, double& target) {
  return add_percentage(c, "--target", target, "The slowdown a plan is to detect, e.g. 5%",
                        {.min = 0, .min_open = true});
}

CLI::Option* add_input_format(CLI::App* c, std::string& format) {
  std::vector<std::string> formats{"auto"};
  for (const auto& name : ingest::format_names()) formats.push_back(name);
  return c
      ->add_option("--input-format", format,
                   "Format of the result files read (auto: recognised from each one's content)")
      ->check(CLI::IsMember(formats));
}

CLI::Option* add_branch(CLI::App* c, std::string& branch) {
  return c->add_option("--branch", branch,
                       "Only this branch: with --repo its first-parent history, else the runs "
                       "recorded on it");
}

CLI::Option* add_machine(CLI::App* c, std::string& machine) {
  return c->add_option("--machine", machine, "Only this machine class (see `history`)");
}

}  // namespace benchguard::cli
