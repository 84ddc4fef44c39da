// Bad input gets one line naming what is wrong, exit code 2, and nothing stored is lost.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/app.hpp"
#include "store/store.hpp"
#include "support/test_support.hpp"

namespace benchguard {
namespace {

using testing::CliResult;
using testing::read_file;
using testing::run_cli;
using testing::run_cli_in_process;
using testing::TempDir;
using testing::write_file;

// A database holding one run, to check that failures leave it intact.
std::string seeded_db(const TempDir& dir) {
  std::string db = dir.file("bg.db");
  const auto r = run_cli({"run", "--instances", "2", "--db", db, "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

void expect_one_run(const std::string& db) {
  auto store = store::open_store(db);
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto runs = (*store)->list_runs();
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 1u);
}

TEST(CliErrors, UnknownCommandSuggestsTheClosest) {
  TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"compre"}, "unknown command 'compre'; did you mean 'compare'?"},
      {{"--db", dir.file("x.db"), "sumary", "latest"}, "did you mean 'summary'?"},
      {{"--format", "json", "gaet"}, "did you mean 'gate'?"},
      {{"frobnicate"}, "unknown command 'frobnicate' (see benchguard --help)"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.db")));
}

TEST(CliErrors, MalformedYamlNamesFileAndLine) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  write_file(dir.file("bad.yml"), "benchmarks:\n  - name: x\n    command: [a, b\n");
  const auto r = run_cli({"run", dir.file("bad.yml"), "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(dir.file("bad.yml") + ":"), std::string::npos) << r.err;
  expect_one_run(db);
}

TEST(CliErrors, UnknownKeyNamesLine) {
  TempDir dir;
  write_file(dir.file("s.yml"), "benchmarks:\n  - name: x\n    comand: [/bin/true]\n");
  const auto r = run_cli({"run", dir.file("s.yml"), "--db", dir.file("bg.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("s.yml:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("comand"), std::string::npos) << r.err;
}

TEST(CliErrors, MissingExecutableStoresNothing) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  write_file(dir.file("s.yml"),
             "benchmarks:\n  - name: ok\n    command: [/bin/true]\n"
             "  - name: missing\n    command: [no-such-program-benchguard]\n");
  const auto r = run_cli({"run", dir.file("s.yml"), "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no-such-program-benchguard"), std::string::npos) << r.err;
  expect_one_run(db);
}

TEST(CliErrors, CountsAboveTheLimitsStoreNothing) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  // Once, 2^31 - 1 instances ran the process out of memory before anything was launched.
  for (const auto& flags : std::vector<std::vector<std::string>>{
           {"--instances", "2147483647"},
           {"--iterations", "2000000000", "--burn-in", "2000000000"}}) {
    std::vector<std::string> args = {"run", "--db", db};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--", "/bin/true"});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("is above the limit of"), std::string::npos) << r.err;
  }
  expect_one_run(db);
}

TEST(CliErrors, CorruptDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string garbage(4096, 'x');
  write_file(dir.file("bad.db"), garbage);
  const auto r =
      run_cli({"run", "--instances", "1", "--db", dir.file("bad.db"), "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("bad.db"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir.file("bad.db")), garbage);
}

TEST(CliErrors, UnwritableDatabaseLocation) {
  TempDir dir;
  const auto r = run_cli(
      {"run", "--instances", "1", "--db", dir.file("no/such/dir/bg.db"), "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no/such/dir"), std::string::npos) << r.err;
}

TEST(CliErrors, ShowOnMissingDatabase) {
  TempDir dir;
  const auto r = run_cli({"show", "--db", dir.file("none.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
}

TEST(CliErrors, UnknownOption) {
  const auto r = run_cli({"run", "--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
}

TEST(CliErrors, NothingToRun) {
  TempDir dir;
  const auto r = run_cli({"run", "--db", dir.file("bg.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to run"), std::string::npos) << r.err;
}

// `run` sets up only the command named on its command line, found by the name the command
// table gives it: that name must be the one the command's add_* function registers.
TEST(CliCommands, EachCommandIsSetUpUnderItsOwnName) {
  const auto names = cli::command_names();
  ASSERT_GE(names.size(), 20u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const CliResult o = run_cli_in_process({name, "--help"});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("Usage: benchguard " + name + " "), std::string::npos) << o.out;
  }
}

TEST(CliCommands, TheHelpListsEveryCommandThatIsNotHidden) {
  const CliResult o = run_cli_in_process({"--help"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto listed = o.out.substr(o.out.find("Subcommands:"));
  for (const auto& name : cli::command_names()) {
    if (name == "task") continue;  // run by a submitted job's array tasks, not by people
    EXPECT_NE(listed.find("\n  " + name + " "), std::string::npos) << name;
  }
}

TEST(CliCommands, GlobalOptionsBeforeTheCommandAndTheirValuesDoNotNameIt) {
  // `--format run`: the value of a global option is not the command, `runs` is.
  const CliResult o =
      run_cli_in_process({"--format", "json", "-q", "runs", "--db", "/nonexistent/dir/x.db"});
  EXPECT_EQ(o.err.find("unknown command"), std::string::npos) << o.err;
  const CliResult typo = run_cli_in_process({"--db", "x.db", "comapre"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("unknown command 'comapre'; did you mean 'compare'?"), std::string::npos)
      << typo.err;
}

// ---- The shared flags: one name, one meaning, the range a person writes (docs/cli-flags.md)

TEST(CliFlags, ABareNumberOfOneOrMoreIsNotAPercentage) {
  TempDir dir;
  const std::string db = seeded_db(dir);
  // Read as 500%, a 5 once let a 1.93x slowdown pass the gate.
  const CliResult five =
      run_cli_in_process({"compare", "--db", db, "--threshold", "5", "--fail-on", "slower"});
  EXPECT_EQ(five.exit_code, 2) << five.err;
  EXPECT_NE(five.err.find("--threshold 5 would mean 500%; write 5%"), std::string::npos)
      << five.err;
  EXPECT_EQ(testing::count_lines(five.err), 1) << five.err;
  for (const auto& flag :
       std::vector<std::vector<std::string>>{{"summary", "--confidence", "95"},
                                             {"compare", "--min-overlap", "40"},
                                             {"compare", "--simulate-slowdown", "1.5"},
                                             {"plan", "--target", "5"},
                                             {"plan", "--power", "1"},
                                             {"detect", "--min-magnitude", "2"},
                                             {"run", "--threshold", "3", "--until-decided"}}) {
    std::vector<std::string> args = flag;
    args.insert(args.end(), {"--db", db});
    const CliResult r = run_cli_in_process(args);
    EXPECT_EQ(r.exit_code, 2) << flag[1] << ": " << r.err;
    EXPECT_NE(r.err.find(flag[1] + " " + flag[2] + " would mean"), std::string::npos) << r.err;
  }
  // The same values as percentages or fractions below 1 are taken, and mean the same.
  const std::string aa = dir.file("aa.db");
  ASSERT_EQ(run_cli({"run", "--null", "--instances", "2", "--db", aa, "--", "/bin/true"}).exit_code,
            0);
  for (const auto& [threshold, confidence] :
       std::vector<std::pair<std::string, std::string>>{{"5%", "90%"}, {"0.05", "0.9"}}) {
    const CliResult r = run_cli_in_process({"compare", "--db", aa, "--format", "json",
                                            "--threshold", threshold, "--confidence", confidence});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_DOUBLE_EQ(j["confidence"].get<double>(), 0.9) << r.out;
    EXPECT_DOUBLE_EQ(j["metrics"][0]["rows"][0]["threshold"].get<double>(), 0.05) << r.out;
  }
  const CliResult outside = run_cli_in_process({"summary", "--db", db, "--confidence", "40%"});
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("--confidence must be from 50% to 99.99%, not 40%"), std::string::npos)
      << outside.err;
}

TEST(CliFlags, RangeErrorsNameTheRangeAsAPersonWritesIt) {
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {{"run", "--instances", "0"}, "--instances must be at least 1, not 0"},
      {{"run", "--instances", "x"}, "--instances must be a whole number, not 'x'"},
      {{"run", "--warmup", "-1"}, "--warmup must be at least 0, not -1"},
      {{"compare", "--resamples", "5"}, "--resamples must be from 100 to 10000000, not 5"},
      {{"serve", "--port", "70000"}, "--port must be from 0 to 65535, not 70000"},
      {{"detect", "--p", "0.6"}, "--p must be above 0% and at most 50%, not 0.6"},
      {{"runs", "-n", "-3"}, "--limit must be at least 0, not -3"},
      {{"run", "--burn-in", "soon"}, "--burn-in must be auto, configured or a count, not 'soon'"},
  };
  for (const auto& c : cases) {
    const CliResult r = run_cli_in_process(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1];
    EXPECT_NE(r.err.find("benchguard: " + c.says + " (see"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("not in range"), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  }
}

TEST(CliFlags, AValueACommandCannotUseIsRefusedByIt) {
  TempDir dir;
  const CliResult median = run_cli_in_process(
      {"run", "--db", dir.file("bg.db"), "--statistic", "median", "--", "/bin/true"});
  EXPECT_EQ(median.exit_code, 2);
  EXPECT_NE(median.err.find("--statistic median has no t interval, which --until-decided needs"),
            std::string::npos)
      << median.err;
  const CliResult counted = run_cli_in_process(
      {"run", "--db", dir.file("bg.db"), "--burn-in", "auto", "--", "/bin/true"});
  EXPECT_EQ(counted.exit_code, 2);
  EXPECT_NE(counted.err.find("a run takes a count of iterations"), std::string::npos)
      << counted.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("bg.db")));
}

// The Markdown tables of docs/cli-flags.md: per flag, its meaning and the commands that take it.
struct FlagsDocRow {
  std::string flag, meaning;
  std::vector<std::string> commands;
};

std::vector<std::string> flags_doc_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(cell.substr(1, cell.size() >= 2 ? cell.size() - 2 : 0));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// The rows of the table under the heading `section` ("## ..."), after its header line.
std::vector<FlagsDocRow> flags_doc_table(const std::string& section) {
  std::istringstream in(read_file(std::string(BG_SOURCE_DIR) + "/docs/cli-flags.md"));
  std::vector<FlagsDocRow> rows;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == section;
    if (!inside || !line.starts_with("| `-")) continue;
    const auto cells = flags_doc_cells(line);
    if (cells.size() != 3) {
      ADD_FAILURE() << "not three cells: " << line;
      continue;
    }
    FlagsDocRow row{cells[0].substr(1, cells[0].size() - 2), cells[1], {}};
    std::istringstream commands(cells[2]);
    for (std::string c; std::getline(commands, c, ',');)
      row.commands.push_back(c.substr(c.find_first_not_of(' ')));
    rows.push_back(std::move(row));
  }
  EXPECT_FALSE(rows.empty()) << section;
  return rows;
}

// Each long option of `benchguard CMD --help` and its one-line description (CLI11's layout: the
// description from column 31, or on the next line after a long entry).
std::map<std::string, std::string> flags_of_help(const std::string& command) {
  const CliResult help = run_cli_in_process({command, "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  std::vector<std::string> lines;
  std::istringstream in(help.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::map<std::string, std::string> flags;
  bool options = false;
  const std::string indent(30, ' ');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (!line.empty() && line[0] != ' ' && line.back() == ':') options = line == "Options:";
    if (!options || !line.starts_with("  -")) continue;
    std::string description;
    if (i + 1 < lines.size() && lines[i + 1].starts_with(indent) && lines[i + 1].size() > 30 &&
        lines[i + 1][30] != ' ')
      description = lines[i + 1].substr(30);
    else if (line.size() > 30)
      description = line.substr(30);
    description.erase(description.find_last_not_of(' ') + 1);
    std::istringstream names(line.substr(2, line.find(' ', 2) - 2));
    for (std::string name; std::getline(names, name, ',');)
      if (name.starts_with("--") && name != "--help") flags[name] = description;
  }
  return flags;
}

TEST(CliFlags, TheTableOfSharedFlagsMatchesEveryCommandsHelp) {
  std::map<std::string, std::map<std::string, std::string>> help;  // command -> flag -> meaning
  for (const auto& name : cli::command_names()) help[name] = flags_of_help(name);
  const auto shared = flags_doc_table("## Shared flags");
  const auto own = flags_doc_table("## Flags each command has for itself");

  std::map<std::string, std::set<std::string>> listed;  // flag -> the commands its rows name
  std::set<std::string> shared_names;
  for (const auto* table : {&shared, &own})
    for (const auto& row : *table) {
      if (table == &shared) {
        EXPECT_TRUE(shared_names.insert(row.flag).second) << row.flag << " has two meanings";
      }
      for (const auto& command : row.commands) {
        SCOPED_TRACE(row.flag + " of " + command);
        ASSERT_TRUE(help.contains(command)) << "no command " << command;
        const auto found = help[command].find(row.flag);
        ASSERT_NE(found, help[command].end()) << command << " --help has no " << row.flag;
        EXPECT_EQ(found->second, row.meaning);
        EXPECT_TRUE(listed[row.flag].insert(command).second) << "listed twice";
      }
    }
  // Every command that offers a listed flag is listed with it, and every flag that two commands
  // offer is in a table.
  std::map<std::string, std::set<std::string>> offered;
  for (const auto& [command, flags] : help)
    for (const auto& [flag, meaning] : flags) offered[flag].insert(command);
  for (const auto& [flag, commands] : offered) {
    if (commands.size() < 2 && !listed.contains(flag)) continue;
    EXPECT_EQ(listed[flag], commands) << flag << ": the commands that offer it and those listed";
  }
}

TEST(CliFlags, AnOldNameSaysTheNewOne) {
  // docs/cli-flags.md, "Renamed flags": | `command` | `--old` | `--new` |
  std::istringstream in(read_file(std::string(BG_SOURCE_DIR) + "/docs/cli-flags.md"));
  int renamed = 0;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == "## Renamed flags";
    if (!inside || !line.starts_with("| `")) continue;
    const auto cells = flags_doc_cells(line);
    ASSERT_EQ(cells.size(), 3u) << line;
    const auto unquote = [](const std::string& c) { return c.substr(1, c.size() - 2); };
    std::istringstream commands(cells[0]);
    for (std::string command; std::getline(commands, command, ',');) {
      command = unquote(command.substr(command.find('`')));
      const std::string old_name = unquote(cells[1]), new_name = unquote(cells[2]);
      const CliResult r = run_cli_in_process({command, old_name, "1"});
      EXPECT_EQ(r.exit_code, 2) << command << " " << old_name;
      const std::string says = fmt::format("{} {} is now {}", command, old_name, new_name);
      EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
      EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
      ++renamed;
    }
  }
  EXPECT_GE(renamed, 8);
}

}  // namespace
}  // namespace benchguard
