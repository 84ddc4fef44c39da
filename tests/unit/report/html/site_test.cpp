#include "report/html/site.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "analysis/gate.hpp"
#include "analysis/history_load.hpp"
#include "analysis/series_cache.hpp"
#include "report/html/encode.hpp"
#include "report/html/page.hpp"
#include "report/html/site_data.hpp"
#include "report/html/site_state.hpp"
#include "support/history_fixture.hpp"
#include "support/test_support.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

TEST(HtmlPage, EscapesMarkupInTextAndInJson) {
  EXPECT_EQ(escape_html(R"(<a href="x">'&')"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;");
  const json data = {{"name", "</script><!--<script>alert(1)</script>&"}};
  const std::string text = json_for_html(data);
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_EQ(text.find('>'), std::string::npos) << text;
  EXPECT_EQ(text.find('&'), std::string::npos) << text;
  EXPECT_EQ(json::parse(text), data);
}

TEST(HtmlPage, PagesCarryThePolicyAndNoInlineScript) {
  const std::string page =
      render_page({"overview", "<b>title</b>", {{"a", "</script>"}}, true, true});
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.find("script-src 'self'"), std::string::npos);
  EXPECT_NE(page.find("&lt;b&gt;title&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  // Every script element either names a file of the site or holds JSON.
  const std::regex script("<script([^>]*)>");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), script);
       it != std::sregex_iterator(); ++it) {
    const std::string attrs = (*it)[1];
    EXPECT_TRUE(attrs == " type=\"application/json\" id=\"bg-data\"" ||
                attrs.starts_with(" src=\"assets/") || attrs == " src=\"data/commits.js\"")
        << attrs;
  }
}

TEST(HtmlEncode, ScaledValuesAndDeltasRoundTrip) {
  const std::vector<double> values = {0.0123456, 0.0120001, std::nan(""), 0.0099};
  const double scale = scale_of(values);
  EXPECT_DOUBLE_EQ(scale, 1e-6);
  const json s = scaled(values, scale);
  EXPECT_EQ(s, json::parse("[12346, 12000, null, 9900]"));
  EXPECT_EQ(deltas(std::vector<int64_t>{3, 4, 4, 10}), json::parse("[3, 1, 0, 6]"));
  EXPECT_EQ(scale_of(std::vector<double>{}), 1.0);
  EXPECT_EQ(scaled_deltas(values, scale), json::parse("[12346, -346, null, -2100]"));
  EXPECT_EQ(run_lengths(std::vector<int64_t>{4, 4, 4, 3, 4}), json::parse("[4, 3, 3, 1, 4, 1]"));
  EXPECT_EQ(index_deltas(std::vector<int64_t>{7, 8, 9, 10, 12}), json::parse("[7, 1, 1, 3, 2, 1]"));
}

TEST(HtmlSiteData, StatusComesFromTheNewestChangeAndItsAcknowledgement) {
  store::ChangeRecord c;
  c.kind = "regression";
  c.status = "confirmed";
  const store::AckRecord ack{"id", "known", 1};
  EXPECT_EQ(series_status(nullptr), "ok");
  analysis::ChangeRow row{c, nullptr};
  EXPECT_EQ(series_status(&row), "regression");
  row.change.status = "suspected";
  EXPECT_EQ(series_status(&row), "suspected");
  row.ack = &ack;
  EXPECT_EQ(series_status(&row), "acknowledged");
  row.change.kind = "improvement";
  EXPECT_EQ(series_status(&row), "ok");
}

// The state a build leaves beside its site reads back as written; a state cut short anywhere,
// at the end of a line too, or with a line it does not know, is not read at all.
TEST(HtmlSiteState, ReadsBackWhatItWroteAndNothingCutShortOrUnknown) {
  SiteState state;
  state.key = "k1";
  state.acks = "a1";
  state.groups = 2;
  state.runs = {{2, -7}, {1, 9}};
  state.commits = {{"c1", 100, "main"}, {"c2\t\"x\"", 200, "feature/\n"}};
  state.series = {{"b|default|wall_time|ci", "b", 1, "", R"({"page":1})", 2, "[]"},
                  {"a\tb|v|m|c", "a\tb", 0, "ffee", "", 0, R"([{"id":"x"},{"id":"y"}])"}};
  const std::string text = state_text(state);
  const auto back = parse_state(text);
  ASSERT_TRUE(back);
  EXPECT_EQ(state_text(*back), text);
  EXPECT_EQ(back->series[1].key, "a\tb|v|m|c");
  EXPECT_EQ(back->series[1].changes, state.series[1].changes);
  EXPECT_EQ(back->commits[1].branch, "feature/\n");
  for (std::size_t n = 0; n < text.size(); ++n)
    EXPECT_FALSE(parse_state(text.substr(0, n))) << "cut at " << n;
  EXPECT_FALSE(parse_state(text + "more 1\n"));
  EXPECT_FALSE(parse_state("benchguard-site-state 2\n" + text.substr(text.find('\n') + 1)));
  state.series[0].group = 2;  // no such page
  EXPECT_FALSE(parse_state(state_text(state)));
}

// Same files, same bytes, same keys.
void expect_same(const Site& a, const Site& b) {
  ASSERT_EQ(a.files.size(), b.files.size());
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].path, b.files[i].path);
    EXPECT_TRUE(a.files[i].content == b.files[i].content) << a.files[i].path;
  }
  EXPECT_EQ(a.keys, b.keys);
}

class HtmlSite : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!dashboard_available()) GTEST_SKIP() << "built with BENCHGUARD_DASHBOARD=OFF";
    db_ = dir_.file("h.db");
    auto store = store::open_store(db_);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<RunData> runs;
    runs.reserve(30);
    for (int k = 0; k < 30; ++k) runs.push_back(testing::history_run(k, 30, 4, 4, 5, true));
    auto ids = (*store)->add_runs(runs, {});
    ASSERT_TRUE(ids) << ids.error().message;
  }
  testing::TempDir dir_;
  std::string db_;
};

TEST_F(HtmlSite, HasEveryPageAndNoNameUnescaped) {
  auto store = store::open_store(db_, {.create = false, .read_only = true});
  ASSERT_TRUE(store) << store.error().message;
  SiteOptions options;
  options.run_pages = 3;
  auto site = build_site(**store, options, 0);
  ASSERT_TRUE(site) << site.error().message;
  for (const char* path :
       {"index.html", "regressions.html", "runs.html", "data/commits.js", "benchmark-0.html",
        "benchmark-3.html", "run-30.html", "run-28.html", "assets/uPlot.iife.min.js",
        "assets/uPlot.min.css", "assets/common.js", "assets/overview.js", "assets/benchmark.js"})
    EXPECT_NE(site->find(path), nullptr) << path;
  EXPECT_EQ(site->find("run-27.html"), nullptr);
  EXPECT_EQ(site->find("benchmark-4.html"), nullptr);
  for (const auto& f : site->files) {
    if (f.path.starts_with("assets/")) continue;
    for (const char* name : testing::kHostileNames)
      EXPECT_EQ(f.content.find(name), std::string::npos) << f.path;
    EXPECT_EQ(f.content.find("<img"), std::string::npos) << f.path;
  }
  // The overview's data: four series, the slowed-down one a confirmed regression.
  const std::string& index = site->find("index.html")->content;
  const auto from = index.find("id=\"bg-data\">") + 13;
  const json data = json::parse(index.substr(from, index.find("</script>", from) - from));
  ASSERT_EQ(data["series"].size(), 4u);
  std::map<std::string, std::string> status;
  for (const auto& s : data["series"]) status[s["benchmark"]] = s["status"];
  EXPECT_EQ(status["bench/0000"], "regression");
  EXPECT_EQ(status["bench/0003"], "ok");
  EXPECT_EQ(status[testing::kHostileNames[0]], "ok");
  EXPECT_EQ(data["counts"]["regression"], 1);
}

TEST_F(HtmlSite, AllMetricsGiveAChartEachWallTimeFirst) {
  auto store = store::open_store(db_, {.create = false, .read_only = true});
  ASSERT_TRUE(store);
  SiteOptions options;
  options.history.metrics = {"all"};
  auto site = build_site(**store, options, 0);
  ASSERT_TRUE(site) << site.error().message;
  const std::string& page = site->find("benchmark-0.html")->content;
  const auto from = page.find("id=\"bg-data\">") + 13;
  const json data = json::parse(page.substr(from, page.find("</script>", from) - from));
  ASSERT_EQ(data["charts"].size(), 2u);
  EXPECT_EQ(data["charts"][0]["metric"], "wall_time");
  EXPECT_EQ(data["charts"][1]["metric"], "cpu_time");
  EXPECT_EQ(primary_metric(options), "wall_time");
}

TEST_F(HtmlSite, WritesTheFilesIntoADirectory) {
  auto store = store::open_store(db_, {.create = false, .read_only = true});
  ASSERT_TRUE(store);
  auto site = build_site(**store, {}, 0);
  ASSERT_TRUE(site) << site.error().message;
  const std::string out = dir_.file("site");
  const auto written = write_site(*site, out);
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_EQ(written->written, site->files.size());
  EXPECT_EQ(testing::read_file(out + "/index.html"), site->find("index.html")->content);
  EXPECT_TRUE(std::filesystem::exists(out + "/assets/uPlot.iife.min.js"));
  // The newest 20 of 30 runs have pages.
  EXPECT_TRUE(std::filesystem::exists(out + "/run-11.html"));
  EXPECT_FALSE(std::filesystem::exists(out + "/run-10.html"));
}

// Every file under `dir` by its path below it, with its bytes.
std::map<std::string, std::string> files_under(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file())
      out[std::filesystem::relative(e.path(), dir).string()] = testing::read_file(e.path());
  return out;
}

// A nightly build into the site of the night before writes only the files that changed, leaves
// the others alone, removes the pages it no longer has (and nothing it did not write), and the
// directory then holds exactly what a build into an empty one does.
TEST_F(HtmlSite, ABuildIntoAnEarlierSiteEqualsAFreshOne) {
  const std::string out = dir_.file("site");
  const auto build = [&](std::size_t run_pages) {
    auto store = store::open_store(db_, {.create = false, .read_only = true});
    EXPECT_TRUE(store);
    SiteOptions options;
    options.run_pages = run_pages;
    auto site = build_site(**store, options, 0);
    EXPECT_TRUE(site) << site.error().message;
    return std::move(site.value());
  };
  const Site first = build(20);
  auto w = write_site(first, out);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->written, first.files.size());
  testing::write_file(out + "/notes.txt", "the team's own file");
  // The same site again: nothing to write.
  w = write_site(build(20), out);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->written, 0u);
  EXPECT_EQ(w->unchanged, first.files.size());
  EXPECT_EQ(w->removed, 0u);
  // One more commit, and pages for the newest 5 runs only.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->add_runs({testing::history_run(30, 30, 4, 4, 5, true)}, {}));
  }
  const Site second = build(5);
  w = write_site(second, out);
  ASSERT_TRUE(w);
  EXPECT_GT(w->written, 0u);
  EXPECT_GT(w->unchanged, 0u);  // the assets at least
  EXPECT_EQ(w->written + w->unchanged, second.files.size());
  EXPECT_EQ(w->removed, 16u);  // run-11 .. run-26
  EXPECT_FALSE(std::filesystem::exists(out + "/run-26.html"));
  EXPECT_TRUE(std::filesystem::exists(out + "/run-31.html"));
  // Byte for byte what a build into an empty directory writes, besides the team's file.
  const std::string fresh = dir_.file("fresh");
  ASSERT_TRUE(write_site(second, fresh));
  auto have = files_under(out);
  EXPECT_EQ(have.erase("notes.txt"), 1u);
  EXPECT_EQ(have, files_under(fresh));
  // A manifest naming files outside the site (edited by hand) removes none of them.
  testing::write_file(dir_.file("outside.txt"), "x");
  testing::write_file(out + "/" + kSiteManifest, testing::read_file(out + "/" + kSiteManifest) +
                                                     "../outside.txt\n" + dir_.file("outside.txt") +
                                                     "\n");
  w = write_site(second, out);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->removed, 0u);
  EXPECT_TRUE(std::filesystem::exists(dir_.file("outside.txt")));
}

// Files are written several at once; one that cannot be written (here a folder stands where
// it goes) fails the write with its name, the first such in the site's order, and the site's
// keys are not written, so the next build into the folder makes every page again.
TEST_F(HtmlSite, AFileThatCannotBeWrittenIsNamed) {
  const std::string out = dir_.file("site");
  auto store = store::open_store(db_, {.create = false, .read_only = true});
  ASSERT_TRUE(store);
  auto site = build_site(**store, SiteOptions{}, 0);
  ASSERT_TRUE(site) << site.error().message;
  ASSERT_GT(site->files.size(), 3u);
  const std::string& first = site->files[1].path;
  const std::string& later = site->files.back().path;
  std::filesystem::create_directories(out + "/" + later);
  std::filesystem::create_directories(out + "/" + first);
  auto w = write_site(*site, out);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().message, "cannot write " + out + "/" + first);
  EXPECT_TRUE(std::filesystem::is_regular_file(out + "/" + site->files[2].path));
  EXPECT_FALSE(std::filesystem::exists(out + "/" + kSiteKeys));
  std::filesystem::remove_all(out + "/" + first);
  std::filesystem::remove_all(out + "/" + later);
  w = write_site(*site, out);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->written + w->unchanged, site->files.size());
}

// A run's page and the compare page are made from stored runs alone: a build into an earlier
// site keeps those whose runs (as listed) and options are unchanged, reading them back instead
// of summarising the runs again, and the site is byte for byte what a build from nothing makes.
TEST_F(HtmlSite, PagesOfUnchangedRunsAreKeptFromTheLastBuild) {
  const std::string out = dir_.file("site");
  const auto build = [&](const SiteOptions& options, bool reuse) {
    auto store = store::open_store(db_, {.create = false, .read_only = true});
    EXPECT_TRUE(store);
    const PreviousSite previous = read_previous_site(out);
    auto site = build_site(**store, options, 0, reuse ? &previous : nullptr);
    EXPECT_TRUE(site) << site.error().message;
    return std::move(site.value());
  };
  const SiteOptions options;
  Site site = build(options, true);
  EXPECT_EQ(site.reused, 0u);
  EXPECT_EQ(site.keys.size(), 25u);  // 20 run pages, the compare page, 4 benchmark pages
  ASSERT_TRUE(write_site(site, out));
  EXPECT_EQ(read_previous_site(out).keys, site.keys);

  // Nothing new: the whole site is kept, every file checked against the hash written for it.
  site = build(options, true);
  EXPECT_TRUE(site.unchanged);
  EXPECT_EQ(site.reused, site.files.size());
  expect_same(site, build(options, false));
  EXPECT_EQ(site.key, build(options, false).key);
  // A file edited by hand: the site is built again (its unchanged pages kept).
  const std::string index = testing::read_file(out + "/index.html");
  testing::write_file(out + "/index.html", index + "<!-- edited -->");
  site = build(options, true);
  EXPECT_FALSE(site.unchanged);
  EXPECT_EQ(site.reused, 25u);
  expect_same(site, build(options, false));
  // Written back: the pages just read from the directory are left alone (not read again), the
  // edited file is put right, and the directory holds what a build into an empty one writes.
  const auto written = write_site(site, out);
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_EQ(written->written, 1u);
  EXPECT_EQ(written->unchanged, site.files.size() - 1);
  const std::string fresh = dir_.file("fresh");
  ASSERT_TRUE(write_site(build(options, false), fresh));
  EXPECT_EQ(files_under(out), files_under(fresh));
  testing::write_file(out + "/index.html", index);
  // A page edited by hand is made again, whatever its key.
  const std::string page = testing::read_file(out + "/benchmark-2.html");
  testing::write_file(out + "/benchmark-2.html", page + "<!-- edited -->");
  site = build(options, true);
  EXPECT_EQ(site.reused, 24u);
  expect_same(site, build(options, false));
  testing::write_file(out + "/benchmark-2.html", page);
  // Another title: the site is built again.
  SiteOptions titled = options;
  titled.title = "nightly";
  site = build(titled, true);
  EXPECT_FALSE(site.unchanged);
  expect_same(site, build(titled, false));
  // An acknowledgement stored: what the overview shows changed, so it is built again.
  const auto overview = [](const Site& built) {
    const std::string& page = built.find("index.html")->content;
    const auto from = page.find("id=\"bg-data\">") + 13;
    return json::parse(page.substr(from, page.find("</script>", from) - from));
  };
  std::string change;
  const json before = overview(site);
  for (const auto& s : before["series"])
    if (s["benchmark"] == "bench/0000") change = s["change"]["id"];
  ASSERT_FALSE(change.empty());
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->set_ack({change, "expected: new algorithm", 1}));
  }
  site = build(options, true);
  EXPECT_FALSE(site.unchanged);
  EXPECT_EQ(site.reused, 24u);  // all but the page of the acknowledged change's benchmark
  expect_same(site, build(options, false));
  const json after = overview(site);
  for (const auto& s : after["series"])
    if (s["benchmark"] == "bench/0000") {
      EXPECT_EQ(s["status"], "acknowledged");
    }
  ASSERT_TRUE(write_site(site, out));

  // One more commit: run 31 gets a page, runs 12 .. 30 keep theirs, the compare page (whose
  // newest runs changed) and every benchmark page (each has a new point) are made again.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->add_runs({testing::history_run(30, 30, 4, 4, 5, true)}, {}));
  }
  site = build(options, true);
  EXPECT_EQ(site.reused, 19u);
  expect_same(site, build(options, false));
  ASSERT_TRUE(write_site(site, out));

  // A page deleted by hand is made again.
  std::filesystem::remove(out + "/run-20.html");
  site = build(options, true);
  EXPECT_EQ(site.reused, 24u);
  expect_same(site, build(options, false));
  ASSERT_TRUE(write_site(site, out));

  // One more commit of one benchmark: the pages of the three others are kept, and so are runs
  // 13 .. 31's.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->add_runs({testing::history_run(31, 30, 1, 4, 5, true)}, {}));
  }
  site = build(options, true);
  EXPECT_EQ(site.reused, 22u);
  expect_same(site, build(options, false));
  std::size_t moved = 0;  // benchmark pages that differ from the last build's
  for (int g = 0; g < 4; ++g) {
    const std::string path = "benchmark-" + std::to_string(g) + ".html";
    const auto file = std::filesystem::path(out) / path;
    moved += site.find(path)->content != testing::read_file(file.string()) ? 1 : 0;
  }
  EXPECT_EQ(moved, 1u);

  // Other options: nothing is kept.
  SiteOptions other = options;
  other.summary.resamples = 2000;
  site = build(other, true);
  EXPECT_EQ(site.reused, 0u);
  expect_same(site, build(other, false));

  // A benchmark pruned from every run: each run's counts changed, so each page is made again.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->prune({.benchmark = "bench/0003"}));
  }
  site = build(options, true);
  EXPECT_EQ(site.reused, 0u);
  expect_same(site, build(options, false));
  EXPECT_EQ(site.find("run-31.html")->content.find("bench/0003"), std::string::npos);
}

// A nightly build after new runs of a few benchmarks follows the last build (kSiteState): it
// reads the history of those benchmarks alone and makes again their pages and the pages that
// list every series, keeping the others. Whatever changed, the directory then holds byte for
// byte what a build into an empty one writes; anything but new runs at new commits (and the
// change points stored for some series) builds the whole site.
TEST_F(HtmlSite, ABuildAfterNewRunsFollowsTheLastOneAndEqualsAFreshBuild) {
  const std::string out = dir_.file("site");
  SiteOptions options;
  options.run_pages = 5;
  options.open_reader = [this]() -> Result<std::unique_ptr<store::Store>> {
    return store::open_store(db_, {.create = false, .read_only = true});
  };
  int fresh_dirs = 0;
  // Builds into `out` after the previous build there, and into an empty directory: the two
  // directories must hold the same files.
  const auto build = [&]() {
    auto store = store::open_store(db_, {.create = false, .read_only = true});
    EXPECT_TRUE(store);
    const PreviousSite previous = read_previous_site(out);
    auto site = build_site(**store, options, 0, &previous);
    EXPECT_TRUE(site) << site.error().message;
    EXPECT_TRUE(write_site(*site, out));
    auto fresh = build_site(**store, options, 0);
    EXPECT_TRUE(fresh) << fresh.error().message;
    EXPECT_FALSE(fresh->followed);
    const std::string dir = dir_.file("fresh" + std::to_string(fresh_dirs++));
    EXPECT_TRUE(write_site(*fresh, dir));
    const auto have = files_under(out), want = files_under(dir);
    std::vector<std::string> differ;
    for (const auto& [path, bytes] : want)
      if (!have.contains(path) || have.at(path) != bytes) differ.push_back(path);
    EXPECT_EQ(have.size(), want.size());
    EXPECT_TRUE(differ.empty()) << "differ: " << fmt::format("{}", fmt::join(differ, ", "));
    return std::move(site.value());
  };
  const auto add = [&](const std::vector<RunData>& runs, bool cached = true) {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    const auto ids = (*store)->add_runs(runs, {});
    ASSERT_TRUE(ids) << ids.error().message;
    if (cached) {
      ASSERT_TRUE(analysis::cache_run_series(**store, *ids));
    }
  };
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE(analysis::cache_store_series(**store));
  }
  Site site = build();
  EXPECT_FALSE(site.followed);
  EXPECT_TRUE(std::filesystem::exists(out + "/" + kSiteState));

  // One more commit of one benchmark: its history alone is read.
  add({testing::history_run(30, 30, 1, 4, 5, true)});
  site = build();
  EXPECT_TRUE(site.followed);
  EXPECT_EQ(site.remade, std::vector<std::string>{"bench/0000"});
  EXPECT_EQ(site.reused, 3u + 4u);  // 3 benchmark pages, 4 run pages
  // The same, from a run the series cache has no entry for; then two benchmarks at once.
  add({testing::history_run(31, 30, 1, 4, 5, true)}, false);
  site = build();
  EXPECT_TRUE(site.followed);
  EXPECT_EQ(site.remade.size(), 1u);
  add({testing::history_run(32, 30, 2, 4, 5, true)});
  site = build();
  EXPECT_TRUE(site.followed);
  EXPECT_EQ(site.remade.size(), 2u);

  // Change points stored for one series (as `detect` does): that series is made again.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    analysis::HistoryOptions ho;
    ho.benchmarks = {"bench/0003"};
    ho.metrics = {"wall_time"};
    const auto history = analysis::load_history(**store, ho);
    ASSERT_TRUE(history);
    ASSERT_TRUE(analysis::detect_and_store(**store, *history, options.detect, 0));
  }
  site = build();
  EXPECT_TRUE(site.followed);
  EXPECT_EQ(site.remade, std::vector<std::string>{"bench/0003"});

  // Each of these builds the whole site.
  // A run of a commit the site has: that commit's points move.
  RunData again = testing::history_run(40, 30, 1, 4, 5, true);
  again.run.git_commit = testing::fixture_commit(5);
  add({again});
  site = build();
  EXPECT_FALSE(site.followed);
  // A benchmark the site did not have.
  add({testing::history_run(41, 30, 5, 4, 5, true)});
  site = build();
  EXPECT_FALSE(site.followed);
  // After each of these, one more commit of one benchmark builds the whole site.
  const auto whole = [&](int k) {
    add({testing::history_run(k, 30, 1, 4, 5, true)});
    return !build().followed;
  };
  // An acknowledgement.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->set_ack({"some-change", "known", 1}));
  }
  EXPECT_TRUE(whole(42));
  // A page the build would keep, edited by hand.
  const std::string page = out + "/benchmark-3.html";
  testing::write_file(page, testing::read_file(page) + "<!-- edited -->");
  EXPECT_TRUE(whole(43));
  // The state cut short; then the next build follows again.
  const std::string state = testing::read_file(out + "/" + kSiteState);
  testing::write_file(out + "/" + kSiteState, state.substr(0, state.size() / 2));
  EXPECT_TRUE(whole(44));
  EXPECT_FALSE(whole(45));
  // A benchmark pruned from every run.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->prune({.benchmark = "bench/0004"}));
  }
  EXPECT_TRUE(whole(46));
  // Other options.
  options.spark_points = 10;
  EXPECT_TRUE(whole(47));
}

// `serve` keeps its last build in memory and builds from it as from a directory: the pages
// whose keys did not move are taken from it, and the site is what a build from nothing makes.
TEST_F(HtmlSite, ABuildHeldInMemoryServesAsThePreviousOne) {
  const auto build = [&](const Site* last) {
    auto store = store::open_store(db_, {.create = false, .read_only = true});
    EXPECT_TRUE(store);
    SiteOptions options;
    options.all_run_pages = true;  // as serve builds: run pages are made when asked for
    const PreviousSite previous = last != nullptr ? previous_in_memory(*last) : PreviousSite{};
    auto site = build_site(**store, options, 0, last != nullptr ? &previous : nullptr);
    EXPECT_TRUE(site) << site.error().message;
    return std::move(site.value());
  };
  const Site first = build(nullptr);
  EXPECT_EQ(first.reused, 0u);
  EXPECT_EQ(first.keys.size(), 5u);  // the compare page and 4 benchmark pages
  // Nothing new: every file of the last build.
  const Site same = build(&first);
  EXPECT_TRUE(same.unchanged);
  EXPECT_EQ(same.reused, same.files.size());
  expect_same(same, first);
  // One more commit of one benchmark: the three other benchmark pages are kept; the compare
  // page (its newest runs moved) and the page of the benchmark measured are made again.
  {
    auto store = store::open_store(db_);
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->add_runs({testing::history_run(30, 30, 1, 4, 5, true)}, {}));
  }
  const Site next = build(&first);
  EXPECT_FALSE(next.unchanged);
  EXPECT_TRUE(next.followed);  // from the state the last build holds
  EXPECT_EQ(next.reused, 3u);
  expect_same(next, build(nullptr));
  std::size_t moved = 0;  // benchmark pages that differ from the last build's
  for (int g = 0; g < 4; ++g) {
    const std::string path = "benchmark-" + std::to_string(g) + ".html";
    moved += next.find(path)->content != first.find(path)->content ? 1 : 0;
  }
  EXPECT_EQ(moved, 1u);
}

}  // namespace
}  // namespace benchguard::report::html
