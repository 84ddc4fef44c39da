// benchguard barrier: lines up the iterations of the two sides of a sync-duet.
//
// Under `--schedule sync-duet` benchguard starts A and B together, each on its own CPU, and
// names a POSIX shared-memory object in BENCHGUARD_BARRIER. Each side waits on it before
// every iteration, so both start each iteration within a few microseconds of each other.
// benchguard::Client does this by itself; a program in another language can do the same by
// mapping the object (layout below) and following the same protocol.
//
// Layout: five native-endian uint32 words — magic, parties, arrived, generation, broken.
// A side arrives by incrementing `arrived`; the last to arrive resets it to 0 and increments
// `generation`; the others wait (futex) until `generation` changes. benchguard sets `broken`
// when either side ends, so the survivor never waits for a partner that is gone.
//
// Linux only, header-only, no dependencies beyond the C library.
#pragma once

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>

namespace benchguard {

class SharedBarrier {
 public:
  static constexpr uint32_t kMagic = 0x42474231;  // "BGB1"
  static constexpr int64_t kSpinNs = 2'000'000;

  SharedBarrier() = default;
  SharedBarrier(const SharedBarrier&) = delete;
  SharedBarrier& operator=(const SharedBarrier&) = delete;
  SharedBarrier(SharedBarrier&& o) noexcept { swap(o); }
  SharedBarrier& operator=(SharedBarrier&& o) noexcept {
    swap(o);
    return *this;
  }
  ~SharedBarrier() {
    if (state_ != nullptr) munmap(state_, sizeof(State));
    if (owner_) shm_unlink(name_.c_str());
  }

  // Creates a new barrier for `parties` sides. The creator unlinks the name when destroyed.
  // `name` must start with '/' and contain no other '/'. Returns an invalid barrier (valid()
  // false) when the object cannot be created; errno tells why.
  static SharedBarrier create(const std::string& name, uint32_t parties) {
    SharedBarrier b;
    const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) return b;
    if (ftruncate(fd, sizeof(State)) != 0) {
      close(fd);
      shm_unlink(name.c_str());
      return b;
    }
    void* p = mmap(nullptr, sizeof(State), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
      shm_unlink(name.c_str());
      return b;
    }
    b.state_ = static_cast<State*>(p);
    b.name_ = name;
    b.owner_ = true;
    word(b.state_->parties).store(parties, std::memory_order_relaxed);
    word(b.state_->magic).store(kMagic, std::memory_order_release);
    return b;
  }

  // Maps a barrier someone else created. Invalid when the name does not name one.
  static SharedBarrier attach(const std::string& name) {
    SharedBarrier b;
    const int fd = shm_open(name.c_str(), O_RDWR, 0);
    if (fd < 0) return b;
    struct stat st {};
    if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(State))) {
      close(fd);
      return b;
    }
    void* p = mmap(nullptr, sizeof(State), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return b;
    b.state_ = static_cast<State*>(p);
    if (word(b.state_->magic).load(std::memory_order_acquire) != kMagic) {
      munmap(p, sizeof(State));
      b.state_ = nullptr;
    }
    return b;
  }

  bool valid() const { return state_ != nullptr; }
  const std::string& name() const { return name_; }

  // Waits until every party has arrived. True when the parties met; false when the barrier
  // is broken (a partner ended) or invalid, in which case the caller just goes on alone.
  bool wait() {
    if (state_ == nullptr || broken()) return false;
    auto generation = word(state_->generation);
    const uint32_t gen = generation.load(std::memory_order_acquire);
    const uint32_t parties = word(state_->parties).load(std::memory_order_relaxed);
    if (word(state_->arrived).fetch_add(1, std::memory_order_acq_rel) + 1 >= parties) {
      word(state_->arrived).store(0, std::memory_order_relaxed);
      generation.fetch_add(1, std::memory_order_acq_rel);
      futex(&state_->generation, FUTEX_WAKE, INT_MAX, nullptr);
      return true;
    }
    // Spin first, for up to kSpinNs: a partner that arrives soon is seen at once, while a
    // sleeper on a busy CPU may wait for the scheduler for a millisecond or more. Then sleep
    // on the futex, waking now and then to look at `broken`.
    const int64_t spin_until = now_ns() + kSpinNs;
    for (int spin = 0;; ++spin) {
      if (generation.load(std::memory_order_acquire) != gen) return !broken();
      if ((spin & 63) == 0 && (now_ns() > spin_until || broken())) break;
    }
    while (generation.load(std::memory_order_acquire) == gen) {
      if (broken()) return false;
      const timespec tick{0, 50'000'000};
      futex(&state_->generation, FUTEX_WAIT, gen, &tick);
    }
    return !broken();
  }

  // Releases every waiter for good: later waits return false at once.
  void break_barrier() {
    if (state_ == nullptr) return;
    word(state_->broken).store(1, std::memory_order_release);
    word(state_->generation).fetch_add(1, std::memory_order_acq_rel);
    futex(&state_->generation, FUTEX_WAKE, INT_MAX, nullptr);
  }

  bool broken() const {
    return state_ != nullptr && word(state_->broken).load(std::memory_order_acquire) != 0;
  }

 private:
  struct State {
    uint32_t magic;
    uint32_t parties;
    uint32_t arrived;
    uint32_t generation;
    uint32_t broken;
  };

  static int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  }

  static std::atomic_ref<uint32_t> word(uint32_t& w) { return std::atomic_ref<uint32_t>(w); }

  static long futex(uint32_t* addr, int op, uint32_t val, const timespec* timeout) {
    // Not FUTEX_PRIVATE_FLAG: the word is shared between processes.
    return syscall(SYS_futex, addr, op, val, timeout, nullptr, 0);
  }

  void swap(SharedBarrier& o) noexcept {
    std::swap(state_, o.state_);
    std::swap(name_, o.name_);
    std::swap(owner_, o.owner_);
  }

  State* state_ = nullptr;
  std::string name_;
  bool owner_ = false;
};

}  // namespace benchguard
