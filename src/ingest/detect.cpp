// Reading a file, recognising its format from the content and checking what the importer
// made of it.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "core/json_error.hpp"
#include "core/names.hpp"
#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

// The first byte that cannot be in a text file (a control character other than tab, CR and
// LF, or bytes that are not UTF-8), as an Error naming its line; garbage in a file is
// reported here, whatever the format.
Status check_text(const Source& src) {
  const std::string_view t = src.text;
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < t.size();) {
    if (const auto c = static_cast<unsigned char>(t[i]); c >= 0x20 && c < 0x7f) {
      ++i;  // printable ASCII, most of any file
      continue;
    }
    const size_t at = i;
    const auto cp = next_code_point(t, i);
    if (cp == U'\n') {
      ++line;
      line_start = i;
      continue;
    }
    if (!cp || (is_control(*cp) && *cp != U'\t' && *cp != U'\r'))
      return src.error(line, fmt::format("byte 0x{:02x} at column {} is not text (binary or "
                                         "damaged file)",
                                         static_cast<unsigned char>(t[at]), at - line_start + 1));
  }
  return ok_status();
}

void parse_json(Source& src) {
  try {
    src.json = nlohmann::json::parse(src.text);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number beyond a double
    const JsonError why = json_error(e, src.text);
    src.json_error_line = why.line;
    src.json_error = why.reason;
  }
  if (src.json && nests_deeper(*src.json, kMaxJsonDepth)) {
    src.json.reset();
    src.json_error = fmt::format("arrays and objects nest deeper than {} levels", kMaxJsonDepth);
  }
}

bool looks_like_json(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (text[first] == '{' || text[first] == '[');
}

std::string tried_list() {
  std::string s;
  for (const auto& imp : importers()) s += (s.empty() ? "" : ", ") + std::string(imp.name);
  return s;
}

// Fills in what every imported run has, whatever its format.
void finish(Imported& imp, RunData& data, const std::string& path, int64_t fallback_time) {
  RunRecord& run = data.run;
  run.status = "imported";
  if (run.suite.empty()) run.suite = imp.format;
  run.suite_path = path;
  if (run.started_at == 0) {
    // The earliest instance launch the file records, else the fallback.
    for (const auto& v : data.variants)
      for (const auto& inst : v.instances)
        if (inst.started_at > 0 && (run.started_at == 0 || inst.started_at < run.started_at))
          run.started_at = inst.started_at;
    if (run.started_at == 0) run.started_at = fallback_time;
  }
  run.finished_at = std::max(run.finished_at, run.started_at);
  run.artifacts.emplace_back("import_format", imp.format);
}

}  // namespace

std::vector<RunData*> Imported::runs() {
  std::vector<RunData*> out;
  if (history.empty()) out.push_back(&data);
  for (auto& r : history) out.push_back(&r);
  return out;
}

std::vector<const RunData*> Imported::runs() const {
  std::vector<const RunData*> out;
  if (history.empty()) out.push_back(&data);
  for (const auto& r : history) out.push_back(&r);
  return out;
}

int Imported::benchmarks() const {
  std::unordered_set<std::string_view> names;
  for (const RunData* r : runs())
    for (const auto& v : r->variants) names.insert(v.variant.benchmark);
  return static_cast<int>(names.size());
}

int Imported::instances() const {
  int n = 0;
  for (const RunData* r : runs())
    for (const auto& v : r->variants) n += static_cast<int>(v.instances.size());
  return n;
}

int Imported::iterations() const {
  int n = 0;
  for (const RunData* r : runs())
    for (const auto& v : r->variants)
      for (const auto& inst : v.instances) n += static_cast<int>(inst.iterations.size());
  return n;
}

int Imported::summaries() const {
  int n = 0;
  for (const RunData* r : runs())
    for (const auto& v : r->variants) n += static_cast<int>(v.summaries.size());
  return n;
}

Result<const nlohmann::json*> Source::document() const {
  if (json) return &*json;
  return error(json_error_line, "malformed JSON: " + json_error);
}

const std::vector<Importer>& importers() {
  // Otava's CSV after duet's, whose header is the more particular.
  static const std::vector<Importer> kAll = {kGoogleBenchmark, kHyperfine,       kJmh,
                                             kRenaissance,     kPytestBenchmark, kHailJsonl,
                                             kDuetCsv,         kGoBench,         kOtavaCsv};
  return kAll;
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const auto& imp : importers()) names.emplace_back(imp.name);
  return names;
}

namespace {

// The run artifact `metric_declarations`, {"name": {"unit": "B", "better": "lower"}, ...}, as
// metrics not built in and not declared yet; an unreadable one is ignored (it only describes).
void declared_in_artifact(const RunData& run, std::vector<MetricInfo>& metrics) {
  const std::string* text = find_value(run.run.artifacts, "metric_declarations");
  if (text == nullptr) return;
  const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return;
  for (const auto& item : j.items()) {
    const std::string& name = item.key();  // (clang 14 cannot capture structured bindings)
    const auto& d = item.value();
    if (!d.is_object() || find_builtin_metric(name) != nullptr) continue;
    if (std::any_of(metrics.begin(), metrics.end(),
                    [&](const MetricInfo& m) { return m.name == name; }))
      continue;
    const auto unit = d.value("unit", nlohmann::json(""));
    const auto better = d.value("better", nlohmann::json("lower"));
    if (!unit.is_string() || !better.is_string()) continue;
    metrics.push_back({name, unit.get<std::string>(),
                       better.get<std::string>() == "higher" ? Direction::kHigherIsBetter
                                                             : Direction::kLowerIsBetter});
  }
}

}  // namespace

Result<Imported> import_text(const std::string& path, std::string text, const std::string& importer,
                             int64_t fallback_time) {
  Source src;
  src.path = path;
  src.text = std::move(text);
  if (src.text.starts_with("\xef\xbb\xbf")) src.text.erase(0, 3);  // a UTF-8 byte order mark
  if (src.text.find_first_not_of(" \t\r\n") == std::string::npos)
    return src.error(0, "the file is empty");
  BG_TRY(check_text(src));
  parse_json(src);

  const Importer* chosen = nullptr;
  for (const auto& imp : importers()) {
    if (importer == "auto" ? imp.detect(src) : imp.name == importer) {
      chosen = &imp;
      break;
    }
  }
  if (chosen == nullptr && importer != "auto")
    return Error{fmt::format("unknown import format '{}' (formats: {})", importer, tried_list())};
  if (chosen == nullptr) {
    // Damaged JSON matches no format; say where it breaks rather than "unknown format".
    if (looks_like_json(src.text) && !src.json) {
      BG_TRY(src.document());
    }
    return src.error(0, fmt::format("not a format benchguard imports (tried {}); name one "
                                    "with --input-format",
                                    tried_list()));
  }

  BG_ASSIGN(Imported imp, chosen->parse(src));
  imp.path = path;
  imp.format = std::string(chosen->name);
  if (imp.iterations() == 0 && imp.summaries() == 0) {
    std::string why = imp.warnings.empty() ? "it holds no measurements" : imp.warnings.front();
    return src.error(0, fmt::format("nothing to import as {}: {}", imp.format, why));
  }
  // A pytest plugin session carries its metrics' units and directions as a run artifact
  // (benchguard's CSV layout has no place for them): declared as the protocol would.
  for (const RunData* run : imp.runs()) declared_in_artifact(*run, imp.metrics);
  // Whatever the format: names that can be shown anywhere, values that can be.
  for (const auto& m : imp.metrics)
    if (auto st = check_name("metric name", m.name); !st.ok())
      return src.error(0, st.error().message);
  for (RunData* run : imp.runs()) {
    if (auto st = check_run_names(*run); !st.ok()) return src.error(0, st.error().message);
    if (auto st = check_values(*run, imp.metrics); !st.ok())
      return src.error(0, st.error().message);
    finish(imp, *run, path, fallback_time);
  }
  return imp;
}

Result<Imported> import_file(const std::string& path, const std::string& importer) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory"};
  const auto too_large = [&] {
    return Error{fmt::format("{}: larger than the import limit of {} MiB; split the file", path,
                             kMaxImportBytes >> 20)};
  };
  struct stat st {};
  int64_t mtime = 0;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxImportBytes)
      return too_large();
    mtime = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  }
  // Read in blocks up to the limit: a device or a pipe (/dev/zero) has no size to trust.
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the file"};
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(static_cast<size_t>(st.st_size));
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    const auto n = static_cast<size_t>(in.gcount());
    text.append(block, n);
    if (std::memchr(block, '\0', n) != nullptr) {  // binary: say where now, not after 1 GiB
      Source src;
      src.path = path;
      src.text = std::move(text);
      BG_TRY(check_text(src));
      text = std::move(src.text);
    }
    if (text.size() > kMaxImportBytes) return too_large();
  }
  if (in.bad()) return Error{path + ": cannot read the file"};
  return import_text(path, std::move(text), importer, mtime);
}

Result<std::vector<IterationRecord>> google_benchmark_iterations(const std::string& path,
                                                                 std::string text) {
  BG_ASSIGN(Imported imported, import_text(path, std::move(text), "google-benchmark"));
  std::vector<std::string> names;
  std::vector<IterationRecord> out;
  for (auto& v : imported.data.variants) {
    if (v.instances.empty()) continue;
    names.push_back(v.variant.benchmark);
    for (auto& in : v.instances)
      for (auto& it : in.iterations) out.push_back(std::move(it));
  }
  if (names.size() > 1) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return Error{
        fmt::format("{}: Google Benchmark ran {} benchmarks ({}); a benchguard "
                    "benchmark runs one: narrow it with --benchmark_filter",
                    path, names.size(), list)};
  }
  if (out.empty())
    return Error{path +
                 ": Google Benchmark wrote no repetition (aggregates only, or every "
                 "benchmark skipped)"};
  for (std::size_t k = 0; k < out.size(); ++k) out[k].index = static_cast<int>(k);
  return out;
}

}  // namespace benchguard::ingest
