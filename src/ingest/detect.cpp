// Reading a file, recognising its format from the content and checking what the importer
// made of it.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json_error.hpp"
#include "ingest/importer.hpp"
#include "ingest/json_field.hpp"

namespace benchguard::ingest {

namespace {

// The first byte that cannot be in a text file (a control character other than tab, CR and
// LF, or bytes that are not UTF-8), as an Error naming its line; garbage in a file is
// reported here, whatever the format.
Status check_text(const Source& src) {
  const auto& t = src.text;
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    size_t extra = 0;
    bool bad = (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
    if (c >= 0x80) {
      extra = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 0;
      bad = extra == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4;
      for (size_t k = 1; !bad && k <= extra; ++k)
        bad = i + k >= t.size() || (static_cast<unsigned char>(t[i + k]) & 0xc0) != 0x80;
    }
    if (bad)
      return src.error(line, fmt::format("byte 0x{:02x} at column {} is not text (binary or "
                                         "damaged file)",
                                         c, i - line_start + 1));
    i += extra;
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
void finish(Imported& imp, const std::string& path, int64_t fallback_time) {
  RunRecord& run = imp.data.run;
  run.status = "imported";
  if (run.suite.empty()) run.suite = imp.format;
  run.suite_path = path;
  if (run.started_at == 0) {
    // The earliest instance launch the file records, else the fallback.
    for (const auto& v : imp.data.variants)
      for (const auto& inst : v.instances)
        if (inst.started_at > 0 && (run.started_at == 0 || inst.started_at < run.started_at))
          run.started_at = inst.started_at;
    if (run.started_at == 0) run.started_at = fallback_time;
  }
  run.finished_at = std::max(run.finished_at, run.started_at);
  run.artifacts.emplace_back("import_format", imp.format);
}

}  // namespace

int Imported::benchmarks() const {
  std::vector<std::string> names;
  for (const auto& v : data.variants)
    if (std::find(names.begin(), names.end(), v.variant.benchmark) == names.end())
      names.push_back(v.variant.benchmark);
  return static_cast<int>(names.size());
}

int Imported::instances() const {
  int n = 0;
  for (const auto& v : data.variants) n += static_cast<int>(v.instances.size());
  return n;
}

int Imported::iterations() const {
  int n = 0;
  for (const auto& v : data.variants)
    for (const auto& inst : v.instances) n += static_cast<int>(inst.iterations.size());
  return n;
}

Result<const nlohmann::json*> Source::document() const {
  if (json) return &*json;
  return error(json_error_line, "malformed JSON: " + json_error);
}

const std::vector<Importer>& importers() {
  static const std::vector<Importer> kAll = {kGoogleBenchmark, kHyperfine, kJmh,     kRenaissance,
                                             kPytestBenchmark, kHailJsonl, kDuetCsv, kGoBench};
  return kAll;
}

std::vector<std::string> format_names() {
  std::vector<std::string> names;
  for (const auto& imp : importers()) names.emplace_back(imp.name);
  return names;
}

Result<Imported> import_text(const std::string& path, std::string text, const std::string& format,
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
    if (format == "auto" ? imp.detect(src) : imp.name == format) {
      chosen = &imp;
      break;
    }
  }
  if (chosen == nullptr && format != "auto")
    return Error{fmt::format("unknown import format '{}' (formats: {})", format, tried_list())};
  if (chosen == nullptr) {
    // Damaged JSON matches no format; say where it breaks rather than "unknown format".
    if (looks_like_json(src.text) && !src.json) {
      BG_TRY(src.document());
    }
    return src.error(0, fmt::format("not a format benchguard imports (tried {}); name one "
                                    "with --format",
                                    tried_list()));
  }

  BG_ASSIGN(Imported imp, chosen->parse(src));
  imp.path = path;
  imp.format = std::string(chosen->name);
  if (imp.iterations() == 0) {
    std::string why = imp.warnings.empty() ? "it holds no measurements" : imp.warnings.front();
    return src.error(0, fmt::format("nothing to import as {}: {}", imp.format, why));
  }
  finish(imp, path, fallback_time);
  return imp;
}

Result<Imported> import_file(const std::string& path, const std::string& format) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a directory"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the file"};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error{path + ": cannot read the file"};
  struct stat st {};
  int64_t mtime = 0;
  if (stat(path.c_str(), &st) == 0)
    mtime = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return import_text(path, ss.str(), format, mtime);
}

}  // namespace benchguard::ingest
