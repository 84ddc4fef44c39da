// The Markdown reporter, GitHub's dialect: data escaped (markdown_text), strong spans bold,
// items as a bullet list, tables as pipe tables.
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

void write_markdown(const Document& d, std::ostream& out) {
  const auto spans = [&](const std::vector<Span>& line) {
    for (const auto& s : line) {
      const std::string text = s.data ? markdown_text(s.text) : s.text;
      out << (s.strong ? "**" + text + "**" : text);
    }
  };
  for (const auto& b : d.blocks) {
    if (!b.markdown) continue;
    switch (b.kind) {
      case Block::Kind::kLine:
        spans(b.spans);
        out << "\n";
        break;
      case Block::Kind::kItem:
        out << "- ";
        spans(b.spans);
        out << "\n";
        break;
      case Block::Kind::kTable:
        render_markdown(d.tables[b.table], out);
        break;
      case Block::Kind::kRaw:
        out << b.raw;
        break;
    }
  }
}

}  // namespace benchguard::report
