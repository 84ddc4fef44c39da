#include "measure/count_library.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#ifndef BENCHGUARD_COUNT_LIB_FROM_BIN
#define BENCHGUARD_COUNT_LIB_FROM_BIN "../lib/benchguard"
#endif

namespace benchguard::measure {

const std::string& count_library() {
  static const std::string path = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::string();
    const fs::path dir = exe.parent_path();
    for (const fs::path& candidate :
         {dir / "libbenchguard_count.so",
          dir / BENCHGUARD_COUNT_LIB_FROM_BIN / "libbenchguard_count.so"}) {
      if (access(candidate.c_str(), R_OK) == 0) return candidate.lexically_normal().string();
    }
    return std::string();
  }();
  return path;
}

}  // namespace benchguard::measure
