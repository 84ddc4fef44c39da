// The dashboard (docs/dashboard.md): static pages built from the store by the analysis that
// `history`, `detect` and `summary` use, written to a directory by `report --html` and served
// from memory by `serve`. Nothing is written to the store: change points are detected in
// memory, reusing what `detect` stored when its settings match.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/detection.hpp"
#include "analysis/history.hpp"
#include "analysis/summary.hpp"
#include "core/defaults.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace benchguard::report::html {

struct SiteOptions {
  analysis::HistoryOptions history;
  analysis::DetectOptions detect;
  analysis::SummaryOptions summary;  // of the run pages
  std::size_t run_pages = 20;        // the newest runs that get a page
  bool all_run_pages = false;        // every run has a page (serve renders them on demand)
  std::size_t spark_points = 60;     // points of an overview sparkline
  std::size_t instance_points = 50;  // newest points of a series with instance-level values
  std::string title = "benchguard";
  // The compare page: the newest `compare_runs` runs, each against the run before them all,
  // and the threshold of P(change beyond threshold) in its heat map: read from the t
  // distribution of the table's interval, or, under a bootstrap interval, from this many
  // resamples.
  std::size_t compare_runs = 8;
  double threshold = kDefaultThreshold;
  int heat_resamples = 1000;
  // The plan page ("plan-ID.html") of this run (empty: none; serve renders any on request),
  // and the slowdown it is to detect.
  std::string plan_run;
  double plan_target = 0.05;
  // When set, the history is read on connections of its own, several runs at once
  // (analysis::load_history); else through the store given.
  store::StoreOpener open_reader;
  // Told what is being done as building moves from one part to the next (the history read,
  // the series' change points and pages); called on the building thread.
  std::function<void(const std::string&)> on_step;
};

// The metric of the compare and plan pages: the first of history.metrics, wall_time when none
// or all are asked for.
std::string primary_metric(const SiteOptions& options);

// A file of the site: its path under the site's root ("index.html", "assets/common.js").
struct SiteFile {
  SiteFile() = default;
  SiteFile(std::string path_, std::string content_, std::string read_from_ = {},
           std::string hash_ = {})
      : path(std::move(path_)),
        content(std::move(content_)),
        read_from(std::move(read_from_)),
        hash(std::move(hash_)) {}

  std::string path;
  std::string content;
  // A page read back from the previous build's directory, whose file there holds `content`
  // (checked against the hash that build recorded): that directory, and the hash. Writing the
  // site into that directory leaves the file alone without reading it again.
  std::string read_from;
  std::string hash;
};

struct Site {
  std::vector<SiteFile> files;
  std::vector<std::string> warnings;
  // The run pages, the compare page and the benchmark pages, each with the key of what it
  // was made from: this build of benchguard, every option, and its runs as listed (status,
  // times, counts of benchmarks and instances; for a benchmark page, its points and change
  // points too). A later build that finds the same key beside the same page, with the bytes
  // recorded for it, in the site's directory keeps the page (PreviousSite).
  std::map<std::string, std::string> keys;  // path -> key
  std::size_t reused = 0;                   // pages taken from the previous build
  // The key of the whole site: this build of benchguard, every option and store_fingerprint.
  // A build whose previous build had the same key takes every file from it (unchanged = true)
  // once their bytes are checked against the hashes it recorded.
  std::string key;
  bool unchanged = false;
  // The history the pages were made from, being freed meanwhile: a Site waits for it when
  // it goes.
  std::shared_future<void> released;
  // What the next build into the site's directory starts from (kSiteState); empty without a
  // key.
  std::string state;
  // Made from the previous build's state: only the history of these benchmarks was read and
  // their series' pages made again (none when the new runs measure nothing the site shows).
  bool followed = false;
  std::vector<std::string> remade;
  const SiteFile* find(const std::string& path) const;
};

// What the pages show depends on: the runs as listed, their measurements
// (Store::measurements_stamp), the stored change points with the detection states they were
// found with, and acknowledgements. Nothing is
// counted: on a history of millions of instances it costs what its runs' rows cost. `serve`
// builds its pages again when it moves.
Result<std::string> store_fingerprint(store::Store& store);

// The keys of the pages of the previous build of a site directory (kSiteKeys), and where to
// read those pages: the directory, or the build itself when it is still held (`serve`).
struct PreviousSite {
  std::string dir;
  const Site* built = nullptr;  // when set, pages come from it and `dir` is not read
  std::map<std::string, std::string> keys;
  std::string key;                                         // Site::key
  std::vector<std::pair<std::string, std::string>> files;  // (path, hash of its bytes), in order
  std::map<std::string, std::string> hashes;               // the same by path
  std::vector<std::string> warnings;                       // Site::warnings
  std::string state;                                       // Site::state
};

// Written by write_site beside kSiteManifest, one line each: "site KEY", "page KEY PATH",
// "file HASH PATH" (every file of the site, in order), "warning TEXT".
inline constexpr const char* kSiteKeys = ".benchguard-site-keys";

// Written by write_site beside kSiteKeys: Site::state. A build into the directory that finds
// nothing changed but new runs (and change points and detection states of the series they
// measure) makes again only the pages of those series and the pages that list them all.
inline constexpr const char* kSiteState = ".benchguard-site-state";

// What write_site left in `dir` (nothing when the directory or its keys are missing).
PreviousSite read_previous_site(const std::string& dir);

// A build held in memory as the previous one: `serve` makes only the pages whose keys moved.
// `site` must outlive the build that uses it.
PreviousSite previous_in_memory(const Site& site);

// False when the binary was built without the dashboard's assets (BENCHGUARD_DASHBOARD=OFF).
bool dashboard_available();

// Every page of the site, its data and its assets. With `previous`, a run, compare or
// benchmark page whose key is unchanged is read from the previous build instead of being made
// again (summarising a run of 1,000 benchmarks costs about 0.7 s): the site is the same either
// way.
Result<Site> build_site(store::Store& store, const SiteOptions& options, int64_t now,
                        const PreviousSite* previous = nullptr);

// The page of one run ("run-ID.html"): what `summary` says of it, with per-iteration values
// of each instance, and, when it has two variants or more, its first two compared as
// `compare RUN` compares them.
Result<std::string> render_run_page(store::Store& store, const std::string& ref,
                                    const SiteOptions& options);

// The options of the site's A/B tables (the compare page's, a run page's): `metrics`, the
// history's burn-in policy, the threshold, and the run pages' seed and resamples.
analysis::CompareOptions compare_options(const SiteOptions& options,
                                         std::vector<std::string> metrics);

// The runs of the compare page, newest first: the newest `compare_runs` history runs of `runs`
// (as list_runs returns them, newest first) and the baseline before them.
std::vector<const store::RunSummary*> compare_page_runs(const std::vector<store::RunSummary>& runs,
                                                        const SiteOptions& options);

// The compare page ("compare.html") of `runs` (as list_runs returns them, newest first).
Result<std::string> render_compare_page(store::Store& store,
                                        const std::vector<store::RunSummary>& runs,
                                        const SiteOptions& options);

// The plan page of one run ("plan-ID.html"): the minimal detectable slowdown of each
// instances x iterations configuration per benchmark, as `plan` simulates it, and its choice.
Result<std::string> render_plan_page(store::Store& store, const std::string& ref,
                                     const SiteOptions& options);

// What write_site changed in the directory.
struct SiteWrite {
  std::size_t written = 0;    // new or different files
  std::size_t unchanged = 0;  // already there with the same bytes: left alone (their times too)
  std::size_t removed = 0;    // written by an earlier build, not part of this site any more
};

// The list of the files a build wrote, kept in the site's directory so that the next build
// removes those it no longer has (and nothing else).
inline constexpr const char* kSiteManifest = ".benchguard-site";

// Writes the site into `dir` (created when missing): a file whose bytes are already there is
// left alone, and the files of the previous build (kSiteManifest) that this site does not have
// are removed, so that the directory holds what a build into an empty one would. The site's
// keys are written to kSiteKeys.
Result<SiteWrite> write_site(const Site& site, const std::string& dir);

// Whether a site may be written into `dir`: a folder that does not exist yet, an empty one, or
// one holding a site a build wrote (kSiteManifest). Anything else is an Error naming a file of
// the user's that would be overwritten (index.html first) or one found there, and --force.
Status check_site_folder(const std::string& dir);

}  // namespace benchguard::report::html
