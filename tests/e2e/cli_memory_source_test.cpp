// The memory of every instance, however short: a 2 ms program that touches 4 MiB against one
// that touches 5 MiB, measured through a memory cgroup of each instance's own where benchguard
// may make one, and through the sampled fallback (BENCHGUARD_MEMORY_SOURCE=rusage) elsewhere.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "measure/memory_group.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::run_program;
using testing::TempDir;

// benchguard with BENCHGUARD_MEMORY_SOURCE set to `source` ("" leaves it unset).
testing::CliResult memsrc_cli(const std::string& source, const std::vector<std::string>& args) {
  std::vector<std::string> argv{BG_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, {source.empty() ? std::string("BENCHGUARD_MEMORY_SOURCE")
                                           : "BENCHGUARD_MEMORY_SOURCE=" + source});
}

const nlohmann::json* memsrc_row(const nlohmann::json& report, const std::string& metric) {
  for (const auto& m : report["metrics"])
    if (m["metric"] == metric && !m["rows"].empty()) return &m["rows"][0];
  return nullptr;
}

// Stores run 1 (4 MiB) and run 2 (5 MiB), 5 instances of about 2 ms each; the sources stored.
std::vector<std::string> memsrc_two_runs(const std::string& source, const std::string& db) {
  const std::string hog = testing::helper("memory_hog");
  for (const auto& [side, mib] : {std::pair{"side=a", "4"}, std::pair{"side=b", "5"}}) {
    const auto r = memsrc_cli(source, {"run", "--instances", "5", "--label", side, "--db", db, "-q",
                                       "--", hog, mib, "2"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  std::vector<std::string> sources;
  auto store = store::open_store(db);
  if (!store.ok()) return sources;
  for (const char* run : {"1", "2"}) {
    auto data = (*store)->load_run(run);
    if (!data.ok()) continue;
    for (const auto& in : data->variants.at(0).instances) sources.push_back(in.mem_source);
  }
  return sources;
}

TEST(CliMemorySource, ShortInstancesHaveExactMemoryWhereACgroupCanBeMade) {
  if (!measure::memory_group_parent(measure::MemorySourceRequest::kAuto))
    GTEST_SKIP() << "no memory cgroup can be made here (the fallback is tested below)";
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const auto sources = memsrc_two_runs("", db);
  ASSERT_EQ(sources.size(), 10u);
  for (const auto& s : sources) EXPECT_TRUE(s == "cgroup1" || s == "cgroup2") << s;
  const auto r = memsrc_cli("", {"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto* peak = memsrc_row(j, "peak_memory");
  ASSERT_NE(peak, nullptr) << r.out;
  EXPECT_EQ((*peak)["verdict"], "slower") << r.out;
  EXPECT_GT((*peak)["ratio"].get<double>(), 1.1) << r.out;
  EXPECT_LT((*peak)["ratio"].get<double>(), 1.4) << r.out;
  EXPECT_EQ(r.out.find("sampled 3 times"), std::string::npos) << r.out;
  const auto text = memsrc_cli("", {"compare", "side=a", "side=b", "--db", db});
  EXPECT_EQ(text.out.find("were sampled"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("before their memory was sampled"), std::string::npos) << text.out;
  // show says where the memory came from, and shows it.
  const auto show = memsrc_cli("", {"show", "1", "--db", db});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("the kernel's peak of a memory cgroup of each instance's own"),
            std::string::npos)
      << show.out;
  const auto shown = memsrc_cli("", {"show", "1", "--db", db, "--format", "json"});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(testing::schema_problem(shown.out), "");
  const auto row = nlohmann::json::parse(shown.out)["benchmarks"][0];
  EXPECT_TRUE(row["memory_source"] == "cgroup1" || row["memory_source"] == "cgroup2") << row;
  EXPECT_GT(row["peak_memory_bytes"].get<double>(), 4 * 1048576.0) << row;
  EXPECT_LT(row["peak_memory_bytes"].get<double>(), 6 * 1048576.0) << row;
}

TEST(CliMemorySource, ForcedFallbackIsSampledAndSaysSo) {
  TempDir dir;
  const std::string db = dir.file("bg.db");
  const auto sources = memsrc_two_runs("rusage", db);
  ASSERT_EQ(sources.size(), 10u);
  for (const auto& s : sources) EXPECT_EQ(s, "sampled");
  const auto r =
      memsrc_cli("rusage", {"compare", "side=a", "side=b", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A 2 ms instance is never sampled: its memory is known only to lie below benchguard's own
  // size, and compare says so instead of giving a verdict.
  EXPECT_NE(r.out.find("before their memory was sampled 3 times"), std::string::npos) << r.out;
}

// The stored source goes out with `export --format jsonl` and comes back with `import`.
TEST(CliMemorySource, SourceRoundTripsThroughExportAndImport) {
  for (const std::string source : {"", "rusage"}) {
    TempDir dir;
    const std::string db = dir.file("bg.db");
    const std::string hog = testing::helper("memory_hog");
    ASSERT_EQ(memsrc_cli(source, {"run", "--instances", "2", "--db", db, "-q", "--", hog, "4", "2"})
                  .exit_code,
              0);
    const std::string out = dir.file("export.jsonl");
    const auto ex = memsrc_cli(source, {"export", "--db", db, "1", "--format", "jsonl", "-o", out});
    ASSERT_EQ(ex.exit_code, 0) << ex.err;
    const auto json_export = memsrc_cli(source, {"export", "--db", db, "1", "--format", "json"});
    ASSERT_EQ(json_export.exit_code, 0) << json_export.err;
    const auto im = memsrc_cli(source, {"import", out, "--db", db});
    ASSERT_EQ(im.exit_code, 0) << im.err;
    auto store = store::open_store(db);
    ASSERT_TRUE(store.ok());
    auto a = (*store)->load_run("1");
    auto b = (*store)->load_run("2");
    ASSERT_TRUE(a.ok() && b.ok());
    const auto& ai = a->variants.at(0).instances;
    const auto& bi = b->variants.at(0).instances;
    ASSERT_EQ(ai.size(), 2u);
    ASSERT_EQ(bi.size(), 2u);
    const auto exported = nlohmann::json::parse(json_export.out);
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_FALSE(ai[k].mem_source.empty());
      EXPECT_EQ(bi[k].mem_source, ai[k].mem_source) << source;
      EXPECT_EQ(exported["runs"][0]["variants"][0]["instances"][k]["mem_source"], ai[k].mem_source)
          << json_export.out;
    }
    if (source == "rusage") {
      EXPECT_EQ(ai[0].mem_source, "sampled");
    }
  }
}

}  // namespace
}  // namespace benchguard
