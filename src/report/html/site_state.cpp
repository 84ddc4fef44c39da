#include "report/html/site_state.hpp"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"

namespace benchguard::report::html {
namespace {

using nlohmann::json;

constexpr std::string_view kHeader = "benchguard-site-state 1";

// Splits "WORD REST" at its first space; false when there is none.
bool split(std::string_view line, std::string_view& word, std::string_view& rest) {
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return false;
  word = line.substr(0, space);
  rest = line.substr(space + 1);
  return true;
}

template <class Int>
bool number(std::string_view text, Int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string state_text(const SiteState& state) {
  std::size_t size = 256 + 48 * state.runs.size() + 96 * state.commits.size();
  for (const auto& s : state.series)
    size += s.key.size() + s.benchmark.size() + s.overview.size() + s.changes.size() + 64;
  std::string out;
  out.reserve(size);
  out += kHeader;
  out += fmt::format("\nkey {}\nacks {}\ngroups {}\n", state.key, state.acks, state.groups);
  for (const auto& [id, hash] : state.runs) out += fmt::format("run {} {}\n", id, hash);
  for (const auto& e : state.commits)
    out += fmt::format("commit {}\n", json_text(json::array({e.commit, e.time, e.branch})));
  for (const auto& s : state.series) {
    out +=
        fmt::format("series {} {} {} {}\t", s.group, s.severity, s.inputs.empty() ? "-" : s.inputs,
                    json_text(json::array({s.key, s.benchmark})));
    out += s.overview;
    out += '\t';
    out += s.changes;
    out += '\n';
  }
  // A state cut short at the end of a line is not taken for a whole one.
  out +=
      fmt::format("end {} {} {}\n", state.runs.size(), state.commits.size(), state.series.size());
  return out;
}

std::optional<SiteState> parse_state(std::string_view text) {
  SiteState state;
  bool header = false;
  bool groups = false;
  bool ended = false;
  try {
    while (!text.empty()) {
      const auto end = text.find('\n');
      if (end == std::string_view::npos) return std::nullopt;  // cut short
      const std::string_view line = text.substr(0, end);
      text.remove_prefix(end + 1);
      if (!header) {
        if (line != kHeader) return std::nullopt;
        header = true;
        continue;
      }
      std::string_view kind, rest;
      if (ended || !split(line, kind, rest)) return std::nullopt;
      if (kind == "end") {
        ended = rest == fmt::format("{} {} {}", state.runs.size(), state.commits.size(),
                                    state.series.size());
        if (!ended) return std::nullopt;
      } else if (kind == "key") {
        state.key = rest;
      } else if (kind == "acks") {
        state.acks = rest;
      } else if (kind == "groups") {
        if (!number(rest, state.groups)) return std::nullopt;
        groups = true;
      } else if (kind == "run") {
        std::string_view id, hash;
        std::pair<int64_t, int64_t> run;
        if (!split(rest, id, hash) || !number(id, run.first) || !number(hash, run.second))
          return std::nullopt;
        state.runs.push_back(run);
      } else if (kind == "commit") {
        const json c = json::parse(rest);
        state.commits.push_back(
            {c.at(0).get<std::string>(), c.at(1).get<int64_t>(), c.at(2).get<std::string>()});
      } else if (kind == "series") {
        // GROUP SEVERITY INPUTS [KEY,BENCHMARK] \t OVERVIEW \t CHANGES
        const auto tab = rest.find('\t');
        const auto tab2 = tab == std::string_view::npos ? tab : rest.find('\t', tab + 1);
        if (tab2 == std::string_view::npos) return std::nullopt;
        std::string_view head = rest.substr(0, tab), group, severity, inputs, names;
        if (!split(head, group, head) || !split(head, severity, head) ||
            !split(head, inputs, names))
          return std::nullopt;
        SiteState::Series s;
        if (!number(group, s.group) || !number(severity, s.severity)) return std::nullopt;
        if (inputs != "-") s.inputs = inputs;
        const json n = json::parse(names);
        s.key = n.at(0).get<std::string>();
        s.benchmark = n.at(1).get<std::string>();
        s.overview = rest.substr(tab + 1, tab2 - tab - 1);
        s.changes = rest.substr(tab2 + 1);
        if (s.changes.size() < 2 || s.changes.front() != '[' || s.changes.back() != ']')
          return std::nullopt;
        state.series.push_back(std::move(s));
      } else {
        return std::nullopt;
      }
    }
  } catch (const json::exception&) {
    return std::nullopt;
  }
  if (!header || !groups || !ended) return std::nullopt;
  for (const auto& s : state.series)
    if (s.group >= state.groups) return std::nullopt;
  return state;
}

}  // namespace benchguard::report::html
