#include "core/names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace benchguard {
namespace {

std::vector<long> code_points(std::string_view s) {
  std::vector<long> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto cp = next_code_point(s, i);
    out.push_back(cp ? static_cast<long>(*cp) : -1);
  }
  return out;
}

TEST(Utf8, DecodesEachLengthAndRefusesWhatIsNotUtf8) {
  // a, é (2 bytes), € (3 bytes), 𝄞 (4 bytes)
  EXPECT_EQ(code_points("a\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E"),
            (std::vector<long>{0x61, 0xE9, 0x20AC, 0x1D11E}));
  EXPECT_EQ(code_points("\x80"), (std::vector<long>{-1}));                  // stray continuation
  EXPECT_EQ(code_points("\xC0\xAF"), (std::vector<long>{-1, -1}));          // overlong '/'
  EXPECT_EQ(code_points("\xE0\x80\xAF"), (std::vector<long>{-1, -1, -1}));  // overlong
  EXPECT_EQ(code_points("\xED\xA0\x80"), (std::vector<long>{-1, -1, -1}));  // surrogate D800
  EXPECT_EQ(code_points("\xF4\x90\x80\x80"),
            (std::vector<long>{-1, -1, -1, -1}));                         // above U+10FFFF
  EXPECT_EQ(code_points("\xE2\x82"), (std::vector<long>{-1, -1}));        // cut short
  EXPECT_EQ(code_points("\xE2\x82x"), (std::vector<long>{-1, -1, 'x'}));  // cut by ASCII
  EXPECT_EQ(code_points("\xFF"), (std::vector<long>{-1}));
  EXPECT_EQ(code_points("\xF4\x8F\xBF\xBF"), (std::vector<long>{0x10FFFF}));  // the last one
}

TEST(Names, ValidNamesPass) {
  for (const char* ok : {"sort", "sort/n=1000", "BM_Sort<int>/8", "hail: combiner", "größe", "排序",
                         "x #2", "a\xE2\x80\x8Bz" /* zero-width space is printable */})
    EXPECT_EQ(name_problem(ok), "") << ok;
}

TEST(Names, EachKindOfBadNameSaysWhatAndWhere) {
  EXPECT_EQ(name_problem(""), "is empty");
  EXPECT_EQ(name_problem("a\nb"), "contains the control character U+000A at offset 1");
  EXPECT_EQ(name_problem("\x1b[31mred"), "contains the control character U+001B at offset 0");
  EXPECT_EQ(name_problem("del\x7f"), "contains the control character U+007F at offset 3");
  EXPECT_EQ(name_problem("c1\xC2\x9B"), "contains the control character U+009B at offset 2");
  EXPECT_EQ(name_problem("ab\xE2\x80\xAE"),
            "contains the bidirectional control U+202E at offset 2");
  EXPECT_EQ(name_problem("ok\xFFno"), "is not UTF-8 (byte 0xff at offset 2)");
  EXPECT_EQ(name_problem(std::string(kMaxNameBytes, 'x')), "");
  EXPECT_EQ(name_problem(std::string(kMaxNameBytes + 1, 'x')),
            "is 4097 bytes long, above the limit of 4096");
}

TEST(Names, CheckNameShowsTheNameEscaped) {
  const Status st = check_name("benchmark name", "a\x1b]0;pwned\x07z");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "benchmark name \"a\\x1b]0;pwned\\x07z\" contains the control character U+001B at "
            "offset 1");
}

TEST(Names, EscapeTextLeavesNoControlByte) {
  EXPECT_EQ(escape_text("plain é"), "plain é");
  EXPECT_EQ(escape_text("a\tb\nc\rd"), "a\\x09b\\x0ac\\x0dd");
  EXPECT_EQ(escape_text("\xC2\x85"), "\\u{0085}");
  EXPECT_EQ(escape_text("\xE2\x81\xA6x"), "\\u{2066}x");
  EXPECT_EQ(escape_text("\xFE"), "\\xfe");
  const std::string long_name(500, 'n');
  EXPECT_EQ(escape_name(long_name), std::string(200, 'n') + "...");
  EXPECT_EQ(escape_text(long_name), long_name);
}

RunData run_with(const std::string& benchmark, const std::string& metric) {
  RunData d;
  VariantData v;
  v.variant.benchmark = benchmark;
  v.variant.name = "default";
  InstanceRecord inst;
  IterationRecord it;
  it.metrics.emplace_back(metric, 1.0);
  inst.iterations.push_back(it);
  v.instances.push_back(inst);
  d.variants.push_back(v);
  return d;
}

TEST(Names, CheckRunNamesLooksAtEveryKindOfName) {
  EXPECT_TRUE(check_run_names(run_with("ok", "wall_time")).ok());
  EXPECT_FALSE(check_run_names(run_with("bad\n| forged | row |", "wall_time")).ok());

  const auto metric = check_run_names(run_with("ok", "time\x1b[2J"));
  ASSERT_FALSE(metric.ok());
  EXPECT_EQ(metric.error().message,
            "benchmark 'ok': metric name \"time\\x1b[2J\" contains the control character U+001B "
            "at offset 4");

  RunData variant = run_with("ok", "wall_time");
  variant.variants[0].variant.name = "\xC3";
  EXPECT_FALSE(check_run_names(variant).ok());

  RunData param = run_with("ok", "wall_time");
  param.variants[0].variant.params = {{"n", "1\r\n2"}};
  const auto p = check_run_names(param);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("parameter 'n' value"), std::string::npos);
  param.variants[0].variant.params = {{"n", ""}};  // an empty value is a value
  EXPECT_TRUE(check_run_names(param).ok());

  RunData label = run_with("ok", "wall_time");
  label.run.labels = {{"ci", "yes\x1b"}};
  EXPECT_FALSE(check_run_names(label).ok());
}

TEST(Names, ClosestNameIsATypoOfTheWordOrNothing) {
  const std::vector<std::string> commands = {"compare", "summary", "gate", "show", "runs", "run"};
  EXPECT_EQ(closest_name("compre", commands), "compare");   // a deletion
  EXPECT_EQ(closest_name("comapre", commands), "compare");  // a swap of neighbours
  EXPECT_EQ(closest_name("sumary", commands), "summary");
  EXPECT_EQ(closest_name("gaet", commands), "gate");
  EXPECT_EQ(closest_name("rn", commands), "run");       // one edit allowed for short words
  EXPECT_EQ(closest_name("frobnicate", commands), "");  // nothing near
  EXPECT_EQ(closest_name("xyz", commands), "");
  EXPECT_EQ(closest_name("anything", {}), "");
  // The nearest wins: "runs" is one edit from "rus", "run" one too; the first listed stays.
  EXPECT_EQ(closest_name("rus", {"runs", "run"}), "runs");
  EXPECT_EQ(closest_name("wall_tme", {"wall_time", "peak_memory"}), "wall_time");
}

}  // namespace
}  // namespace benchguard
