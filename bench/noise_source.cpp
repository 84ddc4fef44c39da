// Controlled machine noise for bench/noise_bench, one kind per process, until killed:
//   noise_source cpu-one         a busy thread pinned to CPU 0, all the time (a co-tenant's
//                                single-threaded job)
//   noise_source cpu-all-onoff   a busy thread pinned to every CPU, switching on and off at
//                                random every 100-600 ms (a shared runner's bursty neighbours)
//   noise_source membw           one thread streaming through 2 x 64 MiB buffers: memory
//                                bandwidth and last-level cache taken from everyone
//   noise_source burst           every second, every CPU busy for 150 ms (a periodic job:
//                                a cron task, a monitoring agent, a garbage collector)
//   noise_source none            sleeps (the quiet baseline)
// A seed (second argument) makes the on/off pattern repeatable.
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

void pin(unsigned cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

void burn(std::uint64_t steps) {
  volatile std::uint64_t x = 1;
  for (std::uint64_t k = 0; k < steps; ++k) x = x * 6364136223846793005ULL + 1;
}

// A burner per CPU, busy while `on` is set.
std::vector<std::thread> burners(const std::atomic<bool>& on) {
  const unsigned cpus = std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < cpus; ++i)
    threads.emplace_back([&on, i] {
      pin(i);
      for (;;) {
        if (on.load(std::memory_order_relaxed))
          burn(100000);
        else
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  return threads;
}

[[noreturn]] void sleep_forever() {
  for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string kind = argc > 1 ? argv[1] : "";
  const unsigned seed = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : 1;
  std::mt19937 rng(seed);
  if (kind == "none") sleep_forever();
  if (kind == "cpu-one") {
    pin(0);
    for (;;) burn(1000000);
  }
  if (kind == "cpu-all-onoff") {
    std::atomic<bool> on{false};
    auto threads = burners(on);
    std::uniform_int_distribution<int> ms(100, 600);
    for (;;) {
      on = !on;
      std::this_thread::sleep_for(std::chrono::milliseconds(ms(rng)));
    }
  }
  if (kind == "burst") {
    std::atomic<bool> on{false};
    auto threads = burners(on);
    for (;;) {
      on = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      on = false;
      std::this_thread::sleep_for(std::chrono::milliseconds(850));
    }
  }
  if (kind == "membw") {
    constexpr std::size_t kBytes = 64U << 20;
    std::vector<char> from(kBytes, 1), to(kBytes, 0);
    for (std::uint64_t round = 0;; ++round) {
      std::memcpy(to.data(), from.data(), kBytes);
      from[round % kBytes] = to[(round * 7919) % kBytes];
    }
  }
  std::fprintf(stderr, "usage: noise_source none|cpu-one|cpu-all-onoff|membw|burst [SEED]\n");
  return 2;
}
