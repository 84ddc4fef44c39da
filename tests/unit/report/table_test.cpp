#include "report/table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace benchguard::report {
namespace {

Table sample() {
  Table t;
  t.header = {"name", "time"};
  t.right = {false, true};
  t.add_row({"a", "1.000 µs"});
  t.add_row({"long|name", "22 ms"});
  return t;
}

TEST(ReportTable, TextAlignsColumnsByDisplayWidth) {
  std::ostringstream out;
  render_text(sample(), out);
  EXPECT_EQ(out.str(),
            "name           time\n"
            "a          1.000 µs\n"
            "long|name     22 ms\n");
}

TEST(ReportTable, MarkdownEscapesPipesAndAlignsNumbersRight) {
  std::ostringstream out;
  render_markdown(sample(), out);
  EXPECT_EQ(out.str(),
            "| name | time |\n"
            "|---|---:|\n"
            "| a | 1.000 µs |\n"
            "| long\\|name | 22 ms |\n");
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
