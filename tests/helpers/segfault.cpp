// Dies of a real invalid memory access (SIGSEGV), not of raise().
#include <cstdint>

int main(int argc, char**) {
  // argc hides the null pointer from the optimizer.
  volatile int* p = reinterpret_cast<volatile int*>(static_cast<uintptr_t>(argc - 1));
  *p = 42;
  return 0;
}
