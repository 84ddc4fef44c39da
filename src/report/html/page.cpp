#include "report/html/page.hpp"

#include <fmt/format.h>

#include "core/json_error.hpp"

namespace benchguard::report::html {

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string json_for_html(const nlohmann::json& data) {
  return json_text_for_html(json_text(data));
}

std::string json_text_for_html(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  // Outside strings JSON has none of these characters, so escaping them everywhere keeps the
  // value and leaves nothing an HTML parser could take for markup.
  for (char c : text) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_page(const PageSpec& page) {
  return render_page(page, json_for_html(page.data));
}

std::string render_page(const PageSpec& page, std::string_view data_for_html) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<link rel=\"icon\" href=\"data:,\">\n<title>{} - benchguard</title>\n",
      kContentSecurityPolicy, escape_html(page.title));
  if (page.charts) out += "<link rel=\"stylesheet\" href=\"assets/uPlot.min.css\">\n";
  out += "<link rel=\"stylesheet\" href=\"assets/dashboard.css\">\n</head>\n";
  out += fmt::format("<body data-page=\"{}\">\n", escape_html(page.kind));
  out +=
      "<header><a class=\"brand\" href=\"index.html\">benchguard</a><nav>"
      "<a href=\"index.html\" data-nav=\"overview\">Overview</a>"
      "<a href=\"regressions.html\" data-nav=\"regressions\">Regressions</a>"
      "<a href=\"compare.html\" data-nav=\"compare\">Compare</a>"
      "<a href=\"runs.html\" data-nav=\"runs\">Runs</a>"
      "</nav></header>\n";
  out += fmt::format(
      "<main id=\"main\"><h1 id=\"title\">{}</h1>"
      "<noscript><p>This page draws its tables and charts with JavaScript.</p></noscript>"
      "</main>\n",
      escape_html(page.title));
  out += "<script type=\"application/json\" id=\"bg-data\">";
  out += data_for_html;
  out += "</script>\n";
  if (page.commits) out += "<script src=\"data/commits.js\"></script>\n";
  if (page.charts) out += "<script src=\"assets/uPlot.iife.min.js\"></script>\n";
  out += "<script src=\"assets/common.js\"></script>\n";
  out += fmt::format("<script src=\"assets/{}.js\"></script>\n</body>\n</html>\n",
                     escape_html(page.kind));
  return out;
}

}  // namespace benchguard::report::html
