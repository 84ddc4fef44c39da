// A SQLite VFS for tests that fails, on purpose, the Nth write-side call (xWrite, xTruncate,
// xSync) of any file SQLite opens through it, as SQLite's own tests do with their I/O-error
// and disk-full simulations, or kills the process there. Installed as the default VFS of this
// process, it passes every call through until armed. tests/support/fault_cli.cpp is the CLI
// with it, armed from the environment.
#pragma once

namespace benchguard::testing {

enum class Fault {
  kIoError,   // SQLITE_IOERR_WRITE, _TRUNCATE or _FSYNC, as the call
  kDiskFull,  // SQLITE_FULL
  kKill,      // SIGKILL to this process before the call: a crash at that point
};

class FaultVfs {
 public:
  // Registers the VFS as the process's default (once; later calls do nothing).
  static void install();
  // Fails write-side call number `n` (1-based, counted from now) with `fault`, and every call
  // after it while `persistent` (a full disk stays full); other calls pass through.
  static void arm(long n, Fault fault, bool persistent);
  // Passes every call through again; returns whether a call was failed since arm.
  static bool disarm();
  // Write-side calls since the last arm.
  static long calls();
};

}  // namespace benchguard::testing
