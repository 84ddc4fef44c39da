#include "core/yaml_util.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

namespace benchguard::yaml {

namespace {

// Aliases and merge keys could nest without bound in a hostile file.
constexpr int kMaxMergeDepth = 32;
// ... and could repeat each other: ten aliases of ten aliases of ... merge 10^depth mappings.
constexpr int kMaxMerges = 1000;

// Optimal string alignment distance: a swapped pair of letters counts as one typo.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Words peer tools use for what benchguard calls otherwise; too far apart for edit distance.
std::string_view peer_word(std::string_view word) {
  static constexpr std::pair<std::string_view, std::string_view> kPeers[] = {
      {"cmd", "command"},
      {"argv", "command"},
      {"runs", "instances"},
      {"forks", "instances"},
      {"min_runs", "instances"},
      {"arguments", "args"},
      {"warmup_runs", "warmup"},
      {"burnin", "burn_in"},
      {"warmup_iterations", "burn_in"},
      {"environment", "env"},
      {"workdir", "cwd"},
      {"working_dir", "cwd"},
      {"directory", "cwd"},
      {"dir", "cwd"},
      {"parameters", "params"},
      {"measurements", "iterations"},
  };
  for (const auto& [peer, ours] : kPeers)
    if (peer == word) return ours;
  return {};
}

// YAML forbids tabs in indentation, and yaml-cpp's message for them does not say so.
std::string tab_hint(const std::string& text) {
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == 0 || text[i - 1] == '\n') {
      size_t j = i;
      while (j < text.size() && text[j] == ' ') ++j;
      if (j < text.size() && text[j] == '\t')
        return " (line " + std::to_string(line) + " indents with a tab; YAML allows only spaces)";
    }
    if (text[i] == '\n') ++line;
  }
  return "";
}

std::string unknown_key_message(const std::string& key,
                                const std::vector<std::string_view>& known) {
  std::string hint;
  const std::string_view peer = peer_word(key);
  if (!peer.empty() && std::find(known.begin(), known.end(), peer) != known.end())
    hint = std::string(peer);
  else
    hint = closest_match(key, known);
  if (!hint.empty()) return "unknown key '" + key + "' (did you mean '" + hint + "'?)";
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + std::string(k);
  return "unknown key '" + key + "' (expected one of: " + list + ")";
}

}  // namespace

int line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  const int line = node.Mark().line;
  return line >= 0 ? line + 1 : 0;
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  std::string text = node.Scalar();
  const size_t cut = std::min(text.find('\n'), size_t{40});
  if (cut < text.size()) text = text.substr(0, cut) + "...";
  return "'" + text + "'";
}

Result<std::string> read_text_file(const std::string& path, size_t limit) {
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  const std::unique_ptr<std::FILE, Close> f(std::fopen(path.c_str(), "rb"));
  if (!f) return Error{"cannot read " + path + ": " + std::strerror(errno)};
  std::string text;
  char buf[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
    text.append(buf, n);
    if (text.size() > limit)
      return Error{
          fmt::format("cannot read {}: larger than the limit of {} MiB for this kind of "
                      "file",
                      path, limit >> 20)};
  }
  // Reading a directory opens fine on Linux and fails here with EISDIR.
  if (std::ferror(f.get())) return Error{"cannot read " + path + ": " + std::strerror(errno)};
  return text;
}

std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates) {
  // Allow about one typo per three letters, at most two, so short words are not "corrected".
  const size_t budget = std::clamp<size_t>(word.size() / 3, 1, 2);
  std::string_view best;
  size_t best_distance = budget + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return std::string(best);
}

const Field* Fields::find(std::string_view key) const {
  for (const auto& f : fields_)
    if (f.key == key) return &f;
  return nullptr;
}

Result<YAML::Node> Reader::parse(const std::string& text) const {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    return error(e.mark.line >= 0 ? e.mark.line + 1 : 0, "invalid YAML: " + e.msg + tab_hint(text));
  } catch (const YAML::Exception& e) {
    return error(0, "invalid YAML: " + e.msg + tab_hint(text));
  }
}

Status Reader::collect(const YAML::Node& map, const std::string& what, int line, Fields& out,
                       int depth, int& merges) const {
  if (!map.IsMap()) {
    const int at = map.IsNull() || line_of(map) == 0 ? line : line_of(map);
    return error(at, what + " must be a mapping, got " + describe(map));
  }
  if (depth > kMaxMergeDepth) return error(line_of(map), "merge keys ('<<') nest too deeply");
  std::vector<Field> own;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar())
      return error(line_of(kv.first),
                   "keys in " + what + " must be strings, got " + describe(kv.first));
    Field f{kv.first.Scalar(), kv.second, line_of(kv.first)};
    if (f.key == "<<") continue;
    for (const auto& prev : own) {
      if (prev.key == f.key)
        return error(
            f, "duplicate key '" + f.key + "' (first at line " + std::to_string(prev.line) + ")");
    }
    own.push_back(std::move(f));
  }
  // Second pass keeps document order: merged entries land where their "<<" stands.
  size_t next_own = 0;
  for (const auto& kv : map) {
    if (kv.first.Scalar() != "<<") {
      out.fields_.push_back(own[next_own++]);
      continue;
    }
    const YAML::Node& src = kv.second;
    std::vector<YAML::Node> sources;
    if (src.IsMap()) {
      sources.push_back(src);
    } else if (src.IsSequence()) {
      for (const auto& s : src) sources.push_back(s);
    }
    if (sources.empty() ||
        !std::all_of(sources.begin(), sources.end(), [](const YAML::Node& s) { return s.IsMap(); }))
      return error(line_of(kv.first),
                   "'<<' must merge a mapping or a list of mappings, got " + describe(src));
    for (const auto& s : sources) {
      Fields merged;
      if (++merges > kMaxMerges)
        return error(line_of(kv.first), "merge keys ('<<') merge more than " +
                                            std::to_string(kMaxMerges) + " mappings");
      BG_TRY(collect(s, what, line, merged, depth + 1, merges));
      for (auto& m : merged.fields_) {
        const bool shadowed =
            std::any_of(own.begin(), own.end(), [&](const Field& o) { return o.key == m.key; });
        if (!shadowed && out.find(m.key) == nullptr) out.fields_.push_back(std::move(m));
      }
    }
  }
  return ok_status();
}

Result<Fields> Reader::entries(const YAML::Node& map, const std::string& what, int line) const {
  Fields out;
  int merges = 0;
  BG_TRY(collect(map, what, line, out, 0, merges));
  return out;
}

Result<Fields> Reader::fields(const YAML::Node& map, const std::vector<std::string_view>& known,
                              const std::string& what, int line, bool allow_extensions) const {
  BG_ASSIGN(Fields all, entries(map, what, line));
  Fields out;
  for (auto& f : all.fields_) {
    if (allow_extensions && f.key.starts_with("x-")) continue;
    if (std::find(known.begin(), known.end(), f.key) == known.end())
      return error(f, unknown_key_message(f.key, known));
    out.fields_.push_back(std::move(f));
  }
  return out;
}

Status Reader::get_int(const Field& f, int min, int& out, int max) const {
  const std::string kind = min == 1   ? "a positive integer"
                           : min == 0 ? "a non-negative integer"
                                      : "an integer >= " + std::to_string(min);
  const Error bad = error(f, f.key + " must be " + kind + ", got " + describe(f.value));
  if (!f.value.IsScalar()) return bad;
  const std::string& s = f.value.Scalar();
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && end == s.data() + s.size() && v > max))
    return error(f, f.key + " must be at most " + std::to_string(max) + ", got " + s);
  if (ec != std::errc() || end != s.data() + s.size() || v < min) return bad;
  out = v;
  return ok_status();
}

Status Reader::get_bool(const Field& f, bool& out) const {
  bool v = false;
  if (!f.value.IsScalar() || !YAML::convert<bool>::decode(f.value, v))
    return error(f, f.key + " must be true or false, got " + describe(f.value));
  out = v;
  return ok_status();
}

Status Reader::get_string(const Field& f, std::string& out) const {
  if (!f.value.IsScalar()) return error(f, f.key + " must be a string, got " + describe(f.value));
  out = f.value.Scalar();
  return ok_status();
}

Status Reader::get_number(const Field& f, std::optional<double>& out) const {
  if (f.value.IsNull()) return ok_status();
  double v = 0;
  if (!f.value.IsScalar() || !YAML::convert<double>::decode(f.value, v))
    return error(f, f.key + " must be a number, got " + describe(f.value));
  out = v;
  return ok_status();
}

Result<std::string> Reader::element(const YAML::Node& node, const std::string& what,
                                    int line) const {
  if (node.IsScalar()) return node.Scalar();
  const int at = line_of(node) > 0 ? line_of(node) : line;
  std::string msg = what + " items must be strings, got " + describe(node);
  // An unquoted placeholder such as {n} parses as the mapping {n: null}.
  if (node.IsMap() && node.size() == 1 && node.begin()->second.IsNull())
    msg += " (put placeholders in quotes: \"{" + node.begin()->first.Scalar() + "}\")";
  return error(at, msg);
}

Status Reader::merge_env(const Field& f, KeyValues& out) const {
  BG_ASSIGN(Fields vars, entries(f.value, f.key, f.line));
  for (const auto& v : vars.all()) {
    if (v.key.empty() || v.key.find('=') != std::string::npos)
      return error(v, f.key + " name '" + v.key + "' must be non-empty and contain no '='");
    if (v.value.IsNull())
      return error(
          v, f.key + " " + v.key + " has no value; write " + v.key + ": \"\" for an empty one");
    if (!v.value.IsScalar())
      return error(v, f.key + " " + v.key + " must be a string, got " + describe(v.value));
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == v.key; });
    if (it != out.end())
      it->second = v.value.Scalar();
    else
      out.emplace_back(v.key, v.value.Scalar());
  }
  return ok_status();
}

}  // namespace benchguard::yaml
