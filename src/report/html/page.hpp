// The HTML shell every dashboard page shares: a strict Content-Security-Policy, the navigation,
// the page's data as a non-executable JSON element, and the page's own script. Every text from
// the data reaches the page through that JSON and is inserted by the scripts as text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace benchguard::report::html {

// What a page's <meta> Content-Security-Policy allows (and `serve` sends as a header): scripts
// and styles of the site's own files only, nothing inline, no connection anywhere.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'";

// `text` with & < > " ' as character references: safe in element content and attributes.
std::string escape_html(std::string_view text);

// JSON text for inside a <script type="application/json"> element or a script file: < > &
// written as \u escapes, so that no "</script>" or "<!--" can appear in it.
std::string json_for_html(const nlohmann::json& data);
// The same of JSON text already made (json_text).
std::string json_text_for_html(std::string_view text);

struct PageSpec {
  std::string kind;   // overview | regressions | benchmark | run | ...: selects the script
  std::string title;  // shown as the heading and in the tab
  nlohmann::json data;
  bool charts = false;   // loads uPlot
  bool commits = false;  // loads data/commits.js (the commits table of the history)
};

std::string render_page(const PageSpec& page);
// The same with the page's data given as json_for_html made it (page.data is not read): for
// data put together from parts made earlier.
std::string render_page(const PageSpec& page, std::string_view data_for_html);

}  // namespace benchguard::report::html
