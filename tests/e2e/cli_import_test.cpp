// `benchguard import` end to end: every test input, the analyses on an imported duet run,
// and damaged copies that must leave the database as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "support/test_support.hpp"
#include "unit/ingest/damaged_inputs.hpp"

namespace benchguard {
namespace {

using ingest::testing::all_inputs;
using ingest::testing::data_file;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

size_t run_count(const std::string& db) {
  auto store = store::open_store(db);
  EXPECT_TRUE(store.ok()) << store.error().message;
  if (!store.ok()) return 0;
  auto runs = (*store)->list_runs();
  EXPECT_TRUE(runs.ok());
  return runs.ok() ? runs->size() : 0;
}

TEST(CliImport, EveryInputIsOneImportedRunAndOtavasCsvOnePerRow) {
  TempDir dir;
  std::vector<std::string> args{"import", "--db", dir.file("bg.db")};
  for (const auto& f : all_inputs()) args.push_back(f.path);
  const auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // otava-sample.csv holds 12 rows: 12 runs where every other file is one.
  EXPECT_EQ(run_count(dir.file("bg.db")), args.size() - 3 + 11);
  EXPECT_NE(r.out.find("gbench-repetitions.json: google-benchmark, 2 benchmark(s), 8 "
                       "instance(s), 8 iteration(s) -> run 1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("duet-unified.csv: duet-csv, 1 benchmark(s), 8 instance(s), 24 "
                       "iteration(s) -> run"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("otava-sample.csv: otava-csv, 1 benchmark(s), 0 instance(s), 0 "
                       "iteration(s), 23 summary record(s) -> 12 runs"),
            std::string::npos)
      << r.out;
  // No input leaves anything out. The warnings say which files hold summary records only,
  // and what Otava's CSV does not say; then one line says what was stored.
  EXPECT_EQ(testing::count_lines(r.err), 4) << r.err;
  for (const char* file :
       {"gbench-aggregates-only.json", "pytest-benchmark-stats-only.json", "otava-sample.csv"})
    EXPECT_NE(r.err.find(std::string("benchguard: warning: ") + data_file(file) + ": "),
              std::string::npos)
        << file << "\n"
        << r.err;

  auto store = store::open_store(dir.file("bg.db"));
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("1");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->run.status, "imported");
  EXPECT_EQ(run->run.suite_path, data_file("gbench-repetitions.json"));
  EXPECT_NE(run->run.command_line.find("benchguard import"), std::string::npos);
}

TEST(CliImport, DuetCsvIsComparedAAgainstB) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const auto imp = run_cli({"import", data_file("duet-unified.csv"), "--db", db, "-q"});
  ASSERT_EQ(imp.exit_code, 0) << imp.err;
  EXPECT_EQ(imp.out, "");

  const auto show = run_cli({"show", "--db", db, "--format", "json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const auto s = nlohmann::json::parse(show.out);
  ASSERT_EQ(s["benchmarks"].size(), 2u);
  EXPECT_EQ(s["benchmarks"][0]["variant"], "A");
  EXPECT_EQ(s["benchmarks"][0]["instances"], 4);
  EXPECT_EQ(s["benchmarks"][0]["iterations"], 12);
  EXPECT_EQ(s["benchmarks"][1]["variant"], "B");
  EXPECT_DOUBLE_EQ(s["benchmarks"][1]["max"].get<double>(), 0.861234567);

  // The two duet runs are analysed by their overlapping iterations.
  const auto duet = run_cli({"compare", "--db", db, "--format", "json"});
  ASSERT_EQ(duet.exit_code, 0) << duet.err;
  const auto d = nlohmann::json::parse(duet.out)["metrics"][0]["rows"][0];
  EXPECT_EQ(d["method"], "duet");
  EXPECT_EQ(d["duet"]["runs"], 2);
  EXPECT_GT(d["duet"]["paired"].get<int>(), 0);

  // As independent instances: all four of each side.
  const auto cmp =
      run_cli({"compare", "--db", db, "--format", "json", "--no-duet", "--statistic", "mean"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const auto c = nlohmann::json::parse(cmp.out);
  EXPECT_EQ(c["a"], "A");
  EXPECT_EQ(c["b"], "B");
  const auto& row = c["metrics"][0]["rows"][0];
  EXPECT_EQ(row["benchmark"], "scrabble");
  EXPECT_EQ(row["method"], "instances");
  EXPECT_EQ(row["instances_a"], 4);
  EXPECT_EQ(row["instances_b"], 4);
  // The ratio of the means over the 12 iterations of each side: of the sums of the times,
  // 3 iterations in every instance.
  EXPECT_EQ(c["statistic"], "mean");
  EXPECT_NEAR(row["ratio"].get<double>(), 6575691151.0 / 6550356907.0, 1e-12);
  EXPECT_NEAR(row["mean_a"].get<double>(), 6550356907e-9 / 12, 1e-12);
  EXPECT_NEAR(row["mean_b"].get<double>(), 6575691151e-9 / 12, 1e-12);
}

TEST(CliImport, ExportedRunsImportAgain) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_EQ(run_cli({"import", data_file("duet-unified.csv"), "--db", db}).exit_code, 0);
  for (const char* format : {"csv", "jsonl"}) {
    const std::string out = dir.file(std::string("export.") + format);
    const auto ex = run_cli({"export", "--db", db, "1", "--format", format, "-o", out});
    ASSERT_EQ(ex.exit_code, 0) << ex.err;
    const auto again = run_cli({"import", out, "--db", db});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.out.find("1 benchmark(s), 8 instance(s), 24 iteration(s)"), std::string::npos)
        << format << ": " << again.out;
  }
  // The csv export keeps each instance's schedule and the duet pairs' shared position.
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("2");
  ASSERT_TRUE(run.ok());
  const auto& a = run->variants.at(0).instances;
  const auto& b = run->variants.at(1).instances;
  EXPECT_EQ(a.at(0).schedule, "duet");
  EXPECT_EQ(a.at(0).order, b.at(0).order);
}

TEST(CliImport, DamagedCopiesAreRefusedAndStoreNothing) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  ASSERT_EQ(run_cli({"import", data_file("hyperfine-two.json"), "--db", db}).exit_code, 0);
  for (const auto& f : all_inputs()) {
    const std::string text = read_file(f.path);
    const std::string name = std::filesystem::path(f.path).filename().string();
    const std::vector<std::pair<std::string, std::string>> copies = {
        {"truncated", ingest::testing::truncated(text)},
        {"wrong-type", ingest::testing::wrong_type(f, text)},
        {"garbage", ingest::testing::garbage(text)}};
    for (const auto& [damage, content] : copies) {
      const std::string copy = dir.file(damage + "-" + name);
      write_file(copy, content);
      const auto r = run_cli({"import", copy, "--db", db});
      EXPECT_EQ(r.exit_code, 2) << damage << " " << name << ": " << r.err;
      EXPECT_EQ(testing::count_lines(r.err), 1) << damage << " " << name << ": " << r.err;
      EXPECT_NE(r.err.find("benchguard: " + copy + ":"), std::string::npos)
          << damage << " " << name << ": " << r.err;
      EXPECT_EQ(r.out, "");
    }
  }
  EXPECT_EQ(run_count(db), 1u);
}

TEST(CliImport, SeveralFilesAreAllOrNothing) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  write_file(dir.file("cut.json"),
             ingest::testing::truncated(read_file(data_file("jmh-throughput.json"))));
  const auto r =
      run_cli({"import", data_file("hyperfine-one.json"), dir.file("cut.json"), "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(dir.file("cut.json") + ":"), std::string::npos) << r.err;
  EXPECT_EQ(run_count(db), 0u);
}

TEST(CliImport, FormatLabelsAndUnknownInput) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const auto r = run_cli({"import", data_file("jmh-throughput.json"), "--input-format", "jmh",
                          "--label", "source=ci", "--label", "branch=main", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok());
  auto run = (*store)->load_run("latest");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->run.labels, (KeyValues{{"source", "ci"}, {"branch", "main"}}));

  const auto wrong =
      run_cli({"import", data_file("jmh-throughput.json"), "--input-format", "go", "--db", db});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(testing::count_lines(wrong.err), 1) << wrong.err;
  const auto bogus =
      run_cli({"import", data_file("jmh-throughput.json"), "--input-format", "excel", "--db", db});
  EXPECT_EQ(bogus.exit_code, 2);
  write_file(dir.file("notes.txt"), "nothing to see\n");
  const auto none = run_cli({"import", dir.file("notes.txt"), "--db", db});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("not a format benchguard imports (tried google-benchmark"),
            std::string::npos)
      << none.err;
  const auto label =
      run_cli({"import", data_file("jmh-throughput.json"), "--label", "x", "--db", db});
  EXPECT_EQ(label.exit_code, 2);
  EXPECT_EQ(run_count(db), 1u);
}

}  // namespace
}  // namespace benchguard
