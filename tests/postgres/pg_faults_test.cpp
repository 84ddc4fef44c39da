// The connection to PostgreSQL dropped at every statement of a writer: a proxy between the
// store and the test server (a unix socket of its own, forwarding bytes both ways) counts the
// statements the client sends (simple queries and the Execute messages of extended ones) and
// closes both ends when the Nth arrives, before the server sees it. For N = 1, 2, 3 ... until
// the operation completes: the error is one line naming the database, what was stored before
// is all there, nothing half-written reads as complete, `db check` finds nothing, and the
// same operation then succeeds.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "tests/postgres/pg_test_support.hpp"
#include "unit/store/store_fixtures.hpp"

namespace benchguard::store {
namespace {

using namespace benchguard::store::testing;

// The value of `key=` in the query of a postgresql:// URL ("" when absent).
std::string url_param(const std::string& url, const std::string& key) {
  const size_t q = url.find('?');
  if (q == std::string::npos) return "";
  size_t at = q + 1;
  while (at < url.size()) {
    const size_t amp = url.find('&', at);
    const std::string kv = url.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
    if (kv.starts_with(key + "=")) return kv.substr(key.size() + 1);
    if (amp == std::string::npos) break;
    at = amp + 1;
  }
  return "";
}

int unix_socket(const std::string& path, bool listen_on) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  const auto* a = reinterpret_cast<const sockaddr*>(&addr);
  const int rc = listen_on ? (::bind(fd, a, sizeof addr) == 0 ? ::listen(fd, 16) : -1)
                           : ::connect(fd, a, sizeof addr);
  if (rc != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// A proxy in front of the test server's socket. Statements are counted over every
// connection it relays while armed; the Nth closes that connection.
class DroppingProxy {
 public:
  DroppingProxy() {
    const std::string server = pg_server_url();
    const std::string host = url_param(server, "host");
    port_ = url_param(server, "port");
    if (port_.empty()) port_ = "5432";
    upstream_ = host + "/.s.PGSQL." + port_;
    listener_ = unix_socket(dir_.file(".s.PGSQL." + port_), /*listen_on=*/true);
    EXPECT_GE(listener_, 0) << "cannot listen in " << dir_.path();
    accepting_ = std::thread([this] { accept_loop(); });
  }
  ~DroppingProxy() {
    stop_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    accepting_.join();
    for (auto& t : relays_) t.join();
    ::close(listener_);
  }
  DroppingProxy(const DroppingProxy&) = delete;
  DroppingProxy& operator=(const DroppingProxy&) = delete;

  // The URL of database `db` through the proxy.
  std::string url(const std::string& db) const {
    return "postgresql:///" + db + "?host=" + dir_.path().string() + "&port=" + port_ +
           "&user=" + url_param(pg_server_url(), "user");
  }
  // Drops the connection at statement n: before the server sees it, or (answer_lost) once the
  // server has run it and answered, the answer never reaching the client (a COMMIT in doubt).
  void arm(long n, bool answer_lost) {
    statements_ = 0;
    fired_ = false;
    answer_lost_ = answer_lost;
    drop_at_ = n;
  }
  bool disarm() {
    drop_at_ = 0;
    return fired_.exchange(false);
  }

 private:
  void accept_loop() {
    while (!stop_) {
      const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) return;
      relays_.emplace_back([this, client] { relay(client); });
    }
  }

  // Client to server: parsed into messages, each forwarded whole unless it is the statement
  // to drop at; server to client: bytes as they come.
  void relay(int client) {
    const int server = unix_socket(upstream_, /*listen_on=*/false);
    if (server < 0) {
      ::close(client);
      return;
    }
    std::string pending;
    bool started = false;  // the startup message has no type byte
    bool lose_answer = false;
    char buf[65536];
    while (true) {
      pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(fds, 2, 200) < 0) break;
      if (stop_) break;
      if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::read(server, buf, sizeof buf);
        if (n <= 0 || !write_all(client, buf, static_cast<size_t>(n))) break;
      }
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::read(client, buf, sizeof buf);
        if (n <= 0) break;
        pending.append(buf, static_cast<size_t>(n));
        bool dropped = false;
        while (true) {
          const size_t header = started ? 5 : 4;
          if (pending.size() < header) break;
          uint32_t len = 0;
          std::memcpy(&len, pending.data() + (started ? 1 : 0), 4);
          len = ntohl_(len);
          const size_t whole = (started ? 1 : 0) + len;
          if (pending.size() < whole) break;
          const char type = started ? pending[0] : '\0';
          if (started && (type == 'Q' || type == 'E') && drop_at_ > 0 &&
              ++statements_ == drop_at_) {
            fired_ = true;
            if (!answer_lost_) {
              dropped = true;
              break;
            }
            lose_answer = true;
          }
          if (!write_all(server, pending.data(), whole)) {
            dropped = true;
            break;
          }
          pending.erase(0, whole);
          started = true;
          // The statement is in; once its batch ends (a simple query, or the Sync after an
          // Execute) wait for the server's answer to it and keep it from the client.
          if (lose_answer && (type == 'Q' || type == 'S')) {
            swallow_answer(server);
            dropped = true;
            break;
          }
        }
        if (dropped) break;
      }
    }
    ::close(client);
    ::close(server);
  }

  // Reads the server's answer until ReadyForQuery ('Z', length 5, status) ends a read, or
  // for at most 2 s.
  static void swallow_answer(int server) {
    char buf[65536];
    for (int waited = 0; waited < 2000; waited += 10) {
      pollfd fd{server, POLLIN, 0};
      if (::poll(&fd, 1, 10) <= 0) continue;
      const ssize_t n = ::read(server, buf, sizeof buf);
      if (n <= 0) return;
      if (n >= 6 && buf[n - 6] == 'Z' && buf[n - 5] == 0 && buf[n - 4] == 0 && buf[n - 3] == 0 &&
          buf[n - 2] == 5)
        return;
    }
  }

  static uint32_t ntohl_(uint32_t v) { return __builtin_bswap32(v); }
  static bool write_all(int fd, const char* p, size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd, p, n);
      if (w <= 0) return false;
      p += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  }

  benchguard::testing::TempDir dir_;
  std::string port_, upstream_;
  int listener_ = -1;
  std::atomic<bool> stop_{false};
  std::atomic<long> drop_at_{0}, statements_{0};
  std::atomic<bool> fired_{false}, answer_lost_{false};
  std::thread accepting_;
  std::vector<std::thread> relays_;
};

RunData whole_run(const std::string& uuid, const std::string& benchmark) {
  RunData r;
  r.run = sample_run(uuid, 100);
  r.run.status = "complete";
  r.run.finished_at = 200;
  VariantData v;
  v.variant = sample_variant(benchmark, "default");
  v.instances = {sample_instance(0), sample_instance(1), sample_instance(2)};
  r.variants.push_back(v);
  return r;
}

enum class State { kBefore, kAfter, kEither };

// Whether `state` is the one after the write, `finished` telling it when it may be either.
bool is_after(State state, bool finished) {
  return state == State::kAfter || (state == State::kEither && finished);
}

struct Writer {
  std::string name;
  // Writes through `url`; an Error when a statement failed.
  std::function<Status(const std::string& url)> write;
  // What must hold after a failure (before), a success (after), or an answer lost (either,
  // whole), read directly.
  std::function<void(const std::string& url, State state)> check;
};

class PgFaultsTest : public PgTest {
 protected:
  long in_doubt = 0;  // failed writes that had committed (their answer lost)
  // Returns the number of statements the writer sends.
  long sweep(const Writer& w, bool answer_lost) {
    DroppingProxy proxy;
    in_doubt = 0;
    for (long n = 1; n <= 2000; ++n) {
      database_ = std::make_unique<TestDatabase>();
      db_ = database_->name();
      {
        auto seed = open_or_die(url());
        if (!seed) return -n;
        auto ids = seed->add_runs({whole_run("5eed0000-0000-4000-8000-000000000001", "seed")}, {});
        EXPECT_TRUE(ids.ok()) << ids.error().message;
      }
      proxy.arm(n, answer_lost);
      Status s = w.write(proxy.url(db_));
      const bool fired = proxy.disarm();
      SCOPED_TRACE(w.name + ", dropped at statement " + std::to_string(n) + ": " +
                   (s.ok() ? std::string("ok") : s.error().message));
      if (s.ok()) {
        w.check(url(), State::kAfter);
        if (!fired) return n - 1;
        continue;  // dropped after the commit: what it wrote is whole
      }
      EXPECT_TRUE(fired) << "failed without a dropped connection";
      EXPECT_EQ(s.error().message.find('\n'), std::string::npos) << "not one line";
      EXPECT_NE(s.error().message.find(db_), std::string::npos) << "does not name the database";
      EXPECT_EQ(count("SELECT COUNT(*) FROM instances i JOIN variants v ON v.id = i.variant_id "
                      "JOIN benchmarks b ON b.id = v.benchmark_id WHERE b.name = 'seed'"),
                3);
      w.check(url(), answer_lost ? State::kEither : State::kBefore);
      // Failed, yet the write reached the database: its commit's answer was lost.
      if (count("SELECT COUNT(*) FROM runs WHERE status = 'complete'") > 1) ++in_doubt;
      auto checked = check_store(url());
      EXPECT_TRUE(checked.ok()) << checked.error().message;
      if (checked.ok()) {
        for (const auto& p : checked->problems) ADD_FAILURE() << p.source << ": " << p.text;
      }
      Status again = w.write(url());
      EXPECT_TRUE(again.ok()) << "the next write failed: " << again.error().message;
      if (::testing::Test::HasFailure()) return -n;
    }
    ADD_FAILURE() << w.name << " still reached the drop after 2000 statements";
    return -2000;
  }

  // Both sweeps, statements dropped and answers lost, printed as `what`.
  void sweep_both(const Writer& w, const char* what) {
    for (const bool answer_lost : {false, true}) {
      const long statements = sweep(w, answer_lost);
      std::printf(
          "dropped-connection sweep: %s %ld statements, each survived%s; %ld failed "
          "after committing\n",
          what, statements, answer_lost ? " (answers lost)" : "", in_doubt);
      EXPECT_GT(statements, 0);
      // Only a lost answer leaves a write stored that its writer saw fail: the COMMIT's.
      EXPECT_EQ(in_doubt, answer_lost ? 1 : 0);
    }
  }
};

TEST_F(PgFaultsTest, ADroppedConnectionAtEveryStatementOfAddRunsStoresAllOrNothing) {
  const Writer w{"add_runs",
                 [](const std::string& url) -> Status {
                   OpenOptions o;
                   o.create = false;
                   BG_ASSIGN(auto store, open_store(url, o));
                   // Runs of their own each time: an answer lost may have stored them.
                   static int k = 0;
                   char a[40], b[40];
                   std::snprintf(a, sizeof a, "a0000000-0000-4000-8000-%012d", ++k);
                   std::snprintf(b, sizeof b, "a0000000-0000-4000-8000-%012d", ++k);
                   BG_TRY(store->add_runs({whole_run(a, "new"), whole_run(b, "new")}, {}));
                   return ok_status();
                 },
                 [](const std::string& url, State state) {
                   const int64_t runs = pg_count(url, "SELECT COUNT(*) FROM runs");
                   EXPECT_EQ(runs, is_after(state, runs == 3) ? 3 : 1);
                 }};
  sweep_both(w, "add_runs (2 runs)");
}

TEST_F(PgFaultsTest, ADroppedConnectionAtEveryStatementOfARunLeavesItUnfinished) {
  const Writer w{"run",
                 [](const std::string& url) -> Status {
                   OpenOptions o;
                   o.create = false;
                   BG_ASSIGN(auto store, open_store(url, o));
                   // A run of its own each time: a failed one stays, unfinished.
                   static int k = 0;
                   char uuid[40];
                   std::snprintf(uuid, sizeof uuid, "b0000000-0000-4000-8000-%012d", ++k);
                   BG_ASSIGN(const int64_t run, store->begin_run(sample_run(uuid, 7)));
                   BG_ASSIGN(const int64_t v,
                             store->add_variant(run, sample_variant("new", "default")));
                   for (int i = 0; i < 3; ++i) BG_TRY(store->add_instance(v, sample_instance(i)));
                   return store->finish_run(run, 800, "complete");
                 },
                 [](const std::string& url, State state) {
                   // A failed run is not complete; a complete one holds all its instances.
                   const int64_t complete =
                       pg_count(url, "SELECT COUNT(*) FROM runs WHERE status = 'complete'");
                   const bool after = is_after(state, complete == 2);
                   EXPECT_EQ(complete, after ? 2 : 1);
                   const int64_t stored = pg_count(url,
                                                   "SELECT COUNT(*) FROM instances i JOIN variants "
                                                   "v ON v.id = i.variant_id JOIN benchmarks b ON "
                                                   "b.id = v.benchmark_id WHERE b.name = 'new'");
                   if (after) {
                     EXPECT_EQ(stored, 3);
                   } else {
                     EXPECT_LE(stored, 3);
                   }
                 }};
  sweep_both(w, "a run of 3 instances");
}

}  // namespace
}  // namespace benchguard::store
