// benchguard GoogleTest fixtures: a GoogleTest test whose body is a benchmark.
//
//   #include <benchguard/gtest.hpp>
//
//   using ParseBench = benchguard::gtest::TimeFixture;     // or MemoryFixture, TimeMemoryFixture
//   TEST_F(ParseBench, Large) {                            // the body is one iteration
//     parse(large_input());
//   }
//
//   class SortBench : public benchguard::gtest::TimeFixture {};
//   TEST_F(SortBench, Shuffled) {
//     auto data = shuffled(1 << 20);                        // not measured: measure() is
//     measure([&] { std::sort(data.begin(), data.end()); }); // one iteration per call
//   }
//
// Nothing is recorded unless one of these is set (docs/gtest.md):
// - BENCHGUARD_RESULTS (the test binary runs under `benchguard run`): the iterations of the one
//   benchmark test selected (--gtest_filter) go to benchguard as protocol lines
//   (docs/protocol.md), one instance per process.
// - BENCHGUARD_DB, or --benchguard[=DB] given to benchguard::gtest::init() in a main of your
//   own: at the end of the test program every benchmark test becomes one instance of a run
//   stored with `benchguard import` ($BENCHGUARD_BIN, else `benchguard` on PATH).
// Otherwise the fixtures run the body as an ordinary test and measure nothing: no thread, no
// file, no program started.
//
// A body without measure() is one iteration, timed from the end of the fixture's SetUp() to the
// start of its TearDown(): a fixture of your own that overrides them calls
// benchguard's SetUp() last and TearDown() first. With measure(), each call is one iteration and
// the rest of the body is not measured; `iterations()` says how many to run.
//
// MemoryFixture and TimeMemoryFixture also record, per iteration, rss_peak_bytes (the high-water
// mark of the process's resident set, reset before the iteration through /proc/self/clear_refs)
// and rss_avg_bytes (the time-weighted mean of the resident set, sampled every 2 ms by a thread).
//
// Header-only: GoogleTest, the Linux C library and the C++ standard library.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "benchguard/client.hpp"

extern char** environ;

namespace benchguard::gtest {

enum class Measures { time, memory, time_memory };

namespace detail {

// The resident set of this process, sampled by a thread between start() and stop().
class RssSampler {
 public:
  RssSampler() {
    statm_ = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    page_ = ::sysconf(_SC_PAGESIZE) > 0 ? ::sysconf(_SC_PAGESIZE) : 4096;
  }
  ~RssSampler() {
    stop_thread();
    if (statm_ >= 0) ::close(statm_);
  }
  RssSampler(const RssSampler&) = delete;
  RssSampler& operator=(const RssSampler&) = delete;

  bool available() const { return statm_ >= 0; }

  void start() {
    samples_.clear();
    reset_ = reset_peak();
    samples_.emplace_back(Client::now_ns(), rss());
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
  }

  // (peak bytes, time-weighted mean bytes) since start().
  std::pair<double, double> stop() {
    const std::pair<int64_t, int64_t> end{Client::now_ns(), rss()};
    stop_thread();
    std::vector<std::pair<int64_t, int64_t>> s;
    for (const auto& x : samples_)
      if (x.first <= end.first) s.push_back(x);
    std::sort(s.begin(), s.end());
    s.push_back(end);
    int64_t peak = 0;
    for (const auto& x : s) peak = std::max(peak, x.second);
    if (reset_) peak = std::max(peak, vm_hwm());
    const int64_t span = s.back().first - s.front().first;
    double mean = 0;
    if (span <= 0) {
      for (const auto& x : s) mean += static_cast<double>(x.second);
      mean /= static_cast<double>(s.size());
    } else {
      for (size_t i = 1; i < s.size(); ++i)
        mean += static_cast<double>(s[i].first - s[i - 1].first) *
                (static_cast<double>(s[i].second) + static_cast<double>(s[i - 1].second)) / 2;
      mean /= static_cast<double>(span);
    }
    return {static_cast<double>(peak), mean};
  }

 private:
  static constexpr auto kInterval = std::chrono::milliseconds(2);

  void run() {
    std::unique_lock lock(mutex_);
    while (!cv_.wait_for(lock, kInterval, [this] { return stopping_; }))
      samples_.emplace_back(Client::now_ns(), rss());
  }
  void stop_thread() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  int64_t rss() const {
    char buf[256];
    const ssize_t n = statm_ >= 0 ? ::pread(statm_, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0) return 0;
    buf[n] = '\0';
    long long size = 0, resident = 0;
    if (std::sscanf(buf, "%lld %lld", &size, &resident) != 2) return 0;
    return resident * page_;
  }
  // Resets the process's high-water mark of its resident set (Linux 4.0 and later).
  static bool reset_peak() {
    const int fd = ::open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, "5", 1) == 1;
    ::close(fd);
    return ok;
  }
  static int64_t vm_hwm() {
    std::FILE* f = std::fopen("/proc/self/status", "re");
    if (f == nullptr) return 0;
    char line[256];
    long long kib = 0;
    while (std::fgets(line, sizeof line, f) != nullptr)
      if (std::sscanf(line, "VmHWM: %lld kB", &kib) == 1) break;
    std::fclose(f);
    return kib * 1024;
  }

  int statm_ = -1;
  int64_t page_ = 4096;
  bool reset_ = false;
  std::vector<std::pair<int64_t, int64_t>> samples_;  // (ns, bytes); guarded by mutex_
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

struct Iteration {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::vector<std::pair<std::string, double>> metrics;
};

struct TestRecord {
  std::string name;  // the benchmark's name
  std::vector<Iteration> iterations;
  std::string failure;  // empty: passed
};

inline std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// A name benchguard accepts: control characters become '?'; at most 1,000 bytes.
inline std::string clean_name(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (s.size() > 1000) s.resize(1000);
  return s;
}

// "Suite.Test", with "/param=VALUE" for a value-parameterized test (instead of gtest's index)
// and "/type=T" for a typed one.
inline std::string benchmark_name(const ::testing::TestInfo& info) {
  std::string suite = info.test_suite_name();
  std::string test = info.name();
  auto drop_index = [](std::string& s) {
    const auto slash = s.rfind('/');
    if (slash != std::string::npos &&
        s.find_first_not_of("0123456789", slash + 1) == std::string::npos && slash + 1 < s.size())
      s.resize(slash);
  };
  std::string suffix;
  if (info.type_param() != nullptr) {
    drop_index(suite);
    suffix += std::string("/type=") + info.type_param();
  }
  if (info.value_param() != nullptr) {
    drop_index(test);
    suffix += std::string("/param=") + info.value_param();
  }
  return clean_name(suite + "." + test + suffix);
}

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

inline std::string csv_cell(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

inline std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// Where the measurements go, for the whole test program.
class Recorder {
 public:
  enum class Mode { off, protocol, database };

  static Recorder& get() {
    static Recorder recorder;
    return recorder;
  }

  Mode mode() const { return mode_; }
  int iterations() const { return iterations_; }
  const std::string& database() const { return database_; }

  // --benchguard[=DB], --benchguard-iterations=N, --benchguard-label=KEY=VALUE; removed from
  // argv. False (with a message) on a malformed value.
  bool parse_flags(int* argc, char** argv) {
    int out = 1;
    bool ok = true;
    for (int i = 1; i < *argc; ++i) {
      const std::string_view a = argv[i];
      if (a == "--benchguard") {
        flag_db_ = "benchguard.db";
      } else if (a.starts_with("--benchguard=")) {
        flag_db_ = std::string(a.substr(13));
      } else if (a.starts_with("--benchguard-iterations=")) {
        const std::string v(a.substr(24));
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || n < 1 || n > 1000000) {
          std::fprintf(stderr,
                       "benchguard: --benchguard-iterations needs a whole number from 1 "
                       "to 1000000, not \"%s\"\n",
                       v.c_str());
          ok = false;
        } else {
          flag_iterations_ = static_cast<int>(n);
        }
      } else if (a.starts_with("--benchguard-label=")) {
        const std::string v(a.substr(19));
        if (v.find('=') == std::string::npos || v.front() == '=') {
          std::fprintf(stderr, "benchguard: --benchguard-label needs KEY=VALUE, not \"%s\"\n",
                       v.c_str());
          ok = false;
        } else {
          labels_.push_back(v);
        }
      } else {
        argv[out++] = argv[i];
        continue;
      }
    }
    *argc = out;
    argv[out] = nullptr;
    configure();
    return ok;
  }

  // Starts a test's record; nullptr when nothing is recorded. Under benchguard run only one
  // benchmark test may run in a process: a second one gets a failure.
  TestRecord* begin(const ::testing::TestInfo& info) {
    if (mode_ == Mode::off) return nullptr;
    if (mode_ == Mode::protocol && !records_.empty()) {
      ADD_FAILURE() << "benchguard: under `benchguard run` one instance measures one test, and "
                    << records_.front().name << " ran before this one; select one test with "
                    << "--gtest_filter=SUITE.TEST";
      return nullptr;
    }
    records_.push_back(TestRecord{benchmark_name(info), {}, {}});
    return &records_.back();
  }

  // A test's record is complete.
  void end(TestRecord& record) {
    if (mode_ != Mode::protocol) return;
    std::FILE* f = std::fopen(env("BENCHGUARD_RESULTS").c_str(), "a");
    if (f == nullptr) {
      ADD_FAILURE() << "benchguard: cannot open BENCHGUARD_RESULTS (" << env("BENCHGUARD_RESULTS")
                    << "): " << std::strerror(errno);
      return;
    }
    for (size_t i = 0; i < record.iterations.size(); ++i) {
      const Iteration& it = record.iterations[i];
      std::string line = "{\"iteration\":" + std::to_string(i) +
                         ",\"start_ns\":" + std::to_string(it.start_ns) +
                         ",\"end_ns\":" + std::to_string(it.end_ns);
      if (!it.metrics.empty()) {
        line += ",\"metrics\":{";
        for (size_t m = 0; m < it.metrics.size(); ++m)
          line += (m ? "," : "") + json_string(it.metrics[m].first) + ":" +
                  number(it.metrics[m].second);
        line += "}";
      }
      if (!record.failure.empty()) line += ",\"failure\":" + json_string(record.failure);
      line += "}\n";
      std::fputs(line.c_str(), f);
    }
    std::fclose(f);
  }

  // At the end of the test program (database mode): every record, as benchguard's CSV layout,
  // imported as one run. A failure of the import fails the test program and keeps the file.
  void finish() {
    if (mode_ != Mode::database || records_.empty()) return;
    const std::string path = write_csv();
    if (path.empty()) return;
    std::vector<std::string> args = {binary(),   "import", path,     "--input-format",
                                     "duet-csv", "--db",   database_};
    for (const auto& label : labels_) {
      args.push_back("--label");
      args.push_back(label);
    }
    std::string error;
    if (args[0].empty()) {
      error = "no benchguard program: set BENCHGUARD_BIN or put benchguard on PATH";
    } else {
      std::vector<char*> argv;
      argv.reserve(args.size() + 1);
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      std::fflush(stdout);
      std::fflush(stderr);
      pid_t pid = 0;
      if (const int rc = ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
          rc != 0) {
        error = std::string("cannot start ") + args[0] + ": " + std::strerror(rc);
      } else {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
          error = "`benchguard import` failed (its message is above)";
      }
    }
    if (error.empty()) {
      std::remove(path.c_str());
      records_.clear();
    } else {
      ADD_FAILURE() << "benchguard: " << error << "; the measurements are kept in " << path;
    }
  }

 private:
  Recorder() {
    env_iterations_ = std::atoi(env("BENCHGUARD_ITERATIONS").c_str());
    configure();
  }

  void configure() {
    if (!env("BENCHGUARD_RESULTS").empty()) {
      mode_ = Mode::protocol;
      database_.clear();
    } else if (!flag_db_.empty() || !env("BENCHGUARD_DB").empty()) {
      mode_ = Mode::database;
      database_ = !flag_db_.empty() ? flag_db_ : env("BENCHGUARD_DB");
    } else {
      mode_ = Mode::off;
    }
    iterations_ = 1;
    if (mode_ != Mode::off && env_iterations_ > 0) iterations_ = env_iterations_;
    if (mode_ != Mode::protocol && flag_iterations_ > 0) iterations_ = flag_iterations_;
  }

  static std::string binary() {
    std::string given = env("BENCHGUARD_BIN");
    if (!given.empty()) return given;
    const std::string path = env("PATH");
    size_t start = 0;
    while (start <= path.size()) {
      const size_t colon = std::min(path.find(':', start), path.size());
      std::string dir = path.substr(start, colon - start);
      if (dir.empty()) dir = ".";
      std::string candidate = dir + "/benchguard";
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      start = colon + 1;
    }
    return {};
  }

  std::string write_csv() {
    std::string dir = env("TMPDIR");
    if (dir.empty()) dir = "/tmp";
    std::string path = dir + "/benchguard-gtest-XXXXXX.csv";
    const int fd = ::mkstemps(path.data(), 4);
    if (fd < 0) {
      ADD_FAILURE() << "benchguard: cannot create " << path << ": " << std::strerror(errno);
      return {};
    }
    std::FILE* f = ::fdopen(fd, "w");
    std::vector<std::string> metrics;
    for (const auto& r : records_)
      for (const auto& it : r.iterations)
        for (const auto& m : it.metrics)
          if (std::find(metrics.begin(), metrics.end(), m.first) == metrics.end())
            metrics.push_back(m.first);
    std::vector<std::pair<std::string, std::string>> artifacts = run_artifacts();
    std::string header =
        "suite,benchmark,type,order,pair,runid,iteration,iteration_start_ns,iteration_end_ns,"
        "iteration_time_ns,burn_in,timed_out,failure";
    for (const auto& m : metrics) header += "," + csv_cell(m);
    header += ",run,started_at";
    for (const auto& a : artifacts) header += "," + csv_cell(a.first);
    std::fprintf(f, "%s\n", header.c_str());
    std::vector<std::pair<std::string, int>> instances;
    const std::string started = std::to_string(started_at_);
    for (const auto& r : records_) {
      auto seen = std::find_if(instances.begin(), instances.end(),
                               [&](const auto& x) { return x.first == r.name; });
      if (seen == instances.end()) seen = instances.insert(instances.end(), {r.name, 0});
      const int runid = seen->second++;
      for (size_t i = 0; i < r.iterations.size(); ++i) {
        const Iteration& it = r.iterations[i];
        std::string row = "gtest," + csv_cell(r.name) + ",sequential,,default," +
                          std::to_string(runid) + "," + std::to_string(i) + "," +
                          std::to_string(it.start_ns) + "," + std::to_string(it.end_ns) + "," +
                          std::to_string(it.end_ns - it.start_ns) + ",0,0," + csv_cell(r.failure);
        for (const auto& m : metrics) {
          row += ",";
          for (const auto& x : it.metrics)
            if (x.first == m) row += number(x.second);
        }
        row += ",gtest," + started;
        for (const auto& a : artifacts) row += "," + csv_cell(a.second);
        std::fprintf(f, "%s\n", row.c_str());
      }
    }
    if (std::fclose(f) != 0) {
      ADD_FAILURE() << "benchguard: cannot write " << path << ": " << std::strerror(errno);
      return {};
    }
    return path;
  }

  std::vector<std::pair<std::string, std::string>> run_artifacts() const {
    std::vector<std::pair<std::string, std::string>> a;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) a.emplace_back("hostname", host);
    char exe[4096] = {};
    if (const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1); n > 0)
      a.emplace_back("gtest_binary", std::string(exe, static_cast<size_t>(n)));
    a.emplace_back("gtest_filter", GTEST_FLAG_GET(filter));
    const auto* unit = ::testing::UnitTest::GetInstance();
    a.emplace_back("gtest_outcomes",
                   "failed=" + std::to_string(unit->failed_test_count()) +
                       " passed=" + std::to_string(unit->successful_test_count()) +
                       " skipped=" + std::to_string(unit->skipped_test_count()));
    return a;
  }

  Mode mode_ = Mode::off;
  std::string database_;
  std::string flag_db_;
  int flag_iterations_ = 0;
  int env_iterations_ = 0;
  int iterations_ = 1;
  std::vector<std::string> labels_;
  std::vector<TestRecord> records_;  // stable addresses are not needed: end() is called at once
  int64_t started_at_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
};

// Imports what was recorded after the last test (each --gtest_repeat round is a run).
class Environment : public ::testing::Environment {
 public:
  void TearDown() override { Recorder::get().finish(); }
};

inline const bool kEnvironmentAdded = (::testing::AddGlobalTestEnvironment(new Environment), true);

}  // namespace detail

// For a main of your own: takes --benchguard[=DB], --benchguard-iterations=N and
// --benchguard-label=KEY=VALUE out of argv (call it beside ::testing::InitGoogleTest).
// False when one of them is malformed (the message is printed).
inline bool init(int* argc, char** argv) {
  return detail::Recorder::get().parse_flags(argc, argv);
}

template <Measures M>
class Fixture : public ::testing::Test {
 public:
  // Whether the measurements go anywhere.
  bool recording() const { return record_ != nullptr; }
  // How many times to call measure(): $BENCHGUARD_ITERATIONS (burn-in included) under
  // benchguard run or when recording, --benchguard-iterations when given, else 1.
  int iterations() const { return detail::Recorder::get().iterations(); }

  // Runs f iterations() times, each call one iteration. Returns what the last call returned.
  template <class F>
  decltype(auto) measure(F&& f) {
    explicit_ = true;
    for (int i = 1; i < iterations(); ++i) once(f);
    return once(f);
  }

 protected:
  void SetUp() override {
    record_ =
        detail::Recorder::get().begin(*::testing::UnitTest::GetInstance()->current_test_info());
    if (record_ == nullptr) return;
    if (kMemory) {
      sampler_ = std::make_unique<detail::RssSampler>();
      if (!sampler_->available()) sampler_.reset();
    }
    start();
  }
  void TearDown() override {
    if (record_ == nullptr) return;
    if (!explicit_) stop();
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info->result()->Skipped()) {
      record_->iterations.clear();
      record_->failure = "skipped";
    } else if (HasFailure()) {
      record_->failure = first_failure(*info->result());
    } else if (record_->iterations.empty()) {
      record_->failure = "not measured: the test called measure() with no iteration";
    }
    if (record_->iterations.empty()) {
      const int64_t now = Client::now_ns();
      record_->iterations.push_back({body_start_, std::max(body_start_, now), {}});
    }
    detail::Recorder::get().end(*record_);
    record_ = nullptr;
  }

 private:
  static constexpr bool kMemory = M != Measures::time;

  template <class F>
  decltype(auto) once(F& f) {
    if (record_ == nullptr) return f();
    struct Stop {
      Fixture* self;
      ~Stop() { self->stop(); }
    } stop{this};
    start();
    return f();
  }

  void start() {
    if (sampler_ != nullptr) sampler_->start();
    // Under Valgrind the simulation counts; perf events would count the simulator.
    if (!count_.active()) counters_.begin();
    body_start_ = Client::now_ns();
    count_.begin();
  }
  void stop() {
    const auto counted = count_.end();
    detail::Iteration it{body_start_, Client::now_ns(), {}};
    // Under `--measure instructions`: what the iteration executed (instruction_count.hpp);
    // where hardware counters work, their counts (iteration_counters.hpp).
    if (counted) it.metrics.emplace_back("instructions", static_cast<double>(*counted));
    if (!count_.active()) counters_.end(it.metrics);
    if (sampler_ != nullptr) {
      const auto [peak, mean] = sampler_->stop();
      it.metrics.emplace_back("rss_peak_bytes", peak);
      it.metrics.emplace_back("rss_avg_bytes", mean);
    }
    if (record_ != nullptr) record_->iterations.push_back(std::move(it));
  }

  static std::string first_failure(const ::testing::TestResult& result) {
    for (int i = 0; i < result.total_part_count(); ++i) {
      const auto& part = result.GetTestPartResult(i);
      if (!part.failed()) continue;
      // The whole message on one line ("Failed asked to fail", "Expected equality of these
      // values: a Which is: 1 b"), white space collapsed, at most 500 bytes.
      std::string text;
      for (const char* c = part.message() != nullptr ? part.message() : ""; *c != '\0'; ++c) {
        const bool space = *c == ' ' || *c == '\n' || *c == '\t' || *c == '\r';
        if (!space)
          text += *c;
        else if (!text.empty() && text.back() != ' ')
          text += ' ';
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      if (text.size() > 500) text.resize(500);
      std::string where = part.file_name() != nullptr ? part.file_name() : "";
      if (!where.empty()) where += ":" + std::to_string(part.line_number()) + ": ";
      return detail::clean_name(where + text);
    }
    return "failed";
  }

  detail::TestRecord* record_ = nullptr;
  std::unique_ptr<detail::RssSampler> sampler_;  // only when recording memory
  int64_t body_start_ = 0;
  InstructionCount count_;
  IterationCounters counters_;
  bool explicit_ = false;
};

using TimeFixture = Fixture<Measures::time>;
using MemoryFixture = Fixture<Measures::memory>;
using TimeMemoryFixture = Fixture<Measures::time_memory>;

}  // namespace benchguard::gtest
