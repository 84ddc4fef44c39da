#include "report/table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace benchguard::report {
namespace {

Table sample_table() {
  Table t;
  t.header = {"name", "time"};
  t.right = {false, true};
  t.add_row({"a", "1.000 µs"});
  t.add_row({"long|name", "22 ms"});
  return t;
}

TEST(ReportTable, TextAlignsColumnsByDisplayWidth) {
  std::ostringstream out;
  render_text(sample_table(), out);
  EXPECT_EQ(out.str(),
            "name           time\n"
            "a          1.000 µs\n"
            "long|name     22 ms\n");
}

TEST(ReportTable, MarkdownEscapesPipesAndAlignsNumbersRight) {
  std::ostringstream out;
  render_markdown(sample_table(), out);
  EXPECT_EQ(out.str(),
            "| name | time |\n"
            "|---|---:|\n"
            "| a | 1.000 µs |\n"
            "| long\\|name | 22 ms |\n");
}

TEST(ReportTable, MarkdownCellsFromDataOpenNoHtmlLinkOrCode) {
  EXPECT_EQ(markdown_text("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(markdown_text("[click](https://evil)"), "\\[click\\](https://evil)");
  EXPECT_EQ(markdown_text("`rm -rf` & co"), "\\`rm -rf\\` &amp; co");
  EXPECT_EQ(markdown_text("trailing\\"), "trailing\\\\");  // cannot escape the cell's |
  EXPECT_EQ(markdown_text("sort_bench **x**"), "sort_bench **x**");
  // A newline in a name would end the row and start a forged one.
  Table t;
  t.header = {"benchmark", "verdict"};
  t.add_row({"a\n| forged | slower |", "unchanged"});
  std::ostringstream out;
  render_markdown(t, out);
  EXPECT_EQ(out.str(),
            "| benchmark | verdict |\n|---|---|\n| a\xEF\xBF\xBD\\| forged \\| slower \\| | "
            "unchanged |\n");
}

TEST(ReportTable, TerminalTablesNeverCarryControlCharacters) {
  Table t;
  t.header = {"name", "x"};
  t.add_row({"evil\x1b]0;title\x07", "1"});
  std::ostringstream out;
  render_text(t, out);
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(out.str().find('\x07'), std::string::npos);
  EXPECT_NE(out.str().find("evil\xEF\xBF\xBD]0;title\xEF\xBF\xBD"), std::string::npos);
}

TEST(ReportTable, CsvGuardsCellsASpreadsheetWouldRun) {
  EXPECT_EQ(csv_field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("+cmd"), "'+cmd");
  EXPECT_EQ(csv_field("-2+3"), "'-2+3");
  EXPECT_EQ(csv_field("\tx"), "'\tx");
  // Numbers stay numbers.
  EXPECT_EQ(csv_field("-1.5"), "-1.5");
  EXPECT_EQ(csv_field("+2e-3"), "+2e-3");
  EXPECT_EQ(csv_field("-inf"), "'-inf");
}

TEST(ReportTable, CsvQuotesOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  Table t;
  t.header = {"a", "b"};
  t.add_row({"1", "x,y"});
  std::ostringstream out;
  render_csv(t, out);
  EXPECT_EQ(out.str(), "a,b\n1,\"x,y\"\n");
}

}  // namespace
}  // namespace benchguard::report
