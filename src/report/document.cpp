#include "report/document.hpp"

#include "report/write.hpp"

namespace benchguard::report {

Document& Document::line(std::vector<Span> spans) {
  Block b;
  b.spans = std::move(spans);
  blocks.push_back(std::move(b));
  return *this;
}

Document& Document::item(std::vector<Span> spans) {
  Block b;
  b.kind = Block::Kind::kItem;
  b.spans = std::move(spans);
  blocks.push_back(std::move(b));
  return *this;
}

Document& Document::table(Table t, bool is_records) {
  Block b;
  b.kind = Block::Kind::kTable;
  b.table = tables.size();
  if (is_records) records = static_cast<int>(tables.size());
  tables.push_back(std::move(t));
  blocks.push_back(std::move(b));
  return *this;
}

Document& Document::raw(Format in, std::string text) {
  Block b;
  b.kind = Block::Kind::kRaw;
  b.raw = std::move(text);
  b.text = in == Format::kTable;
  b.markdown = in == Format::kMarkdown;
  blocks.push_back(std::move(b));
  return *this;
}

Document& Document::append(Document other) {
  const std::size_t shift = tables.size();
  for (auto& t : other.tables) tables.push_back(std::move(t));
  for (auto& b : other.blocks) {
    if (b.kind == Block::Kind::kTable) b.table += shift;
    blocks.push_back(std::move(b));
  }
  return *this;
}

void Document::only(std::size_t from, Format in) {
  for (std::size_t i = from; i < blocks.size(); ++i) {
    blocks[i].text = blocks[i].text && in == Format::kTable;
    blocks[i].markdown = blocks[i].markdown && in == Format::kMarkdown;
  }
}

void write_people(const Document& d, const PeopleSyntax& syntax, std::ostream& out) {
  const auto line = [&](const char* before, const std::vector<Span>& spans) {
    out << before;
    for (const auto& s : spans) out << syntax.span(s);
    out << "\n";
  };
  for (const auto& b : d.blocks) {
    if (!(b.*syntax.shown)) continue;
    switch (b.kind) {
      case Block::Kind::kLine:
        line("", b.spans);
        break;
      case Block::Kind::kItem:
        line(syntax.bullet, b.spans);
        break;
      case Block::Kind::kTable:
        syntax.table(d.tables[b.table], out);
        break;
      case Block::Kind::kRaw:
        out << b.raw;
        break;
    }
  }
}

void write(const Document& d, Format format, std::ostream& out) {
  switch (format) {
    case Format::kTable:
      write_text(d, out);
      return;
    case Format::kMarkdown:
      write_markdown(d, out);
      return;
    case Format::kCsv:
      write_csv(d, out);
      return;
    case Format::kJson:
      write_json(d, out);
      return;
    case Format::kJsonl:
      write_jsonl(d, out);
      return;
  }
}

}  // namespace benchguard::report
