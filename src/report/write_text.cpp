// The text reporter: what a terminal shows. Data is made safe for it (terminal_text).
#include <ostream>

#include "report/write.hpp"

namespace benchguard::report {

void write_text(const Document& d, std::ostream& out) {
  const PeopleSyntax text{&Block::text, "  ",
                          [](const Span& s) { return s.data ? terminal_text(s.text) : s.text; },
                          render_text};
  write_people(d, text, out);
}

}  // namespace benchguard::report
