#include "schedule/hooks.hpp"

#include <fmt/format.h>

namespace benchguard::schedule {

RunHooks::RunHooks(const Suite& suite, const std::vector<Step>& order, bool show_output)
    : suite_(suite), show_output_(show_output), states_(suite.benchmarks.size()) {
  for (std::size_t b = 0; b < suite.benchmarks.size(); ++b)
    states_[b].resize(suite.benchmarks[b].variants.size());
  for (const auto& step : order)
    for (const auto& slot : step.slots) ++state(slot.benchmark, slot.variant).remaining;
}

RunHooks::~RunHooks() {
  finish();
}

KeyValues RunHooks::env(const Slot& slot, bool instance) const {
  const auto& b = suite_.benchmarks[slot.benchmark];
  const auto& v = b.variants[slot.variant];
  KeyValues out = v.env;
  out.emplace_back("BENCHGUARD_BENCHMARK", b.name);
  out.emplace_back("BENCHGUARD_VARIANT", v.name);
  if (instance) out.emplace_back("BENCHGUARD_INSTANCE", std::to_string(slot.instance));
  return out;
}

std::string RunHooks::setup(const Slot& slot) {
  State& s = state(slot.benchmark, slot.variant);
  if (!s.stopped.empty() || s.set_up) return s.stopped;
  const auto& v = suite_.benchmarks[slot.benchmark].variants[slot.variant];
  s.set_up = true;
  if (v.hooks.setup.empty()) return "";
  const auto ran = measure::run_hook_or_fail(v.hooks.setup, v.cwd, env(slot, false), show_output_);
  if (!ran.ok()) {
    s.stopped = ran.failure("setup");
    // Nothing to clean up after a setup that did not complete, as hyperfine does.
    s.cleaned = true;
  }
  return s.stopped;
}

bool RunHooks::stopped(const Slot& slot) const {
  return !states_[slot.benchmark][slot.variant].stopped.empty();
}

std::optional<measure::HookResult> RunHooks::around(const Slot& slot, const std::string& script) {
  if (script.empty()) return std::nullopt;
  const auto& v = suite_.benchmarks[slot.benchmark].variants[slot.variant];
  return measure::run_hook_or_fail(script, v.cwd, env(slot, true), show_output_);
}

std::optional<measure::HookResult> RunHooks::prepare(const Slot& slot) {
  return around(slot, suite_.benchmarks[slot.benchmark].variants[slot.variant].hooks.prepare);
}

std::optional<measure::HookResult> RunHooks::conclude(const Slot& slot) {
  return around(slot, suite_.benchmarks[slot.benchmark].variants[slot.variant].hooks.conclude);
}

void RunHooks::done(const Slot& slot) {
  State& s = state(slot.benchmark, slot.variant);
  if (--s.remaining <= 0) cleanup(slot.benchmark, slot.variant);
}

void RunHooks::end_benchmark(int benchmark) {
  for (std::size_t v = 0; v < states_[benchmark].size(); ++v)
    cleanup(benchmark, static_cast<int>(v));
}

void RunHooks::finish() {
  for (std::size_t b = 0; b < states_.size(); ++b) end_benchmark(static_cast<int>(b));
}

void RunHooks::cleanup(int benchmark, int variant) {
  State& s = state(benchmark, variant);
  if (!s.set_up || s.cleaned) return;
  s.cleaned = true;
  const auto& b = suite_.benchmarks[benchmark];
  const auto& v = b.variants[variant];
  if (v.hooks.cleanup.empty()) return;
  const auto ran = measure::run_hook_or_fail(v.hooks.cleanup, v.cwd,
                                             env({benchmark, variant, 0}, false), show_output_);
  if (!ran.ok())
    warnings_.push_back(
        fmt::format("benchmark '{}', variant '{}': {}", b.name, v.name, ran.failure("cleanup")));
}

}  // namespace benchguard::schedule
