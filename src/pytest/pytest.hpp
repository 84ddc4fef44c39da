// A pytest suite as a benchguard suite (`benchguard pytest`, docs/pytest.md): the tests of a
// selection that take a benchmark fixture, collected by each interpreter, become one benchmark
// each, with one variant per interpreter (A, B) running that test alone in a fresh pytest
// process under the iteration protocol (python/benchguard_pytest).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard::pytest {

// Where the benchguard_pytest package lives beside this benchguard (the source tree's python/
// of a build inside it, or share/benchguard/python of an installation), or "" when it is not
// found there (then the interpreters must have it installed).
std::string plugin_dir();

// One side: the variant's name and the interpreter that runs it.
struct Interpreter {
  std::string variant;  // "A", "B"
  std::string python;   // as given: a name looked up in PATH, or a path
};

// The environment every pytest process of `benchguard pytest` gets: the plugin on PYTHONPATH
// (before what is set already) when plugin_dir() found it, and no .pyc files written.
KeyValues python_env(const std::string& plugin);

struct CollectedTest {
  std::string nodeid;   // as pytest names it, relative to its rootdir: tests/test_x.py::test_y[3]
  std::string target;   // what selects it from any directory: the node id under the rootdir
  std::string name;     // the benchmark's name (the plugin's benchmark_name)
  std::string fixture;  // benchmark_time, benchmark_memory or benchmark_time_memory
};

// What a collection found: the tests `pytest_args` select that take a benchmark fixture, as
// `python` collects them in `cwd` (nothing runs), and pytest's own output.
struct Collection {
  bool collector_ran = false;  // benchguard_pytest's collector printed its result
  int exit_code = -1;          // pytest's when the collector ran, else the interpreter's
  std::string output;          // what pytest (or the interpreter) printed, both streams
  std::vector<CollectedTest> tests;
  // pytest collected the selection (exit code 0, or 5: nothing selected).
  bool ok() const { return collector_ran && (exit_code == 0 || exit_code == 5); }
};
// An Error only when `python` cannot be started.
Result<Collection> collect(const std::string& python, const std::vector<std::string>& pytest_args,
                           const std::string& cwd, const KeyValues& env);

// The distributions installed for `python` (name -> version), by importlib.metadata.
Result<std::map<std::string, std::string>> packages(const std::string& python,
                                                    const KeyValues& env);

// The suite: one benchmark per test (in `tests`' order), a variant per interpreter, each
// instance `python -m pytest -q -p no:cacheprovider -p benchguard_pytest TARGET --benchguard`
// in `cwd` with `env`. Counts are the defaults of docs/pytest.md (5 instances, 1 warm-up
// iteration flagged burn-in before 5 measured ones); flags change them afterwards.
Suite suite_of(const std::vector<CollectedTest>& tests,
               const std::vector<Interpreter>& interpreters, const std::string& cwd,
               const KeyValues& env);

// The run artifact analysis::kPackagesArtifact for each side's packages: {"A": {"dask":
// "2024.2.1", ...}, ...}.
std::string packages_artifact(
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>>& sides);

}  // namespace benchguard::pytest
