// The benchguard CLI with the fault VFS (fault_vfs.hpp) as SQLite's default: BG_FAULT_KILL_AT=N
// kills the process (SIGKILL) just before its Nth write, truncate or sync of any SQLite file,
// as a `kill -9` at that point would. Without it, the CLI as it is.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "support/fault_vfs.hpp"

int main(int argc, char** argv) {
  using benchguard::testing::FaultVfs;
  FaultVfs::install();
  if (const char* at = std::getenv("BG_FAULT_KILL_AT"); at != nullptr && *at != '\0')
    FaultVfs::arm(std::atol(at), benchguard::testing::Fault::kKill, /*persistent=*/false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return benchguard::cli::run(args, std::cout, std::cerr);
}
