#include "measure/valgrind_count.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "measure/exec_resolve.hpp"

namespace benchguard::measure {

namespace fs = std::filesystem;

namespace {

Result<std::string> find_valgrind(const char* path_env) {
  auto valgrind = resolve_executable("valgrind", path_env, "");
  if (!valgrind.ok())
    return Error{
        "measure: instructions needs Valgrind, which is not installed here "
        "(apt-get install valgrind)"};
  return valgrind;
}

}  // namespace

Status valgrind_available(const char* path_env) {
  BG_TRY(find_valgrind(path_env));
  return ok_status();
}

Result<ValgrindRun> ValgrindRun::prepare(const char* path_env, bool simulate_caches) {
  BG_ASSIGN(std::string valgrind, find_valgrind(path_env));
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  std::string dir = ((ec ? fs::path("/tmp") : base) / "benchguard-vg-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr)
    return Error{"cannot make a directory for Valgrind's counts in " + base.string()};
  return ValgrindRun(std::move(valgrind), std::move(dir), simulate_caches);
}

ValgrindRun::ValgrindRun(ValgrindRun&& other) noexcept
    : valgrind_(std::move(other.valgrind_)),
      dir_(std::move(other.dir_)),
      simulate_caches_(other.simulate_caches_) {
  other.dir_.clear();
}

ValgrindRun::~ValgrindRun() {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::vector<std::string> ValgrindRun::wrap(const std::vector<std::string>& argv) const {
  // callgrind rather than cachegrind: Valgrind 3.19's cachegrind has no client requests, and
  // the per-iteration counts need its dumps. Positions by function only (no line tables), to
  // keep its files small.
  std::vector<std::string> out = {valgrind_,
                                  "--tool=callgrind",
                                  "--dump-line=no",
                                  "--trace-children=yes",
                                  "--callgrind-out-file=" + prefix() + ".%p",
                                  "-q"};
  if (simulate_caches_) {
    out.emplace_back("--cache-sim=yes");
    out.insert(out.end(), std::begin(kSimulatedCaches), std::end(kSimulatedCaches));
  }
  out.emplace_back("--");
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

Result<std::vector<std::pair<std::string, int64_t>>> parse_valgrind_events(
    const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    if (line.starts_with("events:")) {
      std::istringstream words(line.substr(7));
      names.clear();
      for (std::string w; words >> w;) names.push_back(w);
      continue;
    }
    if (!line.starts_with("summary:")) continue;
    if (names.empty()) return Error{"its summary line comes before any events line"};
    std::istringstream words(line.substr(8));
    std::vector<std::pair<std::string, int64_t>> out;
    for (std::string w; words >> w;) {
      int64_t n = 0;
      const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), n);
      if (ec != std::errc() || end != w.data() + w.size() || n < 0)
        return Error{fmt::format("its summary line '{}' holds '{}', not a count", line, w)};
      if (out.size() == names.size())
        return Error{"its summary line '" + line + "' holds more figures than events"};
      out.emplace_back(names[out.size()], n);
    }
    // Trailing events a file leaves out are 0 (callgrind's format).
    while (out.size() < names.size()) out.emplace_back(names[out.size()], 0);
    return out;
  }
  return Error{"it has no summary line"};
}

std::vector<std::pair<std::string, int64_t>> cache_counts(
    const std::vector<std::pair<std::string, int64_t>>& events) {
  const auto get = [&](std::string_view name) -> std::optional<int64_t> {
    for (const auto& [n, v] : events)
      if (n == name) return v;
    return std::nullopt;
  };
  int64_t refs = 0, l1 = 0, ll = 0;
  for (const char* e : {"Ir", "Dr", "Dw"}) {
    const auto v = get(e);
    if (!v) return {};
    refs += *v;
  }
  for (const char* e : {"I1mr", "D1mr", "D1mw"}) {
    const auto v = get(e);
    if (!v) return {};
    l1 += *v;
  }
  for (const char* e : {"ILmr", "DLmr", "DLmw"}) {
    const auto v = get(e);
    if (!v) return {};
    ll += *v;
  }
  const int64_t l1_hits = refs - l1, ll_hits = l1 - ll;
  return {
      {"l1_misses", l1}, {"ll_misses", ll}, {"estimated_cycles", l1_hits + 5 * ll_hits + 35 * ll}};
}

Result<ValgrindCounts> ValgrindRun::counts() const {
  std::vector<std::pair<std::string, int64_t>> total;
  int files = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    std::ifstream f(e.path());
    std::stringstream text;
    text << f.rdbuf();
    auto events = parse_valgrind_events(text.str());
    // A process killed before it exited leaves a file without its summary.
    if (!events.ok())
      return Error{"Valgrind's count " + e.path().filename().string() + ": " +
                   events.error().message + " (was a process of the benchmark killed?)"};
    if (events->empty() || events->front().first != "Ir")
      return Error{"Valgrind's count " + e.path().filename().string() +
                   ": its first event is not Ir (instructions)"};
    // Every file names the same events in the same order; summed by name all the same.
    for (const auto& event : *events) {
      auto at = std::find_if(total.begin(), total.end(),
                             [&event](const auto& t) { return t.first == event.first; });
      if (at == total.end())
        total.push_back(event);
      else
        at->second += event.second;
    }
    ++files;
  }
  if (files == 0)
    return Error{
        "valgrind wrote no instruction count: it could not run the benchmark (run it "
        "with --show-output to see why)"};
  ValgrindCounts out;
  out.instructions = total.front().second;
  if (simulate_caches_) {
    out.counts = cache_counts(total);
    if (out.counts.empty())
      return Error{"Valgrind's counts hold no cache simulation (its events: Ir only)"};
  }
  return out;
}

}  // namespace benchguard::measure
