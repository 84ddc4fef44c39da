// The flags several commands take, each declared here and only here: its name, its one help
// text (the meaning docs/cli-flags.md gives it; CliFlags tests check the table against every
// command's --help) and its check. A command's own default shows beside the name in --help.
// Counts and percentages are checked as they are read, in the words a person would use:
// "--instances must be at least 1, not 0"; "--threshold 5 would mean 500%; write 5%".
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace benchguard::cli {

// ---- Checks whose messages name the range as a person writes it (exit 2)

// A whole number from `min` to `max` (by default, the most an int holds): "--instances must be
// at least 1, not 0", "--port must be from 0 to 65535, not 70000", "--instances must be a whole
// number, not 'x'".
CLI::Validator whole_number(const std::string& flag, long long min,
                            long long max = std::numeric_limits<int>::max());
// A number of at least `min` (a fraction allowed): "--floor must be at least 0, not -1".
CLI::Validator number_at_least(const std::string& flag, double min);

// The values a percentage flag may take, as fractions: from `min` to `max`, each bound
// excluded when `*_open`.
struct PercentRange {
  double min = 0;
  double max = 10;
  bool min_open = false;
  bool max_open = true;
};
// A percentage flag: "5%" or "0.05" (parse_fraction: a bare 5 is refused, it would mean 500%),
// within `range`, handed to `set`; `shown` is its default as --help shows it ("5%").
CLI::Option* add_percentage(CLI::App* c, const std::string& name, std::function<void(double)> set,
                            const std::string& help, const PercentRange& range,
                            const std::string& shown);
// The same into `value`, whose value now is the default shown.
CLI::Option* add_percentage(CLI::App* c, const std::string& name, double& value,
                            const std::string& help, const PercentRange& range);

// `old_name`, the flag's former name in this command, kept only to say the new one: using it
// is exit 2 with "compare --seed is now --bootstrap-seed (WHY)". Hidden from --help.
void add_renamed(CLI::App* c, const std::string& old_name, const std::string& new_name,
                 const std::string& why);

// ---- What is measured, and how

// --instances, --iterations, --schedule, --plan (a plan file), --seed (a run's order; `set`
// when given), --label, --burn-in (a count here; analysing commands also take auto and
// configured), --max-instances, --null, --variant, --build, --repo.
CLI::Option* add_instances(CLI::App* c, int& instances);
CLI::Option* add_iterations(CLI::App* c, int& iterations);
CLI::Option* add_schedule(CLI::App* c, std::string& schedule);
CLI::Option* add_plan_file(CLI::App* c, std::string& plan);
CLI::Option* add_seed(CLI::App* c, uint64_t& seed, bool& set);
CLI::Option* add_labels(CLI::App* c, std::vector<std::string>& labels);
CLI::Option* add_burn_in(CLI::App* c, std::string& burn_in);
CLI::Option* add_max_instances(CLI::App* c, int& max_instances);
CLI::Option* add_null(CLI::App* c, bool& null);
CLI::Option* add_variant(CLI::App* c, std::string& variant);
CLI::Option* add_build(CLI::App* c, std::string& build);
CLI::Option* add_repo(CLI::App* c, std::string& repo);

// ---- What is analysed, and how

// --metric, --resamples, --confidence, --bootstrap-seed (the resampling's), --statistic (every
// statistic: a command that cannot use one refuses it when it runs), --interval, --threshold,
// --fail-on, --target, --input-format, --branch, --machine.
CLI::Option* add_metrics(CLI::App* c, std::vector<std::string>& metrics);
CLI::Option* add_resamples(CLI::App* c, int& resamples);
CLI::Option* add_confidence(CLI::App* c, double& confidence);
CLI::Option* add_bootstrap_seed(CLI::App* c, uint64_t& seed);
CLI::Option* add_statistic(CLI::App* c, std::string& statistic);
CLI::Option* add_interval(CLI::App* c, std::string& interval);
CLI::Option* add_threshold(CLI::App* c, double& threshold);
CLI::Option* add_fail_on(CLI::App* c, std::string& fail_on);
CLI::Option* add_target(CLI::App* c, double& target);
CLI::Option* add_input_format(CLI::App* c, std::string& format);
CLI::Option* add_branch(CLI::App* c, std::string& branch);
CLI::Option* add_machine(CLI::App* c, std::string& machine);

// A percentage as --help and messages write it: 0.05 -> "5%".
std::string percent_text(double fraction);

}  // namespace benchguard::cli
