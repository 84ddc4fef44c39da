// The Markdown reporter, GitHub's dialect: data escaped (markdown_text), strong spans bold,
// items as a bullet list, tables as pipe tables.
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

void write_markdown(const Document& d, std::ostream& out) {
  const PeopleSyntax markdown{&Block::markdown, "- ",
                              [](const Span& s) {
                                const std::string text = s.data ? markdown_text(s.text) : s.text;
                                return s.strong ? "**" + text + "**" : text;
                              },
                              render_markdown};
  write_people(d, markdown, out);
}

}  // namespace benchguard::report
