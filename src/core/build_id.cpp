#include "core/build_id.hpp"

#include <elf.h>
#include <fmt/format.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace benchguard {
namespace {

struct Search {
  uintptr_t address = 0;  // of a function of this object
  std::string id;
};

// The NT_GNU_BUILD_ID note of the loaded object that holds `search->address`.
int visit(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* search = static_cast<Search*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && search->address >= start && search->address < start + ph.p_memsz)
      holds = true;
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    // The note as loaded: the object's load address plus its offset (an address the loader
    // gives as an integer).
    const auto* at = reinterpret_cast<const unsigned char*>(  // NOLINT(performance-no-int-to-ptr)
        info->dlpi_addr + ph.p_vaddr);
    const auto* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const unsigned char* name = at + sizeof note;
      const unsigned char* desc = name + ((note.n_namesz + 3) & ~3u);
      const unsigned char* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        for (unsigned j = 0; j < note.n_descsz; ++j) search->id += fmt::format("{:02x}", desc[j]);
        return 1;
      }
      at = next;
    }
  }
  return 1;  // the object holding the address has no build id
}

}  // namespace

const std::string& build_id() {
  static const std::string id = [] {
    Search search;
    search.address = reinterpret_cast<uintptr_t>(&visit);
    dl_iterate_phdr(visit, &search);
    return search.id;
  }();
  return id;
}

}  // namespace benchguard
