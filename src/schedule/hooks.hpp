// The hooks of a run's variants (VariantSpec::hooks) in their places: setup before the first
// instance of a variant and cleanup after its last (or when its benchmark stops early, or the
// run does), prepare and conclude around each instance. None of them is measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"
#include "measure/hook.hpp"
#include "schedule/order.hpp"

namespace benchguard::schedule {

class RunHooks {
 public:
  // `order` is the run's (after any shard selection): a variant's last slot in it is where its
  // cleanup runs.
  RunHooks(const Suite& suite, const std::vector<Step>& order, bool show_output);
  RunHooks(const RunHooks&) = delete;
  RunHooks& operator=(const RunHooks&) = delete;
  // Runs the cleanup of every variant whose setup ran, as finish() does.
  ~RunHooks();

  // Before an instance of the slot's variant: its setup, the first time. "" when it ran (or
  // there is none), else the failure ("setup exited 2: no server"): the variant is stopped
  // and none of its instances runs. Stopped variants answer with their failure again.
  std::string setup(const Slot& slot);
  bool stopped(const Slot& slot) const;

  // Runs the instance's prepare or conclude hook; nullopt when it has none.
  std::optional<measure::HookResult> prepare(const Slot& slot);
  std::optional<measure::HookResult> conclude(const Slot& slot);

  // The slot's instance is over: after the variant's last one its cleanup runs.
  void done(const Slot& slot);
  // The benchmark will run no more instances (abandoned, decided): its variants' cleanups.
  void end_benchmark(int benchmark);
  // Every cleanup still due (the run ends, is interrupted or fails).
  void finish();

  // Cleanups that failed, one line each: notes of the run.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct State {
    int remaining = 0;  // slots of the variant in the order not yet done
    bool set_up = false;
    bool cleaned = false;
    std::string stopped;  // setup's failure
  };
  State& state(int benchmark, int variant) { return states_[benchmark][variant]; }
  std::optional<measure::HookResult> around(const Slot& slot, const std::string& script);
  void cleanup(int benchmark, int variant);
  KeyValues env(const Slot& slot, bool instance) const;

  const Suite& suite_;
  bool show_output_ = false;
  std::vector<std::vector<State>> states_;
  std::vector<std::string> warnings_;
};

}  // namespace benchguard::schedule
