// Appends where this process's stack and heap start to a file, one line a launch:
//   bg_layout_probe OUTFILE    ->  "stack=ADDRESS heap=ADDRESS\n" (decimal)
// The heap address is that of an allocation made after benchguard's client shifted the heap
// (BENCHGUARD_HEAP_OFFSET under `layout: randomized`).
#include <benchguard/client.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bg_layout_probe OUTFILE\n");
    return 2;
  }
  benchguard::Client bg;
  volatile char local = 0;
  void* heap = std::malloc(24);
  std::FILE* out = std::fopen(argv[1], "a");
  if (out == nullptr) return 1;
  std::fprintf(out, "stack=%llu heap=%llu\n",
               static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&local)),
               static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(heap)));
  std::fclose(out);
  std::free(heap);
  return 0;
}
