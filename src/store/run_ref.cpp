#include "store/run_ref.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace benchguard::store {

namespace {

// The newest run matching a predicate over the run list.
template <class Pred>
Result<RunData> latest_where(Store& store, Pred pred, const std::string& what,
                             const LoadOptions& load) {
  BG_ASSIGN(const auto runs, store.list_runs());
  for (const auto& r : runs)  // newest first
    if (pred(r)) return store.load_run(r.uuid, load);
  return Error{"no run " + what};
}

}  // namespace

bool is_database_file(const std::string& path) {
  static constexpr char kHeader[] = "SQLite format 3";  // and its terminating NUL: 16 bytes
  std::ifstream in(path, std::ios::binary);
  char head[sizeof kHeader] = {};
  if (!in.read(head, sizeof head)) return false;
  return std::memcmp(head, kHeader, sizeof kHeader) == 0;
}

bool looks_like_commit(const std::string& s) {
  return s.size() >= 4 && s.size() <= 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

Result<RunData> resolve_run(Store& store, const std::string& ref, const LoadOptions& load,
                            const std::string& where, const CommitResolver& resolve_commit) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(ref, ec) && is_database_file(ref)) {
    BG_ASSIGN(auto other, open_store(ref, {.create = false, .read_only = true}));
    return other->load_run("latest", load);
  }
  if (const auto eq = ref.find('='); eq != std::string::npos) {
    const std::string k = ref.substr(0, eq), v = ref.substr(eq + 1);
    return latest_where(
        store,
        [&](const RunSummary& r) {
          return std::any_of(r.labels.begin(), r.labels.end(),
                             [&](const auto& kv) { return kv.first == k && kv.second == v; });
        },
        "labelled " + ref + " in " + where, load);
  }
  auto direct = store.load_run(ref, load);
  if (direct.ok()) return direct;
  // A commit: as given, or as git resolves it (branch, tag, HEAD~2).
  std::string commit = looks_like_commit(ref) ? ref : "";
  if (commit.empty() && resolve_commit) commit = resolve_commit(ref);
  if (!commit.empty()) {
    auto at = latest_where(
        store,
        [&](const RunSummary& r) {
          return r.git_commit.starts_with(commit) && !is_probe_run(r.labels);
        },
        "at commit " + commit.substr(0, 12) + " in " + where, load);
    if (at.ok() || looks_like_commit(ref)) return at;
  }
  return Error{
      fmt::format("'{}' is not a run, variant, KEY=VALUE label, commit, database or result file "
                  "(see `benchguard runs`)",
                  ref)};
}

}  // namespace benchguard::store
