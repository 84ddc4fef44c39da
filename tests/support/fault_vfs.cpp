#include "support/fault_vfs.hpp"

#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace benchguard::testing {
namespace {

std::atomic<long> g_calls{0};
std::atomic<long> g_fail_at{0};  // 0: disarmed
std::atomic<bool> g_persistent{false};
std::atomic<bool> g_fired{false};
std::atomic<int> g_fault{0};

sqlite3_vfs* g_base = nullptr;
sqlite3_vfs g_vfs;

// Our file: the base VFS's file follows it in the same allocation (szOsFile covers both).
struct FaultFile {
  sqlite3_file base;
  sqlite3_file* real;
};

sqlite3_file* real_of(sqlite3_file* f) {
  return reinterpret_cast<FaultFile*>(f)->real;
}

// The result for the next write-side call: SQLITE_OK to pass it through.
int next_fault(int io_error) {
  const long n = ++g_calls;
  const long at = g_fail_at.load();
  if (at == 0 || n < at || (n > at && !g_persistent.load())) return SQLITE_OK;
  g_fired = true;
  switch (static_cast<Fault>(g_fault.load())) {
    case Fault::kKill:
      ::kill(::getpid(), SIGKILL);
      return io_error;  // not reached
    case Fault::kDiskFull:
      return SQLITE_FULL;
    case Fault::kIoError:
      break;
  }
  return io_error;
}

int x_close(sqlite3_file* f) {
  sqlite3_file* r = real_of(f);
  const int rc = r->pMethods ? r->pMethods->xClose(r) : SQLITE_OK;
  f->pMethods = nullptr;
  return rc;
}
int x_read(sqlite3_file* f, void* buf, int amt, sqlite3_int64 off) {
  return real_of(f)->pMethods->xRead(real_of(f), buf, amt, off);
}
int x_write(sqlite3_file* f, const void* buf, int amt, sqlite3_int64 off) {
  if (const int rc = next_fault(SQLITE_IOERR_WRITE); rc != SQLITE_OK) return rc;
  return real_of(f)->pMethods->xWrite(real_of(f), buf, amt, off);
}
int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
  if (const int rc = next_fault(SQLITE_IOERR_TRUNCATE); rc != SQLITE_OK) return rc;
  return real_of(f)->pMethods->xTruncate(real_of(f), size);
}
int x_sync(sqlite3_file* f, int flags) {
  if (const int rc = next_fault(SQLITE_IOERR_FSYNC); rc != SQLITE_OK) return rc;
  return real_of(f)->pMethods->xSync(real_of(f), flags);
}
int x_file_size(sqlite3_file* f, sqlite3_int64* size) {
  return real_of(f)->pMethods->xFileSize(real_of(f), size);
}
int x_lock(sqlite3_file* f, int level) {
  return real_of(f)->pMethods->xLock(real_of(f), level);
}
int x_unlock(sqlite3_file* f, int level) {
  return real_of(f)->pMethods->xUnlock(real_of(f), level);
}
int x_check_reserved(sqlite3_file* f, int* out) {
  return real_of(f)->pMethods->xCheckReservedLock(real_of(f), out);
}
int x_file_control(sqlite3_file* f, int op, void* arg) {
  return real_of(f)->pMethods->xFileControl(real_of(f), op, arg);
}
int x_sector_size(sqlite3_file* f) {
  return real_of(f)->pMethods->xSectorSize(real_of(f));
}
int x_device_characteristics(sqlite3_file* f) {
  return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f));
}
int x_shm_map(sqlite3_file* f, int page, int size, int extend, void volatile** p) {
  return real_of(f)->pMethods->xShmMap(real_of(f), page, size, extend, p);
}
int x_shm_lock(sqlite3_file* f, int offset, int n, int flags) {
  return real_of(f)->pMethods->xShmLock(real_of(f), offset, n, flags);
}
void x_shm_barrier(sqlite3_file* f) {
  real_of(f)->pMethods->xShmBarrier(real_of(f));
}
int x_shm_unmap(sqlite3_file* f, int delete_flag) {
  return real_of(f)->pMethods->xShmUnmap(real_of(f), delete_flag);
}
int x_fetch(sqlite3_file* f, sqlite3_int64 off, int amt, void** p) {
  return real_of(f)->pMethods->xFetch(real_of(f), off, amt, p);
}
int x_unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  return real_of(f)->pMethods->xUnfetch(real_of(f), off, p);
}

// Methods of the version the real file has: SQLite looks at iVersion before it uses the
// shared-memory (2) and memory-map (3) calls.
sqlite3_io_methods g_methods[4];

void init_methods() {
  for (int v = 1; v <= 3; ++v) {
    sqlite3_io_methods& m = g_methods[v];
    m = sqlite3_io_methods{};
    m.iVersion = v;
    m.xClose = x_close;
    m.xRead = x_read;
    m.xWrite = x_write;
    m.xTruncate = x_truncate;
    m.xSync = x_sync;
    m.xFileSize = x_file_size;
    m.xLock = x_lock;
    m.xUnlock = x_unlock;
    m.xCheckReservedLock = x_check_reserved;
    m.xFileControl = x_file_control;
    m.xSectorSize = x_sector_size;
    m.xDeviceCharacteristics = x_device_characteristics;
    if (v >= 2) {
      m.xShmMap = x_shm_map;
      m.xShmLock = x_shm_lock;
      m.xShmBarrier = x_shm_barrier;
      m.xShmUnmap = x_shm_unmap;
    }
    if (v >= 3) {
      m.xFetch = x_fetch;
      m.xUnfetch = x_unfetch;
    }
  }
}

int x_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  auto* ff = reinterpret_cast<FaultFile*>(f);
  ff->real = reinterpret_cast<sqlite3_file*>(ff + 1);
  std::memset(ff->real, 0, static_cast<size_t>(g_base->szOsFile));
  const int rc = g_base->xOpen(g_base, name, ff->real, flags, out_flags);
  if (rc != SQLITE_OK || ff->real->pMethods == nullptr) {
    f->pMethods = nullptr;
    return rc;
  }
  const int version = ff->real->pMethods->iVersion;
  f->pMethods = &g_methods[version < 1 ? 1 : (version > 3 ? 3 : version)];
  return SQLITE_OK;
}

}  // namespace

void FaultVfs::install() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_base = sqlite3_vfs_find(nullptr);
    init_methods();
    // Every other call goes to the default VFS's own functions, with its own data.
    g_vfs = *g_base;
    g_vfs.szOsFile = static_cast<int>(sizeof(FaultFile)) + g_base->szOsFile;
    g_vfs.zName = "benchguard-fault";
    g_vfs.xOpen = x_open;
    sqlite3_vfs_register(&g_vfs, /*makeDflt=*/1);
  });
}

void FaultVfs::arm(long n, Fault fault, bool persistent) {
  g_fail_at = 0;
  g_calls = 0;
  g_fired = false;
  g_fault = static_cast<int>(fault);
  g_persistent = persistent;
  g_fail_at = n;
}

bool FaultVfs::disarm() {
  g_fail_at = 0;
  return g_fired.exchange(false);
}

long FaultVfs::calls() {
  return g_calls.load();
}

}  // namespace benchguard::testing
