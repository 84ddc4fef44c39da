#include "report/html/serve.hpp"

#include <fmt/format.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>

#include "report/html/page.hpp"

namespace benchguard::report::html {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string content_type(const std::string& path) {
  auto ends = [&](const char* s) { return path.ends_with(s); };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".json")) return "application/json";
  if (ends(".png")) return "image/png";
  return "text/plain; charset=utf-8";
}

bool server_available() {
  return true;
}

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

struct Reply {
  int status = 200;
  std::string type = "text/plain; charset=utf-8";
  std::string body;
  bool allow_header = false;  // 405: say what is allowed
};

using Answer = std::function<Reply(const std::string& path)>;

// What no client can exceed: a request (its headers, or the wait for the next one on a kept
// connection) arrives within kReadTimeout, a response is taken within kWriteTimeout, and at
// most kMaxConnections are open at once (the next are closed as they come, until one ends).
// Connections are handled asynchronously on one thread, so an idle one costs a socket and a
// buffer, not a thread; the answers are made by a few threads of a pool.
constexpr auto kReadTimeout = std::chrono::seconds(10);
constexpr auto kWriteTimeout = std::chrono::seconds(30);
constexpr int kMaxConnections = 512;
constexpr unsigned kAnswerThreads = 4;
constexpr std::uint32_t kHeaderLimit = 16 * 1024;
constexpr std::uint64_t kBodyLimit = 64 * 1024;

struct Server {
  const Answer& answer;
  boost::asio::thread_pool pool{kAnswerThreads};
  std::atomic<int> connections{0};
};

// Every response is HTTP/1.1, whatever the request's version.
http::response<http::string_body> respond(Reply r, bool head, bool keep_alive) {
  http::response<http::string_body> res{static_cast<http::status>(r.status), 11};
  res.set(http::field::server, "benchguard");
  res.set(http::field::content_type, r.type);
  // frame-ancestors and X-Frame-Options keep the pages out of other sites' frames; a <meta>
  // policy cannot say so, the header does.
  res.set("Content-Security-Policy",
          std::string(kContentSecurityPolicy) + "; frame-ancestors 'none'");
  res.set("X-Frame-Options", "DENY");
  res.set("X-Content-Type-Options", "nosniff");
  res.set(http::field::cache_control, "no-store");
  res.set("Referrer-Policy", "no-referrer");
  if (r.allow_header) res.set(http::field::allow, "GET, HEAD");
  res.keep_alive(keep_alive);
  res.content_length(r.body.size());
  if (!head) res.body() = std::move(r.body);
  return res;
}

// One connection: requests answered in turn while the client keeps it alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Server& server) : stream_(std::move(socket)), server_(server) {
    ++server_.connections;
  }
  ~Session() { --server_.connections; }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(kReadTimeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset ||
        ec == boost::asio::error::operation_aborted)
      return close();
    if (ec) {
      // Framing refused (conflicting Content-Length and Transfer-Encoding, headers or a body
      // over the limits, ...): said once, and the connection closed.
      write(
          respond({400, "text/plain; charset=utf-8", "bad request: " + ec.message() + "\n", false},
                  false, false));
      return;
    }
    http::request<http::string_body> req = parser_->release();
    // GET and HEAD have no body: a Transfer-Encoding (which Beast reads as no body unless
    // chunked) is framing a proxy in front might read otherwise, so it is refused too.
    if (req.count(http::field::transfer_encoding) != 0) {
      write(respond({400, "text/plain; charset=utf-8", "bad request: Transfer-Encoding\n", false},
                    false, false));
      return;
    }
    // The answer is made in the pool (it may build the site); the response is written back on
    // the connection's own thread.
    boost::asio::post(server_.pool, [self = shared_from_this(), req = std::move(req)]() {
      const bool head = req.method() == http::verb::head;
      Reply r;
      if (req.method() != http::verb::get && !head) {
        // Read-only: every other method is refused.
        r = {405, "text/plain; charset=utf-8", "read-only: only GET and HEAD\n", true};
      } else {
        std::string path(req.target());
        path = path.substr(0, path.find('?'));
        try {
          r = self->server_.answer(path);
        } catch (const std::exception& e) {
          r = {500, "text/plain; charset=utf-8", std::string(e.what()) + "\n", false};
        }
      }
      auto res = std::make_shared<http::response<http::string_body>>(
          respond(std::move(r), head, req.keep_alive()));
      boost::asio::post(self->stream_.get_executor(),
                        [self, res]() mutable { self->write(std::move(*res)); });
    });
  }

  void write(http::response<http::string_body> res) {
    response_ = std::move(res);
    stream_.expires_after(kWriteTimeout);
    http::async_write(stream_, response_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec || !self->response_.keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  Server& server_;
};

// Accepts connections until the acceptor closes. A failed accept (no file descriptor left, a
// connection reset before it was taken) waits a moment and goes on: it never ends the server.
void accept(tcp::acceptor& acceptor, Server& server, boost::asio::steady_timer& pause) {
  acceptor.async_accept([&](beast::error_code ec, tcp::socket socket) {
    if (ec == boost::asio::error::operation_aborted) return;
    if (ec) {
      pause.expires_after(std::chrono::milliseconds(50));
      pause.async_wait([&](beast::error_code) { accept(acceptor, server, pause); });
      return;
    }
    if (server.connections.load() >= kMaxConnections) {
      beast::error_code ignored;
      socket.close(ignored);  // at the cap: the client may try again once one has ended
    } else {
      std::make_shared<Session>(std::move(socket), server)->read();
    }
    accept(acceptor, server, pause);
  });
}

}  // namespace

Status serve(const StoreOpener& open_store, const ServeOptions& options, std::ostream& log) {
  std::mutex mutex;
  std::string built_for;
  std::shared_ptr<const Site> site;
  SiteOptions site_options = options.site;
  site_options.all_run_pages = true;
  site_options.open_reader = open_store;

  // The site as the store is now: rebuilt when what it shows has changed.
  auto current = [&]() -> Result<std::shared_ptr<const Site>> {
    std::lock_guard lock(mutex);
    BG_ASSIGN(auto store, open_store());
    BG_ASSIGN(std::string f, store_fingerprint(*store));
    if (!site || f != built_for) {
      // The pages whose keys did not move are taken from the build being replaced.
      const PreviousSite previous = site ? previous_in_memory(*site) : PreviousSite{};
      BG_ASSIGN(Site fresh, build_site(*store, site_options, now_ns(), site ? &previous : nullptr));
      site = std::make_shared<const Site>(std::move(fresh));
      built_for = std::move(f);
    }
    return site;
  };
  const std::regex run_page(R"(/(run|plan)-(\d{1,18})\.html)");
  const auto fail = [](int status, const std::string& text) {
    return Reply{status, "text/plain; charset=utf-8", text + "\n", false};
  };
  const std::function<Reply(const std::string&)> answer = [&](const std::string& target) {
    const std::string path = target == "/" ? "/index.html" : target;
    std::smatch m;
    if (std::regex_match(path, m, run_page)) {
      std::lock_guard lock(mutex);
      auto store = open_store();
      if (!store) return fail(500, store.error().message);
      auto page = m[1] == "run" ? render_run_page(**store, m[2].str(), site_options)
                                : render_plan_page(**store, m[2].str(), site_options);
      if (!page) return fail(404, page.error().message);
      return Reply{200, content_type(path), std::move(*page), false};
    }
    auto s = current();
    if (!s) return fail(500, s.error().message);
    const SiteFile* file = (*s)->find(path.substr(1));
    if (file == nullptr) return fail(404, "not found");
    return Reply{200, content_type(path), file->content, false};
  };

  // Build once before listening, so that a store that cannot be read fails the command.
  BG_TRY(current());
  boost::asio::io_context io;
  beast::error_code ec;
  const auto address = boost::asio::ip::make_address(options.bind, ec);
  if (ec) return Error{fmt::format("cannot listen on {}: not an IP address", options.bind)};
  tcp::acceptor acceptor(io);
  const tcp::endpoint wanted(address, static_cast<unsigned short>(options.port));
  if (acceptor.open(wanted.protocol(), ec); !ec)
    if (acceptor.set_option(tcp::acceptor::reuse_address(true), ec); !ec)
      if (acceptor.bind(wanted, ec); !ec) acceptor.listen(tcp::socket::max_listen_connections, ec);
  if (ec)
    return Error{options.port == 0
                     ? fmt::format("cannot listen on {}: {}", options.bind, ec.message())
                     : fmt::format("cannot listen on {}:{} (in use? try --port 0): {}",
                                   options.bind, options.port, ec.message())};
  const int port = acceptor.local_endpoint().port();
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  log << fmt::format("benchguard: serving http://{}:{}/ (read-only; Ctrl-C stops)\n", host, port)
      << std::flush;
  Server server{answer};
  boost::asio::steady_timer pause(io);
  accept(acceptor, server, pause);
  // A failure in one connection (std::system_error from the network, say) ends that
  // connection's handler, not the server.
  for (;;) {
    try {
      io.run();
      break;
    } catch (const std::exception& e) {
      log << fmt::format("benchguard: serve: {}\n", e.what()) << std::flush;
    }
  }
  server.pool.join();
  return Error{"the server stopped"};
}

}  // namespace benchguard::report::html
