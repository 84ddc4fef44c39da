#include "report/html/serve.hpp"

#include <fmt/format.h>

#include <chrono>
#include <mutex>
#include <regex>

#include "report/html/page.hpp"

#ifdef BENCHGUARD_WITH_HTTPLIB
#include <httplib.h>
#endif

namespace benchguard::report::html {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What the pages show depends on: the runs, the stored change points and acknowledgements.
Result<std::string> fingerprint(store::Store& store) {
  BG_ASSIGN(const auto runs, store.list_runs());
  BG_ASSIGN(const auto changes, store.load_changes());
  BG_ASSIGN(const auto acks, store.load_acks());
  std::string f;
  for (const auto& r : runs) f += fmt::format("{}:{}:{};", r.id, r.status, r.instances);
  f += fmt::format("|{}|", changes.size());
  for (const auto& c : changes) f += c.id + c.status;
  for (const auto& a : acks) f += fmt::format("{}:{}:{};", a.change_id, a.reason, a.acked_at);
  return f;
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

#ifdef BENCHGUARD_WITH_HTTPLIB

bool server_available() {
  return true;
}

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
    BG_ASSIGN(std::string f, fingerprint(*store));
    if (!site || f != built_for) {
      BG_ASSIGN(Site fresh, build_site(*store, site_options, now_ns()));
      site = std::make_shared<const Site>(std::move(fresh));
      built_for = std::move(f);
    }
    return site;
  };

  httplib::Server server;
  auto headers = [](httplib::Response& res) {
    res.set_header("Content-Security-Policy", kContentSecurityPolicy);
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Cache-Control", "no-store");
    res.set_header("Referrer-Policy", "no-referrer");
  };
  auto fail = [&](httplib::Response& res, int status, const std::string& text) {
    headers(res);
    res.status = status;
    res.set_content(text + "\n", "text/plain; charset=utf-8");
  };
  const std::regex run_page(R"(/(run|plan)-(\d{1,18})\.html)");
  server.Get(R"(/.*)", [&](const httplib::Request& req, httplib::Response& res) {
    std::string path = req.path == "/" ? "/index.html" : req.path;
    std::smatch m;
    if (std::regex_match(path, m, run_page)) {
      std::lock_guard lock(mutex);
      auto store = open_store();
      if (!store) return fail(res, 500, store.error().message);
      auto page = m[1] == "run" ? render_run_page(**store, m[2].str(), site_options)
                                : render_plan_page(**store, m[2].str(), site_options);
      if (!page) return fail(res, 404, page.error().message);
      headers(res);
      res.set_content(*page, content_type(path));
      return;
    }
    auto s = current();
    if (!s) return fail(res, 500, s.error().message);
    const SiteFile* file = (*s)->find(path.substr(1));
    if (file == nullptr) return fail(res, 404, "not found");
    headers(res);
    res.set_content(file->content, content_type(path));
  });
  // Read-only: every other method is refused.
  auto refuse = [&](const httplib::Request&, httplib::Response& res) {
    res.set_header("Allow", "GET, HEAD");
    fail(res, 405, "read-only: only GET and HEAD");
  };
  server.Post(R"(/.*)", refuse);
  server.Put(R"(/.*)", refuse);
  server.Delete(R"(/.*)", refuse);
  server.Patch(R"(/.*)", refuse);

  // Build once before listening, so that a store that cannot be read fails the command.
  BG_TRY(current());
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.bind);
    if (port < 0) return Error{fmt::format("cannot listen on {}", options.bind)};
  } else if (!server.bind_to_port(options.bind, port)) {
    return Error{fmt::format("cannot listen on {}:{} (in use? try --port 0)", options.bind, port)};
  }
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  log << fmt::format("benchguard: serving http://{}:{}/ (read-only; Ctrl-C stops)\n", host, port)
      << std::flush;
  if (!server.listen_after_bind()) return Error{"the server stopped"};
  return ok_status();
}

#else

bool server_available() {
  return false;
}

Status serve(const StoreOpener&, const ServeOptions&, std::ostream&) {
  return Error{
      "this benchguard was built without cpp-httplib (Debian: libcpp-httplib-dev): rebuild "
      "it with the package installed to use `serve`"};
}

#endif

}  // namespace benchguard::report::html
