// serve end to end without a browser: the pages over HTTP on loopback, the policy header,
// writes refused, and the database left as it was.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "report/html/serve.hpp"
#include "store/store.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// `benchguard serve --port 0` on `db`, with its stderr read until it names its port; its
// address space limited to `address_space` bytes when not zero.
class Server {
 public:
  explicit Server(const std::string& db, rlim_t address_space = 0) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      if (address_space != 0) {
        const rlimit limit{address_space, address_space};
        if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(126);
      }
      dup2(fds[1], 2);
      close(fds[0]);
      close(fds[1]);
      execl(BG_BINARY, BG_BINARY, "serve", "--db", db.c_str(), "--port", "0",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string text;
    char buf[256];
    const std::regex serving(R"(serving http://127\.0\.0\.1:(\d+)/)");
    std::smatch m;
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) {
      text.append(buf, static_cast<size_t>(n));
      if (std::regex_search(text, m, serving)) {
        port_ = std::stoi(m[1]);
        break;
      }
    }
    close(fds[0]);
  }
  ~Server() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  int port() const { return port_; }
  // True while the server process runs.
  bool running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

// A socket connected to 127.0.0.1:port, or -1.
int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// One HTTP/1.0 exchange with 127.0.0.1:port; the whole response.
std::string exchange(int port, const std::string& request) {
  const int fd = connect_to(port);
  if (fd < 0) return "";
  (void)!write(fd, request.data(), request.size());
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

TEST(CliServe, ServesThePagesReadOnlyOnLoopback) {
  if (!report::html::dashboard_available() || !report::html::server_available())
    GTEST_SKIP() << "built without the dashboard";
  testing::TempDir dir;
  const std::string db = dir.file("h.db");
  {
    auto store = store::open_store(db);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<RunData> runs;
    runs.reserve(12);
    for (int k = 0; k < 12; ++k) runs.push_back(testing::history_run(k, 12, 2, 3, 3, true));
    ASSERT_TRUE((*store)->add_runs(runs, {}));
  }
  const std::string before = testing::read_file(db);
  {
    Server server(db);
    ASSERT_GT(server.port(), 0);
    const std::string index = exchange(server.port(), "GET / HTTP/1.0\r\n\r\n");
    EXPECT_TRUE(index.starts_with("HTTP/1.1 200")) << index.substr(0, 200);
    EXPECT_NE(index.find("Content-Security-Policy: default-src 'none'; script-src 'self'"),
              std::string::npos);
    EXPECT_NE(index.find("Content-Type: text/html"), std::string::npos);
    EXPECT_NE(index.find("id=\"bg-data\""), std::string::npos);
    EXPECT_EQ(index.find(testing::kHostileNames[0]), std::string::npos);
    // Every run's page, rendered on request; the scripts; nothing else.
    EXPECT_TRUE(
        exchange(server.port(), "GET /run-1.html HTTP/1.0\r\n\r\n").starts_with("HTTP/1.1 200"));
    const std::string js = exchange(server.port(), "GET /assets/common.js HTTP/1.0\r\n\r\n");
    EXPECT_NE(js.find("Content-Type: text/javascript"), std::string::npos);
    EXPECT_TRUE(
        exchange(server.port(), "GET /run-99.html HTTP/1.0\r\n\r\n").starts_with("HTTP/1.1 404"));
    EXPECT_TRUE(exchange(server.port(), "GET /../h.db HTTP/1.0\r\n\r\n").starts_with("HTTP/1.1 4"));
    EXPECT_TRUE(exchange(server.port(), "POST /index.html HTTP/1.0\r\nContent-Length: 0\r\n\r\n")
                    .starts_with("HTTP/1.1 405"));
    EXPECT_TRUE(
        exchange(server.port(), "DELETE /index.html HTTP/1.0\r\n\r\n").starts_with("HTTP/1.1 405"));
  }
  EXPECT_EQ(testing::read_file(db), before);
  EXPECT_FALSE(std::filesystem::exists(db + "-wal"));
}

// A run stored while serve runs is on the next request: the pages it moves are made again,
// the others are the ones served before.
TEST(CliServe, ARunStoredMeanwhileMovesOnlyThePagesItTouches) {
  if (!report::html::dashboard_available() || !report::html::server_available())
    GTEST_SKIP() << "built without the dashboard";
  testing::TempDir dir;
  const std::string db = dir.file("h.db");
  const auto add = [&](const std::vector<RunData>& runs) {
    auto store = store::open_store(db);
    ASSERT_TRUE(store) << store.error().message;
    ASSERT_TRUE((*store)->add_runs(runs, {}));
  };
  std::vector<RunData> runs;
  runs.reserve(12);
  for (int k = 0; k < 12; ++k) runs.push_back(testing::history_run(k, 12, 3, 3, 3, true));
  add(runs);
  Server server(db);
  ASSERT_GT(server.port(), 0);
  const auto get = [&](const std::string& path) {
    std::string r = exchange(server.port(), "GET /" + path + " HTTP/1.0\r\n\r\n");
    EXPECT_TRUE(r.starts_with("HTTP/1.1 200")) << path << ": " << r.substr(0, 200);
    return r;
  };
  const auto pages = [&] {
    std::vector<std::string> out;
    for (const char* path :
         {"data/commits.js", "benchmark-0.html", "benchmark-1.html", "benchmark-2.html"})
      out.push_back(get(path));
    return out;
  };
  const std::vector<std::string> before = pages();
  EXPECT_EQ(pages(), before);
  add({testing::history_run(12, 12, 1, 3, 3, true)});  // one more commit of one benchmark
  const std::vector<std::string> after = pages();
  EXPECT_NE(after[0], before[0]);  // the commits
  int moved = 0;
  for (std::size_t g = 1; g < after.size(); ++g) moved += after[g] != before[g] ? 1 : 0;
  EXPECT_EQ(moved, 1);
}

// Idle clients cost the server a socket each, not a thread: with 200 of them holding half a
// request, under an address-space limit that 200 threads' stacks would exceed, a normal
// request is answered within a second and the server stays up. Framing that a proxy might
// read otherwise is refused, and the pages may not be framed by other sites.
TEST(CliServe, IdleClientsNeitherStallNorStopTheServer) {
  if (!report::html::dashboard_available() || !report::html::server_available())
    GTEST_SKIP() << "built without the dashboard";
  testing::TempDir dir;
  const std::string db = dir.file("h.db");
  {
    auto store = store::open_store(db);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<RunData> runs;
    for (int k = 0; k < 4; ++k) runs.push_back(testing::history_run(k, 4, 2, 3, 3, false));
    ASSERT_TRUE((*store)->add_runs(runs, {}));
  }
  // 1 GiB: a thread a connection (8 MiB of stack each) runs out at about a hundred. An
  // AddressSanitizer build reserves terabytes of shadow memory, so it runs unlimited.
  Server server(db, kAddressSanitizer ? 0 : rlim_t{1} << 30);
  ASSERT_GT(server.port(), 0);
  std::vector<int> idle;
  for (int k = 0; k < 200; ++k) {
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0) << "connection " << k;
    const std::string half = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    (void)!write(fd, half.data(), half.size());
    idle.push_back(fd);
  }
  // Let the server take them all before the request that must not wait for them.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  const std::string index = exchange(server.port(), "GET / HTTP/1.0\r\n\r\n");
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(index.starts_with("HTTP/1.1 200")) << index.substr(0, 200);
  EXPECT_LT(took, std::chrono::seconds(1));
  EXPECT_NE(index.find("frame-ancestors 'none'"), std::string::npos) << index.substr(0, 600);
  EXPECT_NE(index.find("X-Frame-Options: DENY"), std::string::npos) << index.substr(0, 600);
  // Content-Length and Transfer-Encoding together, or any Transfer-Encoding: refused, closed.
  EXPECT_TRUE(exchange(server.port(),
                       "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                       "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
                  .starts_with("HTTP/1.1 400"));
  EXPECT_TRUE(
      exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
          .starts_with("HTTP/1.1 400"));
  for (const int fd : idle) close(fd);
  EXPECT_TRUE(server.running());
  EXPECT_TRUE(
      exchange(server.port(), "GET /index.html HTTP/1.0\r\n\r\n").starts_with("HTTP/1.1 200"));
  EXPECT_TRUE(server.running());
}

TEST(CliServe, AMissingDatabaseIsAnErrorBeforeListening) {
  const auto r = testing::run_cli({"serve", "--db", "missing.db", "--port", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.db"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace benchguard
