// Running one hook of a benchmark (VariantSpec::hooks): a shell command around its instances,
// timed on its own and never measured as part of one.
#pragma once

#include <string>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::measure {

struct HookResult {
  int exit_code = -1;  // -1 when it died of a signal
  int signal = 0;
  double seconds = 0;           // wall time, start to reaped
  std::string last_error_line;  // the last non-empty line it wrote to standard error
  std::string start_error;      // why it could not start ("": it ran)

  bool ok() const { return start_error.empty() && exit_code == 0 && signal == 0; }
  // What failed, in one line: "prepare exited 3: cannot reset db", "setup killed by signal 9".
  std::string failure(const std::string& which) const;
};

// run_hook's result, an Error folded into start_error.
HookResult run_hook_or_fail(const std::string& script, const std::string& cwd, const KeyValues& env,
                            bool show_output = false);

// Runs `script` with /bin/sh -c in `cwd` (empty: inherit) with `env` set on top of the
// inherited environment, stdin on /dev/null, standard output discarded (on the terminal with
// `show_output`, and standard error copied there too). An Error only when it cannot start.
Result<HookResult> run_hook(const std::string& script, const std::string& cwd, const KeyValues& env,
                            bool show_output = false);

}  // namespace benchguard::measure
