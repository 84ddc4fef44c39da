#include "report/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
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

bool right_aligned(const Table& t, size_t col) {
  return col < t.right.size() && t.right[col];
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
  std::vector<size_t> w(t.header.size(), 0);
  for (size_t c = 0; c < t.header.size(); ++c) w[c] = width(t.header[c]);
  for (const auto& r : t.rows)
    for (size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < w.size(); ++c) {
      if (c > 0) out << "  ";
      const std::string cell = c < cells.size() ? terminal_text(cells[c]) : text;
      if (c + 1 == w.size() && !right_aligned(t, c))
        out << cell;
      else
        pad(out, cell, w[c], right_aligned(t, c));
    }
    out << "\n";
  };
  line(t.header);
  for (const auto& r : t.rows) line(r);
  for (const auto& n : t.notes) out << "note: " << n << "\n";
}

void render_markdown(const Table& t, std::ostream& out) {
  auto line = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (size_t c = 0; c < t.header.size(); ++c) {
      out << " " << (c < cells.size() ? markdown_text(cells[c]) : "") << " |";
    }
    out << "\n";
  };
  line(t.header);
  out << "|";
  for (size_t c = 0; c < t.header.size(); ++c) out << (right_aligned(t, c) ? "---:|" : "---|");
  out << "\n";
  for (const auto& r : t.rows) line(r);
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
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) out << (c ? "," : "") << csv_field(cells[c]);
    out << "\n";
  };
  line(t.header);
  for (const auto& r : t.rows) line(r);
}

bool render(const Table& t, const std::string& format, std::ostream& out) {
  if (format == "table")
    render_text(t, out);
  else if (format == "md")
    render_markdown(t, out);
  else if (format == "csv")
    render_csv(t, out);
  else
    return false;
  return true;
}

}  // namespace benchguard::report
