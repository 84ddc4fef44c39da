// The text reporter: what a terminal shows. Data is made safe for it (terminal_text).
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

void write_text(const Document& d, std::ostream& out) {
  const auto spans = [&](const std::vector<Span>& line) {
    for (const auto& s : line) out << (s.data ? terminal_text(s.text) : s.text);
  };
  for (const auto& b : d.blocks) {
    if (!b.text) continue;
    switch (b.kind) {
      case Block::Kind::kLine:
        spans(b.spans);
        out << "\n";
        break;
      case Block::Kind::kItem:
        out << "  ";
        spans(b.spans);
        out << "\n";
        break;
      case Block::Kind::kTable:
        render_text(d.tables[b.table], out);
        break;
      case Block::Kind::kRaw:
        out << b.raw;
        break;
    }
  }
}

}  // namespace benchguard::report
