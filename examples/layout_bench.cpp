// A benchmark whose speed depends on where its stack starts: the layout example of
// docs/measurement.md. Its loop adds into an 8-byte counter kept in a stack buffer at an
// address that, for some 16-byte alignments of the stack, straddles a 32- or 64-byte boundary:
// such a load and store cost more on most x86 cores. Where the stack starts depends on the
// size of the environment and of the arguments, which the kernel copies above it; with
// address randomization off (`layout: fixed`, `setarch -R`), a longer variable or path moves
// every instance the same way, and the benchmark looks faster or slower for no change of code.
//   layout_bench [N]   (default 30000000), one timed iteration per instance
#include <benchguard/client.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The part that depends on the stack: an add into memory, one per iteration.
__attribute__((noinline)) uint64_t stack_part(long n) {
  alignas(16) char buf[128];
  std::memset(buf, 0, sizeof buf);
  char* volatile slot = buf + 60;  // 60 mod 16 = 12: straddles for some stack alignments
  char* p = slot;
  for (long i = 0; i < n; ++i) {
    uint64_t x;
    std::memcpy(&x, p, sizeof x);
    x += static_cast<uint64_t>(i);
    std::memcpy(p, &x, sizeof x);
    asm volatile("" ::"r"(p) : "memory");
  }
  uint64_t r;
  std::memcpy(&r, p, sizeof r);
  return r;
}

// The part that does not: a chain of multiplies in registers, three times as many.
__attribute__((noinline)) uint64_t register_part(long n) {
  uint64_t x = 1;
  for (long i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(x));
  }
  return x;
}

uint64_t work(long n) {
  return stack_part(n) + register_part(3 * n);
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 30000000;
  benchguard::Client bg;
  uint64_t sink = 0;
  for (int i = 0; i < bg.iterations(1); ++i) bg.measure([&] { sink += work(n); });
  if (sink == 42) std::puts("");  // keep the result alive
  return 0;
}
