// Allocates and touches memory, then holds it: bg_memory_hog MIB HOLD_MS [CHILD_MIB]
// With CHILD_MIB a forked child does the same with that much, at the same time.
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

static void hog(long mib, long hold_ms) {
  const size_t bytes = static_cast<size_t>(mib) << 20;
  auto* p = static_cast<volatile char*>(std::malloc(bytes));
  if (p == nullptr) std::exit(1);
  const long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < bytes; i += static_cast<size_t>(page)) p[i] = 1;
  timespec ts{hold_ms / 1000, (hold_ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) != 0) {
  }
  std::free(const_cast<char*>(p));
}

int main(int argc, char** argv) {
  const long mib = argc > 1 ? std::atol(argv[1]) : 100;
  const long hold_ms = argc > 2 ? std::atol(argv[2]) : 200;
  const long child_mib = argc > 3 ? std::atol(argv[3]) : 0;
  pid_t child = -1;
  if (child_mib > 0) {
    child = fork();
    if (child == 0) {
      hog(child_mib, hold_ms);
      return 0;
    }
  }
  hog(mib, hold_ms);
  if (child > 0) waitpid(child, nullptr, 0);
  return 0;
}
