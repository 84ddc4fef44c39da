// Exits with the code given: bg_exit_code N
#include <cstdlib>

int main(int argc, char** argv) {
  return argc > 1 ? std::atoi(argv[1]) : 0;
}
