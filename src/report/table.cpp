#include "report/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/names.hpp"

namespace benchguard::report {

namespace {

// Display width in code points, so "µs" counts as two columns, not three bytes.
size_t width(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;
  return w;
}

// The columns people see, and those scripts read, by index.
std::vector<size_t> people_columns(const Table& t) {
  std::vector<size_t> shown;
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].shown != Column::For::kScripts) shown.push_back(c);
  return shown;
}

std::vector<size_t> script_columns(const Table& t) {
  std::vector<size_t> shown;
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].shown != Column::For::kPeople) shown.push_back(c);
  return shown;
}

// A number as a script reads it: a count exactly, any other the shortest text that reads
// back as the same double.
std::string number_text(const Cell& c) {
  if (c.integer) return fmt::format("{}", static_cast<std::int64_t>(*c.number));
  return fmt::format("{}", *c.number);
}

void pad(std::ostream& out, const std::string& s, size_t w, bool right) {
  const size_t fill = w > width(s) ? w - width(s) : 0;
  if (right)
    out << std::string(fill, ' ') << s;
  else
    out << s << std::string(fill, ' ');
}

}  // namespace

std::string terminal_text(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const auto cp = next_code_point(s, i);
    if (!cp || is_control(*cp) || is_bidi_control(*cp))
      out += "\xEF\xBF\xBD";  // U+FFFD
    else
      out.append(s, at, i - at);
  }
  return out;
}

std::string markdown_text(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : terminal_text(s)) {
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
      case '|':  // would split the cell
      case '\\':
      case '`':  // would open code
      case '[':  // would open a link or an image
      case ']':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

void render_text(const Table& t, std::ostream& out) {
  const auto shown = people_columns(t);
  std::vector<size_t> w(shown.size(), 0);
  for (size_t c = 0; c < shown.size(); ++c) w[c] = width(t.columns[shown[c]].header);
  for (const auto& r : t.rows)
    for (size_t c = 0; c < shown.size(); ++c)
      if (shown[c] < r.size()) w[c] = std::max(w[c], width(terminal_text(r[shown[c]].text)));
  auto line = [&](auto&& cell_at) {
    for (size_t c = 0; c < shown.size(); ++c) {
      if (c > 0) out << "  ";
      const std::string cell = cell_at(shown[c]);
      const bool right = t.columns[shown[c]].right;
      if (c + 1 == shown.size() && !right)
        out << cell;
      else
        pad(out, cell, w[c], right);
    }
    out << "\n";
  };
  line([&](size_t c) { return t.columns[c].header; });
  for (const auto& r : t.rows)
    line([&](size_t c) { return c < r.size() ? terminal_text(r[c].text) : std::string(); });
  for (const auto& n : t.notes) out << "note: " << n << "\n";
}

void render_markdown(const Table& t, std::ostream& out) {
  const auto shown = people_columns(t);
  auto line = [&](auto&& cell_at) {
    out << "|";
    for (const size_t c : shown) out << " " << cell_at(c) << " |";
    out << "\n";
  };
  line([&](size_t c) { return markdown_text(t.columns[c].header); });
  out << "|";
  for (const size_t c : shown) out << (t.columns[c].right ? "---:|" : "---|");
  out << "\n";
  for (const auto& r : t.rows)
    line([&](size_t c) {
      if (c >= r.size()) return std::string();
      const std::string text = markdown_text(r[c].text);
      return r[c].strong ? "**" + text + "**" : text;
    });
  for (const auto& n : t.notes) out << "\n_" << n << "_\n";
}

std::string csv_field(const std::string& s) {
  // A cell a spreadsheet would evaluate (=, +, -, @, tab or CR first) is guarded by a leading
  // quote, unless it is a plain number such as -1.5. Line breaks and tabs stay (quoted); other
  // control characters and bytes that are not UTF-8 become U+FFFD, as on a terminal.
  std::string cell;
  cell.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const auto cp = next_code_point(s, i);
    const bool kept = cp && (*cp == U'\t' || *cp == U'\r' || *cp == U'\n' ||
                             !(is_control(*cp) || is_bidi_control(*cp)));
    if (kept)
      cell.append(s, at, i - at);
    else
      cell += "\xEF\xBF\xBD";
  }
  if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos) {
    char* end = nullptr;
    const double value = std::strtod(cell.c_str(), &end);
    const bool number = (cell.front() == '-' || cell.front() == '+') &&
                        end == cell.c_str() + cell.size() && std::isfinite(value);
    if (!number) cell.insert(0, 1, '\'');
  }
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string q = "\"";
  for (char c : cell) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void render_csv(const Table& t, std::ostream& out) {
  const auto keys = script_columns(t);
  for (size_t c = 0; c < keys.size(); ++c)
    out << (c ? "," : "") << csv_field(t.columns[keys[c]].key);
  out << "\n";
  for (const auto& r : t.rows) {
    for (size_t c = 0; c < keys.size(); ++c) {
      if (c > 0) out << ",";
      if (keys[c] >= r.size()) continue;
      const Cell& cell = r[keys[c]];
      if (cell.missing) continue;
      out << (cell.number ? number_text(cell) : csv_field(cell.script.value_or(cell.text)));
    }
    out << "\n";
  }
}

void render_jsonl(const Table& t, std::ostream& out) {
  const auto keys = script_columns(t);
  for (const auto& r : t.rows) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const size_t c : keys) {
      auto& field = j[t.columns[c].key];
      if (c >= r.size() || r[c].missing)
        field = nullptr;
      else if (r[c].number && r[c].integer)
        field = static_cast<std::int64_t>(*r[c].number);
      else if (r[c].number)
        field = *r[c].number;
      else
        field = r[c].script.value_or(r[c].text);
    }
    out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
}

std::string column_key(const std::string& header) {
  std::string key;
  for (const char c : header) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (word)
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!key.empty() && key.back() != '_')
      key += '_';
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}

Cell Cell::value(double v, std::string shown) {
  if (!std::isfinite(v)) return none();
  Cell c(std::move(shown));
  c.number = v;
  return c;
}

Cell Cell::count(std::int64_t n) {
  Cell c(std::to_string(n));
  c.number = static_cast<double>(n);
  c.integer = true;
  return c;
}

Cell Cell::none(std::string shown) {
  Cell c(std::move(shown));
  c.missing = true;
  return c;
}

}  // namespace benchguard::report
