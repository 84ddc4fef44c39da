#include "report/table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/write.hpp"

namespace benchguard::report {
namespace {

Table sample_table() {
  Table t;
  t.columns = {Column::left("name", "name"), Column::number("time", "time")};
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
  t.columns = {Column::left("benchmark", "benchmark"), Column::left("verdict", "verdict")};
  t.add_row({"a\n| forged | slower |", "unchanged"});
  std::ostringstream out;
  render_markdown(t, out);
  EXPECT_EQ(out.str(),
            "| benchmark | verdict |\n|---|---|\n| a\xEF\xBF\xBD\\| forged \\| slower \\| | "
            "unchanged |\n");
}

TEST(ReportTable, TerminalTablesNeverCarryControlCharacters) {
  Table t;
  t.columns = {Column::left("name", "name"), Column::left("x", "x")};
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
  t.columns = {Column::left("a", "a"), Column::left("b", "b")};
  t.add_row({"1", "x,y"});
  std::ostringstream out;
  render_csv(t, out);
  EXPECT_EQ(out.str(), "a,b\n1,\"x,y\"\n");
}

// What scripts read: keys, numbers in base units at full precision, missing cells empty or
// null, and only the columns meant for them; people see their own columns and texts.
Table typed_table() {
  Table t;
  t.columns = {Column::left("benchmark", "benchmark"),
               Column::number("median", "median_s"),
               Column::number("95% CI", "ci").people_only(),
               Column::number("95% CI", "ci_lower").scripts_only(),
               Column::number("n", "instances"),
               Column::left("run", "run")};
  t.add_row({"a", Cell::value(0.0243611, "24.361 ms"), Cell::none("0.98 .. 1.02"),
             Cell::value(0.1 + 0.2, ""), Cell::count(10), Cell::both("1f2e3d4c", "1f2e3d4c-aaaa")});
  t.add_row(
      {"b", Cell::value(std::nan(""), "?"), Cell::none(), Cell::none(""), Cell::count(0), "x"});
  return t;
}

TEST(ReportTable, CsvCarriesBaseUnitsAtFullPrecisionAndEmptyForMissing) {
  std::ostringstream out;
  render_csv(typed_table(), out);
  EXPECT_EQ(out.str(),
            "benchmark,median_s,ci_lower,instances,run\n"
            "a,0.0243611,0.30000000000000004,10,1f2e3d4c-aaaa\n"
            "b,,,0,x\n");
}

TEST(ReportTable, JsonLinesCarryNumbersAsNumbersAndNullForMissing) {
  std::ostringstream out;
  render_jsonl(typed_table(), out);
  EXPECT_EQ(out.str(),
            "{\"benchmark\":\"a\",\"median_s\":0.0243611,\"ci_lower\":0.30000000000000004,"
            "\"instances\":10,\"run\":\"1f2e3d4c-aaaa\"}\n"
            "{\"benchmark\":\"b\",\"median_s\":null,\"ci_lower\":null,\"instances\":0,"
            "\"run\":\"x\"}\n");
}

TEST(ReportTable, PeopleSeeTheirColumnsAndTexts) {
  std::ostringstream out;
  render_text(typed_table(), out);
  EXPECT_EQ(out.str(),
            "benchmark     median        95% CI   n  run\n"
            "a          24.361 ms  0.98 .. 1.02  10  1f2e3d4c\n"
            "b                  -             -   0  x\n");
}

TEST(ReportFormat, NamesParseBackAndNothingElseParses) {
  for (const Format f : kEveryFormat) EXPECT_EQ(parse_format(format_name(f)), f);
  EXPECT_FALSE(parse_format("JSON"));
  EXPECT_FALSE(parse_format("markdown"));
  EXPECT_FALSE(parse_format(""));
  EXPECT_EQ(kAllFormats.names(), "table, md, csv, json or jsonl");
  EXPECT_EQ((Formats{Format::kJson, Format::kTable}).names(), "table or json");
  EXPECT_EQ(kTextOnly.names(), "table");
  EXPECT_FALSE(kTextOnly.has(Format::kJson));
}

// One document, each reporter: data made safe for its medium, own words as they are, blocks
// meant for one people's format only there, records for scripts, JSON with its schema first.
Document sample_document() {
  Document d;
  d.schema = "sample";
  d.json = {{"answer", 42}};
  d.raw(Format::kMarkdown, "**title**: ");
  d.line({data("a|b`c\x1b"), own(" (medians)")}).blank();
  d.table(typed_table(), true);
  d.item({own("note "), strong("strong")});
  return d;
}

std::string written(const Document& d, Format f) {
  std::ostringstream out;
  write(d, f, out);
  return out.str();
}

TEST(ReportDocument, EachReporterWritesItsOwnSyntax) {
  const Document d = sample_document();
  const std::string text = written(d, Format::kTable);
  EXPECT_EQ(text.substr(0, text.find('\n')), "a|b`c\xEF\xBF\xBD (medians)");
  EXPECT_NE(text.find("\n  note strong\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("**"), std::string::npos) << text;
  const std::string md = written(d, Format::kMarkdown);
  EXPECT_EQ(md.substr(0, md.find('\n')), "**title**: a\\|b\\`c\xEF\xBF\xBD (medians)");
  EXPECT_NE(md.find("| benchmark | median | 95% CI | n | run |"), std::string::npos) << md;
  EXPECT_NE(md.find("\n- note **strong**\n"), std::string::npos) << md;
  EXPECT_EQ(written(d, Format::kCsv).substr(0, 42), "benchmark,median_s,ci_lower,instances,run\n");
  EXPECT_EQ(written(d, Format::kJsonl).front(), '{');
  EXPECT_EQ(written(d, Format::kJson),
            "{\n  \"schema\": \"benchguard.sample\",\n  \"version\": 1,\n  \"answer\": 42\n}\n");
}

TEST(ReportDocument, AppendedDocumentsKeepTheirTablesAndNotTheirRecords) {
  Document d = sample_document();
  d.append(sample_document());
  EXPECT_EQ(d.tables.size(), 2U);
  EXPECT_EQ(d.records, 0);
  const std::string csv = written(d, Format::kCsv);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);  // one header, two rows
  const std::string text = written(d, Format::kTable);
  std::size_t tables = 0;
  for (std::size_t at = 0; (at = text.find("benchmark     median", at)) != std::string::npos; ++at)
    ++tables;
  EXPECT_EQ(tables, 2U);
}

TEST(ReportDocument, NoJsonNoRecordsWriteNothing) {
  Document d;
  d.line({own("did it")});
  EXPECT_EQ(written(d, Format::kJson), "");
  EXPECT_EQ(written(d, Format::kCsv), "");
  EXPECT_EQ(written(d, Format::kJsonl), "");
  EXPECT_EQ(written(d, Format::kTable), "did it\n");
}

}  // namespace
}  // namespace benchguard::report
