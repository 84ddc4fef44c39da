// Run references: the one grammar of every command that takes a run (show, summary, export,
// plan, compare, and the runs that gate, bisect and the dashboard name). In order:
//   a SQLite database file       its newest run
//   KEY=VALUE                    the newest run with that label (`run --label`)
//   latest, an id, a uuid        as Store::load_run reads them (a unique uuid prefix too)
//   a git commit                 the newest run at it: a hex prefix as given, or what
//                                `resolve_commit` makes of a branch, tag or HEAD~2; probe
//                                runs (ab, bisect, calibrate, ...: is_probe_run) are not
//                                what a commit names
// Backend-neutral: git is asked through the resolver the caller gives (vcs/ lives above).
#pragma once

#include <functional>
#include <string>

#include "store/store.hpp"

namespace benchguard::store {

// A commit hash for a git ref, or "" when it names none.
using CommitResolver = std::function<std::string(const std::string& ref)>;

// `where` names the store in errors ("in bg.db"); resolve_commit may be empty (no git).
Result<RunData> resolve_run(Store& store, const std::string& ref, const LoadOptions& load,
                            const std::string& where, const CommitResolver& resolve_commit = {});

// True when the file starts with SQLite's header: a database, not a result file.
bool is_database_file(const std::string& path);

// 4 to 40 hex digits: a commit hash or a prefix of one.
bool looks_like_commit(const std::string& ref);

}  // namespace benchguard::store
