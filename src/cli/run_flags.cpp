#include "cli/run_flags.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>

#include "cli/shared_flags.hpp"
#include "core/names.hpp"
#include "core/suite.hpp"
#include "core/suite_raw.hpp"
#include "core/units.hpp"
#include "measure/affinity.hpp"
#include "measure/capture.hpp"
#include "measure/exec_resolve.hpp"
#include "measure/process.hpp"

namespace benchguard::cli {

namespace {

// A Google Benchmark binary names libbenchmark's flags (linked in) or its shared library.
bool is_google_benchmark(const std::string& program) {
  auto exe = measure::resolve_executable(program);
  if (!exe.ok()) return false;
  std::ifstream in(*exe, std::ios::binary);
  static constexpr std::string_view kMarks[] = {"benchmark_list_tests", "libbenchmark.so"};
  std::string window;
  // Read in 64 KiB steps into storage nobody clears: a zeroed 1 MiB buffer cost `run -- CMD`
  // a millisecond of page faults before it began.
  constexpr std::size_t kChunk = std::size_t{64} << 10;
  const auto chunk = std::make_unique_for_overwrite<char[]>(kChunk);
  // Up to 256 MiB, keeping the last bytes of each chunk so a mark across two is seen.
  for (std::size_t read = 0; read < (std::size_t{256} << 20) && in; read += kChunk) {
    in.read(chunk.get(), static_cast<std::streamsize>(kChunk));
    window.append(chunk.get(), static_cast<std::size_t>(in.gcount()));
    for (const auto mark : kMarks)
      if (window.find(mark) != std::string::npos) return true;
    window.erase(0, window.size() > 32 ? window.size() - 32 : 0);
  }
  return false;
}

// An extended regular expression that matches `name` alone.
std::string exact_filter(const std::string& name) {
  std::string out = "^";
  for (const char c : name) {
    if (std::string_view("\\.[]()*+?{}|^$").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out + "$";
}

// `run -- ./bench` of a Google Benchmark binary: one benchmark per benchmark it lists, each
// run alone (--benchmark_filter), each repetition an iteration.
Result<Suite> google_benchmark_suite(const RunFlags& f, const std::vector<std::string>& cmd) {
  std::vector<std::string> list = cmd;
  list.emplace_back("--benchmark_list_tests=true");
  auto listed = measure::capture_output(list, std::filesystem::current_path().string());
  if (!listed.ok() || listed->exit_code != 0)
    return Error{cmd[0] + " looks like a Google Benchmark binary but --benchmark_list_tests " +
                 "failed; run it through a suite without format: google-benchmark"};
  Suite s;
  s.name = "command";
  std::istringstream lines(listed->out);
  for (std::string name; std::getline(lines, name);) {
    if (name.empty()) continue;
    BenchmarkSpec b;
    b.name = f.name.empty() ? name : f.name + "/" + name;
    BG_TRY(check_name("benchmark name", b.name));
    b.base_name = b.name;
    b.instances = 10;
    b.format = "google-benchmark";
    VariantSpec v;
    v.command = cmd;
    v.command.push_back("--benchmark_filter=" + exact_filter(name));
    v.cwd = std::filesystem::current_path().string();
    b.variants.push_back(v);
    s.benchmarks.push_back(b);
  }
  if (s.benchmarks.empty())
    return Error{cmd[0] + ": the Google Benchmark binary lists no benchmark"};
  return s;
}

// The program a shell script starts with: its first word that is not a `NAME=value` assignment,
// without quotes and without its folders (`FOO=1 ./bin/app --n 3 2>/dev/null` is `app`).
std::string shell_program(const std::vector<std::string>& cmd) {
  const std::string script = fmt::format("{}", fmt::join(cmd, " "));
  std::istringstream words(script);
  std::string word;
  while (words >> word) {
    std::erase_if(word, [](char c) { return c == '\'' || c == '"'; });
    const auto eq = word.find('=');
    const bool assignment =
        eq != std::string::npos && eq > 0 &&
        std::all_of(word.begin(), word.begin() + static_cast<long>(eq), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
        });
    if (!assignment && !word.empty()) return std::filesystem::path(word).filename().string();
  }
  return "command";
}

Result<Suite> suite_from_command(const RunFlags& f, const std::vector<std::string>& cmd) {
  if (cmd.empty()) return Error{"nothing to run: give a suite file or `-- COMMAND ARGS...`"};
  if (!f.shell && !f.params.any() && is_google_benchmark(cmd[0]))
    return google_benchmark_suite(f, cmd);
  Suite s;
  s.name = "command";
  BenchmarkSpec b;
  b.name = !f.name.empty() ? f.name
           : f.shell       ? shell_program(cmd)
                           : std::filesystem::path(cmd[0]).filename().string();
  if (auto st = check_name("benchmark name", b.name); !st.ok())
    return Error{st.error().message + (f.name.empty() ? "; name it with --name" : "")};
  if (f.params.any()) {
    // Read as the suite file it stands for, so that each value is a parameter as a suite's is.
    BG_ASSIGN(const ParamValues params, parameter_values(f.params));
    for (const auto& [name, values] : params) {
      const std::string mark = "{" + name + "}";
      if (std::none_of(cmd.begin(), cmd.end(),
                       [&](const std::string& a) { return a.find(mark) != std::string::npos; }))
        return Error{
            fmt::format("parameter '{}' is not used: write {} in the command", name, mark)};
    }
    return parse_suite(parameter_suite_yaml(b.name, cmd, f.shell,
                                            std::filesystem::current_path().string(), params),
                       "");
  }
  b.base_name = b.name;
  b.instances = 10;
  VariantSpec v;
  if (f.shell) {
    const std::string script = fmt::format("{}", fmt::join(cmd, " "));
    v.command = {"/bin/sh", "-c", script};
  } else {
    v.command = cmd;
  }
  v.cwd = std::filesystem::current_path().string();
  b.variants.push_back(v);
  s.benchmarks.push_back(b);
  return s;
}

// A run's --burn-in: the iterations each instance runs first and flags (-1: the suite's).
Result<long long> run_burn_in(const std::string& text) {
  if (text.empty()) return -1;
  if (text == "auto" || text == "configured")
    return Error{"--burn-in " + text +
                 " chooses among the iterations of stored runs (summary, compare, history): a run "
                 "takes a count of iterations to run first and flag"};
  try {
    return std::stoll(text);
  } catch (...) {
    return Error{"--burn-in must be a count of iterations, not '" + text + "'"};
  }
}

Status apply_flags(const RunFlags& f, Suite& s) {
  double timeout = -1;
  if (!f.timeout.empty()) {
    BG_ASSIGN(timeout, parse_duration(f.timeout));
  }
  BG_ASSIGN(const long long burn_in, run_burn_in(f.burn_in));
  if (burn_in > kMaxIterations)
    return Error{fmt::format("--burn-in {} is above the limit of {}", burn_in, kMaxIterations)};
  for (auto& b : s.benchmarks) {
    if (f.instances > 0) b.instances = f.instances;
    if (f.iterations > 0) b.iterations = f.iterations;
    if (burn_in >= 0) b.burn_in = static_cast<int>(burn_in);
    if (f.warmup >= 0) b.warmup = f.warmup;
    if (f.max_failures > 0) b.max_failures = f.max_failures;
    if (timeout >= 0) b.timeout_s = timeout;
    for (const auto& m : f.measure)
      if (std::find(b.measure.begin(), b.measure.end(), m) == b.measure.end())
        b.measure.push_back(m);
    if (!f.layout.empty()) b.layout = f.layout == "native" ? "" : f.layout;
    for (auto& v : b.variants) {
      // A hook flag replaces the suite's hook of that name, {param} substituted as there.
      const auto set = [&](const std::string& flag, std::string& hook) {
        if (!flag.empty()) hook = suite_detail::substitute(flag, b.params, /*shell_words=*/true);
      };
      set(f.hooks.setup, v.hooks.setup);
      set(f.hooks.prepare, v.hooks.prepare);
      set(f.hooks.conclude, v.hooks.conclude);
      set(f.hooks.cleanup, v.hooks.cleanup);
    }
  }
  if (!f.schedule.empty()) s.schedule = f.schedule;
  return ok_status();
}

}  // namespace

Status apply_run_flags(const RunFlags& f, Suite& s) {
  return apply_flags(f, s);
}

void add_run_flags(CLI::App* c, RunFlags& f) {
  add_plan_file(c, f.plan);
  add_schedule(c, f.schedule);
  add_instances(c, f.instances);
  add_iterations(c, f.iterations);
  add_burn_in(c, f.burn_in);
  c->add_option("--warmup", f.warmup, "Instances run first and not stored")
      ->check(whole_number("--warmup", 0));
  c->add_option("--timeout", f.timeout, "Time limit of each instance, e.g. 30s, 500ms, 2m");
  c->add_option("--max-failures", f.max_failures,
                "Consecutive failed instances before a benchmark is abandoned")
      ->check(whole_number("--max-failures", 1));
  c->add_option("--cpus", f.cpus, "Pin benchmarks to these CPUs, e.g. 1 or 0,2-3");
  add_labels(c, f.labels);
  add_seed(c, f.seed, f.seed_set);
  c->add_option("--measure", f.measure,
                "Extra channels for every benchmark: instructions (each instance under "
                "Valgrind's callgrind: an exact count of executed instructions, per iteration for "
                "programs using the C++ client); caches (the same with its cache simulation: "
                "l1_misses, ll_misses, estimated_cycles)")
      ->check(CLI::IsMember({"instructions", "caches"}));
  auto* layout = c->add_option("--layout", f.layout,
                               "Memory layout of every instance: native (as the kernel gives "
                               "it), randomized (a random stack and heap offset per instance) "
                               "or fixed (address randomization off)")
                     ->check(CLI::IsMember({"native", "randomized", "fixed"}));
  c->add_flag_callback(
       "--randomize-layout", [&f] { f.layout = "randomized"; }, "Same as --layout randomized")
      ->excludes(layout);
  c->add_option("--setup", f.hooks.setup,
                "Shell command run once before the first instance of each benchmark variant, "
                "not measured; if it fails, that variant is not run");
  c->add_option("--prepare", f.hooks.prepare,
                "Shell command run before each instance, not measured; if it fails, the "
                "instance fails");
  c->add_option("--conclude", f.hooks.conclude,
                "Shell command run after each instance, not measured; if it fails, the "
                "instance fails");
  c->add_option("--cleanup", f.hooks.cleanup,
                "Shell command run once after the last instance of each benchmark variant, not "
                "measured");
  c->add_flag("--no-counters", f.no_counters, "Do not read hardware counters");
  c->add_flag("--show-output", f.show_output, "Let benchmarks write to the terminal");
}

Result<Suite> prepare_suite(Context& ctx, const RunFlags& f) {
  Suite suite;
  if (!f.suite.empty()) {
    if (!ctx.trailing.empty()) return Error{"give either a suite file or `-- COMMAND`, not both"};
    if (f.params.any())
      return Error{
          "--parameter-scan and --parameter-list are for `run -- COMMAND`; a suite file "
          "declares its params"};
    BG_ASSIGN(suite, load_suite(f.suite));
  } else {
    BG_ASSIGN(suite, suite_from_command(f, ctx.trailing));
  }
  if (!f.plan.empty()) {
    BG_ASSIGN(const Plan plan, load_plan(f.plan));
    for (const auto& name : unmatched_plan_entries(plan, suite))
      ctx.err << fmt::format("benchguard: warning: {}: plan entry '{}' matches no benchmark\n",
                             f.plan, name);
    apply_plan(plan, suite);
  }
  BG_TRY(apply_flags(f, suite));
  if (f.null) {
    BG_ASSIGN(suite, null_suite(suite, f.null_variant));
  }
  return suite;
}

Result<schedule::RunOptions> run_options(const Context& ctx, const RunFlags& f,
                                         const Suite& suite) {
  schedule::RunOptions opts;
  opts.schedule = suite.schedule;
  opts.seed = f.seed;
  if (!f.seed_set) opts.seed = static_cast<uint64_t>(measure::realtime_ns());
  if (!f.cpus.empty()) {
    BG_ASSIGN(opts.cpus, measure::parse_cpu_list(f.cpus));
  }
  opts.counters = !f.no_counters;
  opts.show_output = f.show_output;
  BG_ASSIGN(opts.labels, parse_labels(f.labels));
  opts.command_line = "benchguard " + ctx.command_line;
  return opts;
}

}  // namespace benchguard::cli
