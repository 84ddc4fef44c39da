// `serve`: the dashboard's pages over HTTP, built from the store as it is now. Read-only: the
// store is opened read-only for every build, and nothing but GET and HEAD is answered.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "core/result.hpp"
#include "report/html/site.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

struct ServeOptions {
  std::string bind = "127.0.0.1";  // loopback unless another address is named
  int port = 8080;                 // 0: any free port
  SiteOptions site;
};

using store::StoreOpener;

// True: `serve` is built in (Boost.Beast, header-only). Kept for callers that ask.
bool server_available();

// Serves until the process is stopped. Writes "serving http://ADDR:PORT/" to `log` once
// listening. The site is rebuilt when the store's runs, change points or acknowledgements
// change; run pages are rendered on request.
Status serve(const StoreOpener& open_store, const ServeOptions& options, std::ostream& log);

// What a path of the site is served as ("text/html; charset=utf-8", ...).
std::string content_type(const std::string& path);

}  // namespace benchguard::report::html
