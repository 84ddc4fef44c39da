#include "report/table.hpp"

#include <algorithm>

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

void render_text(const Table& t, std::ostream& out) {
  std::vector<size_t> w(t.header.size(), 0);
  for (size_t c = 0; c < t.header.size(); ++c) w[c] = width(t.header[c]);
  for (const auto& r : t.rows)
    for (size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < w.size(); ++c) {
      if (c > 0) out << "  ";
      const std::string& cell = c < cells.size() ? cells[c] : text;
      if (c + 1 == w.size() && !right_aligned(t, c))
        out << cell;
      else
        pad(out, cell, w[c], right_aligned(t, c));
    }
    out << "\n";
  };
  line(t.header);
  for (const auto& r : t.rows) line(r);
}

void render_markdown(const Table& t, std::ostream& out) {
  auto line = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (size_t c = 0; c < t.header.size(); ++c) {
      std::string cell = c < cells.size() ? cells[c] : "";
      // A pipe inside a cell would split it.
      std::string escaped;
      for (char ch : cell) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
      out << " " << escaped << " |";
    }
    out << "\n";
  };
  line(t.header);
  out << "|";
  for (size_t c = 0; c < t.header.size(); ++c) out << (right_aligned(t, c) ? "---:|" : "---|");
  out << "\n";
  for (const auto& r : t.rows) line(r);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
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
