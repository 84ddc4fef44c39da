// `benchguard compare OLD NEW` on result files, as a benchstat user runs it: imported in
// memory, no database read or written; several files a side; a file against a stored run;
// which metrics are compared; verdicts at small n.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_cli;
using testing::TempDir;
using testing::write_file;

// `go test -bench` text: `count` lines of each benchmark (one instance each, as benchstat
// counts them), ns/op rising by `step` per line from `base`, with B/op and allocs/op.
std::string go_text(double atoi_ns, double encode_ns, int count, double step = 0.1,
                    bool rate = false) {
  std::string s = "goos: linux\ngoarch: amd64\npkg: example.com/codec\n";
  for (int i = 0; i < count; ++i)
    s += "BenchmarkAtoi-8   \t41696568\t" + std::to_string(atoi_ns + step * i) +
         " ns/op\t       0 B/op\t       0 allocs/op\n";
  for (int i = 0; i < count; ++i)
    s += "BenchmarkEncode-8 \t  497512\t" + std::to_string(encode_ns + 10 * step * i) + " ns/op\t" +
         (rate ? std::to_string(1024e3 / (encode_ns + 10 * step * i)) + " MB/s\t" : "") +
         "    1024 B/op\t       1 allocs/op\n";
  return s + "PASS\nok  \texample.com/codec\t14.027s\n";
}

const nlohmann::json* row(const nlohmann::json& report, const std::string& metric,
                          const std::string& benchmark) {
  for (const auto& m : report["metrics"])
    if (m["metric"] == metric)
      for (const auto& r : m["rows"])
        if (r["benchmark"] == benchmark) return &r;
  return nullptr;
}

std::vector<std::string> metric_names(const nlohmann::json& report) {
  std::vector<std::string> names;
  for (const auto& m : report["metrics"]) names.push_back(m["metric"]);
  return names;
}

TEST(CliCompareFiles, TwoGoBenchFilesNeedNoDatabase) {
  TempDir dir;
  const std::string old_txt = dir.file("old.txt"), new_txt = dir.file("new.txt");
  write_file(old_txt, go_text(28.0, 2400, 5));
  write_file(new_txt, go_text(28.0, 2640, 5));  // Encode 10% slower
  const std::string db = dir.file("never.db");
  const auto r = run_cli({"compare", old_txt, new_txt, "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("BenchmarkEncode-8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("slower"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("old.txt"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(db)) << "compare of files wrote a database";
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_TRUE(e.path().extension() == ".txt") << e.path();

  const auto j = run_cli({"compare", old_txt, new_txt, "--db", db, "--format", "json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto report = nlohmann::json::parse(j.out);
  EXPECT_EQ(report["statistic"], "robust mean");
  const auto* encode = row(report, "wall_time", "BenchmarkEncode-8");
  ASSERT_NE(encode, nullptr) << j.out;
  EXPECT_EQ((*encode)["verdict"], "slower");
  EXPECT_EQ((*encode)["interval"], "t");
  EXPECT_EQ((*encode)["instances_a"], 5);
  EXPECT_NEAR((*encode)["ratio"].get<double>(), 1.1, 0.01);
  EXPECT_GT((*encode)["ci"][0].get<double>(), 1.05);
  EXPECT_LT((*encode)["ci"][1].get<double>(), 1.15);
  // 5 vs 5 fully separated, no ties: the exact two-sided p is 2 / C(10, 5) = 2 / 252.
  EXPECT_NEAR((*encode)["p_value"].get<double>(), 2.0 / 252.0, 1e-12);
  EXPECT_EQ((*encode)["p_value_method"], "exact");
  const auto* atoi = row(report, "wall_time", "BenchmarkAtoi-8");
  ASSERT_NE(atoi, nullptr);
  EXPECT_NEAR((*atoi)["ratio"].get<double>(), 1.0, 1e-9);
  EXPECT_NE((*atoi)["verdict"], "slower");
  // The benchmarks' own metrics come too; B/op is the same constant on both sides.
  const auto* bytes = row(report, "B/op", "BenchmarkEncode-8");
  ASSERT_NE(bytes, nullptr) << j.out;
  EXPECT_EQ((*bytes)["verdict"], "unchanged");
  EXPECT_NE(row(report, "allocs/op", "BenchmarkAtoi-8"), nullptr);
}

TEST(CliCompareFiles, ThreeAgainstThreeFullySeparatedHasPOneTenth) {
  TempDir dir;
  write_file(dir.file("a.txt"), go_text(28.0, 2400, 3));
  write_file(dir.file("b.txt"), go_text(40.0, 2400, 3));
  const auto j = run_cli({"compare", dir.file("a.txt"), dir.file("b.txt"), "--db", dir.file("x.db"),
                          "--format", "json", "--metric", "wall_time"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto report = nlohmann::json::parse(j.out);
  const auto* atoi = row(report, "wall_time", "BenchmarkAtoi-8");
  ASSERT_NE(atoi, nullptr);
  EXPECT_NEAR((*atoi)["p_value"].get<double>(), 0.1, 1e-12);
  EXPECT_EQ((*atoi)["p_value_method"], "exact");
  EXPECT_EQ(metric_names(report), std::vector<std::string>{"wall_time"});
}

TEST(CliCompareFiles, OneInstanceASideIsInconclusiveWithAReason) {
  TempDir dir;
  write_file(dir.file("a.txt"), go_text(28.0, 2400, 1));
  write_file(dir.file("b.txt"), go_text(56.0, 4800, 1));
  const auto r = run_cli({"compare", dir.file("a.txt"), dir.file("b.txt"), "--db", dir.file("x.db"),
                          "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& m : report["metrics"])
    for (const auto& x : m["rows"]) {
      EXPECT_EQ(x["verdict"], "inconclusive") << x.dump();
      ASSERT_FALSE(x["warnings"].empty());
      EXPECT_NE(x["warnings"][0].get<std::string>().find("1 instance per side"), std::string::npos);
    }
  const auto t =
      run_cli({"compare", dir.file("a.txt"), dir.file("b.txt"), "--db", dir.file("x.db")});
  EXPECT_NE(t.out.find("rerun with --instances 5"), std::string::npos) << t.out;
}

TEST(CliCompareFiles, SeveralFilesASidePoolTheirInstances) {
  TempDir dir;
  write_file(dir.file("mon.txt"), go_text(28.0, 2400, 3));
  write_file(dir.file("tue.txt"), go_text(28.2, 2410, 4, 0.1, /*rate=*/true));
  write_file(dir.file("new.txt"), go_text(28.1, 2405, 5, 0.1, /*rate=*/true));
  const auto r = run_cli({"compare", dir.file("mon.txt"), dir.file("tue.txt"), "vs",
                          dir.file("new.txt"), "--db", dir.file("x.db"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  const auto* atoi = row(report, "wall_time", "BenchmarkAtoi-8");
  ASSERT_NE(atoi, nullptr);
  EXPECT_EQ((*atoi)["instances_a"], 7);
  EXPECT_EQ((*atoi)["instances_b"], 5);
  EXPECT_NE(report["description"].get<std::string>().find("mon.txt + "), std::string::npos);
  // A metric only the second file of a side reports keeps the direction its file gave it.
  for (const auto& m : report["metrics"]) {
    if (m["metric"] == "MB/s") {
      EXPECT_EQ(m["direction"], "higher");
    }
  }
  EXPECT_NE(row(report, "MB/s", "BenchmarkEncode-8"), nullptr) << r.out;

  // A side with no file, or a name that is no file, is refused in one line.
  const auto empty = run_cli({"compare", dir.file("mon.txt"), "vs", "--db", dir.file("x.db")});
  EXPECT_EQ(empty.exit_code, 2);
  const auto missing = run_cli(
      {"compare", dir.file("mon.txt"), "vs", dir.file("nope.txt"), "--db", dir.file("x.db")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nope.txt"), std::string::npos) << missing.err;
  EXPECT_EQ(testing::count_lines(missing.err), 1) << missing.err;
}

TEST(CliCompareFiles, AFileAgainstAStoredRun) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("old.txt"), go_text(28.0, 2400, 5));
  write_file(dir.file("new.txt"), go_text(28.0, 2640, 5));
  ASSERT_EQ(run_cli({"import", dir.file("new.txt"), "--db", db, "--label", "side=new"}).exit_code,
            0);
  const auto r =
      run_cli({"compare", dir.file("old.txt"), "side=new", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  const auto* encode = row(report, "wall_time", "BenchmarkEncode-8");
  ASSERT_NE(encode, nullptr) << r.out;
  EXPECT_EQ((*encode)["verdict"], "slower");
}

TEST(CliCompareFiles, DefaultMetricsAndAll) {
  // Two stored runs of a command timed from outside: by default wall time and peak memory;
  // --metric all adds CPU times and the rest. /bin/true ends before its memory is sampled, so
  // every memory figure is benchguard's own size at launch: left out, and said so. (The
  // sampled launch, forced: where a memory cgroup can be made the peak is the kernel's, exact.)
  TempDir dir;
  const std::string db = dir.file("bg.db");
  for (const char* side : {"side=a", "side=b"})
    ASSERT_EQ(testing::run_program({BG_BINARY, "run", "--instances", "3", "--label", side, "--db",
                                    db, "-q", "--", "/bin/true"},
                                   {"BENCHGUARD_MEMORY_SOURCE=sampled"})
                  .exit_code,
              0);
  const auto d = run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const auto dj = nlohmann::json::parse(d.out);
  EXPECT_EQ(metric_names(dj), (std::vector<std::string>{"wall_time"}));
  // Two runs, one after the other: the first note says the sides ran in blocks.
  ASSERT_EQ(dj["warnings"].size(), 2u) << d.out;
  EXPECT_NE(dj["warnings"][0].get<std::string>().find("A and B ran in blocks"), std::string::npos)
      << d.out;
  EXPECT_NE(dj["warnings"][1].get<std::string>().find(
                "true: 3 of 3 A and 3 of 3 B instances ended before their memory was sampled"),
            std::string::npos)
      << d.out;
  EXPECT_NE(dj["warnings"][1].get<std::string>().find(
                "peak_memory is known only to lie below benchguard's own size"),
            std::string::npos)
      << d.out;
  const auto all =
      run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json", "--metric", "all"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto names = metric_names(nlohmann::json::parse(all.out));
  for (const char* m : {"wall_time", "cpu_time", "user_time", "sys_time"})
    EXPECT_NE(std::find(names.begin(), names.end(), m), names.end()) << m;
  for (const char* m : {"max_rss", "peak_memory", "avg_memory"})
    EXPECT_EQ(std::find(names.begin(), names.end(), m), names.end()) << m;
  // Asked for by name, the memory that was never measured is an error that says why.
  const auto mem = run_cli({"compare", "side=a", "side=b", "--db", db, "--metric", "max_rss"});
  EXPECT_EQ(mem.exit_code, 2);
  EXPECT_NE(mem.err.find("nothing to compare: no benchmark has measurements on both sides; true: "
                         "3 of 3 A and 3 of 3 B instances ended before"),
            std::string::npos)
      << mem.err;
  EXPECT_EQ(testing::count_lines(mem.err), 1) << mem.err;
  // Counters off (or refused): the summary says where instructions would come from.
  ASSERT_EQ(run_cli({"run", "--no-counters", "--instances", "2", "--label", "side=nc", "--db", db,
                     "-q", "--", "/bin/true"})
                .exit_code,
            0);
  const auto ins = run_cli({"summary", "side=nc", "--db", db, "--metric", "instructions"});
  EXPECT_NE(ins.out.find("no measured iterations (hardware counters were refused where it ran"),
            std::string::npos)
      << ins.out << ins.err;
  EXPECT_NE(ins.out.find("`run --measure instructions` counts instructions under Valgrind"),
            std::string::npos)
      << ins.out;
  // summary takes `all` the same way: every metric the variant has.
  const auto s = run_cli({"summary", "--db", db, "--format", "json", "--metric", "all"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  std::vector<std::string> summarized;
  const auto summary = nlohmann::json::parse(s.out);
  for (const auto& x : summary["summaries"]) summarized.push_back(x["metric"]);
  EXPECT_NE(std::find(summarized.begin(), summarized.end(), "cpu_time"), summarized.end()) << s.out;
  EXPECT_EQ(std::find(summarized.begin(), summarized.end(), "all"), summarized.end());
}

// A program that touches 4 MiB against one that touches 5 MiB, each held long enough to be
// sampled: the default comparison shows the benchmark's memory, slower by about a fifth (the
// rest of the process is about 1 MiB), with no launch-floor note.
TEST(CliCompareFiles, OneMoreMebibyteIsSlowerByDefault) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const std::string hog = testing::helper("memory_hog");
  for (const auto& [side, mib] : {std::pair{"side=a", "4"}, std::pair{"side=b", "5"}})
    ASSERT_EQ(run_cli({"run", "--instances", "5", "--label", side, "--db", db, "-q", "--", hog, mib,
                       "60"})
                  .exit_code,
              0);
  const auto r = run_cli({"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(metric_names(j), (std::vector<std::string>{"wall_time", "peak_memory"}));
  const auto* peak = row(j, "peak_memory", "bg_memory_hog");
  ASSERT_NE(peak, nullptr) << r.out;
  EXPECT_EQ((*peak)["verdict"], "slower") << r.out;
  EXPECT_GT((*peak)["ratio"].get<double>(), 1.12) << r.out;
  EXPECT_LT((*peak)["ratio"].get<double>(), 1.35) << r.out;
  // No launch-floor note; the one note says that the two runs ran one after the other.
  ASSERT_EQ(j["warnings"].size(), 1u) << r.out;
  EXPECT_NE(j["warnings"][0].get<std::string>().find("A and B ran in blocks"), std::string::npos);
}

}  // namespace
}  // namespace benchguard

namespace benchguard {
namespace {

// A pull-request comment is rendered HTML: a benchmark name from someone else's result file
// must show as text, never as markup. (Control bytes in a result file are refused on import.)
TEST(CliCompareFiles, HostileNamesAreEscapedForMarkdown) {
  TempDir dir;
  std::string old_text, new_text;
  for (int i = 0; i < 5; ++i) {
    old_text += "Benchmark<img/src=x/onerror=alert(1)>[a](b)`c`-8 \t1000\t" +
                std::to_string(100 + i) + " ns/op\n";
    new_text += "Benchmark<img/src=x/onerror=alert(1)>[a](b)`c`-8 \t1000\t" +
                std::to_string(120 + i) + " ns/op\n";
  }
  write_file(dir.file("old.txt"), old_text);
  write_file(dir.file("new.txt"), new_text);
  const auto md = run_cli({"compare", dir.file("old.txt"), dir.file("new.txt"), "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.find("<img"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("&lt;img/src=x/onerror=alert(1)&gt;\\[a\\](b)\\`c\\`-8"), std::string::npos)
      << md.out;
}

}  // namespace
}  // namespace benchguard
