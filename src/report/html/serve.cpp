#include "report/html/serve.hpp"

#include <fmt/format.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <regex>
#include <thread>

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

// One connection: requests answered in turn while the client keeps it alive.
void session(tcp::socket socket, const std::function<Reply(const std::string& path)>& answer) {
  beast::error_code ec;
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    http::read(socket, buffer, req, ec);
    if (ec) break;
    const bool head = req.method() == http::verb::head;
    Reply r;
    if (req.method() != http::verb::get && !head) {
      // Read-only: every other method is refused.
      r = {405, "text/plain; charset=utf-8", "read-only: only GET and HEAD\n", true};
    } else {
      std::string path(req.target());
      path = path.substr(0, path.find('?'));
      r = answer(path);
    }
    http::response<http::string_body> res{static_cast<http::status>(r.status), 11};
    res.set(http::field::server, "benchguard");
    res.set(http::field::content_type, r.type);
    res.set("Content-Security-Policy", kContentSecurityPolicy);
    res.set("X-Content-Type-Options", "nosniff");
    res.set(http::field::cache_control, "no-store");
    res.set("Referrer-Policy", "no-referrer");
    if (r.allow_header) res.set(http::field::allow, "GET, HEAD");
    res.keep_alive(req.keep_alive());
    res.content_length(r.body.size());
    if (!head) res.body() = std::move(r.body);
    http::write(socket, res, ec);
    if (ec || !res.keep_alive()) break;
  }
  socket.shutdown(tcp::socket::shutdown_send, ec);
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
  for (;;) {
    tcp::socket socket(io);
    acceptor.accept(socket, ec);
    if (ec) {
      if (ec == boost::asio::error::operation_aborted) break;
      continue;  // a connection that failed before it was accepted
    }
    std::thread(session, std::move(socket), std::cref(answer)).detach();
  }
  return Error{"the server stopped"};
}

}  // namespace benchguard::report::html
