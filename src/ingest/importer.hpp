// The interface each format implements (one file per format) and the helpers they share:
// the source text, a builder that collects variants and instances in file order, and
// conversions of time units and timestamps.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ingest/ingest.hpp"

namespace benchguard::ingest {

struct Source {
  std::string path;
  std::string text;
  std::optional<nlohmann::json> json;  // the whole text as one JSON document, if it is one
  int json_error_line = 0;             // else where and why it is not
  std::string json_error;

  // The JSON document, or an Error saying where the text stops being JSON.
  Result<const nlohmann::json*> document() const;
  // "path:line: msg" (line 0: "path: msg").
  Error error(int line, const std::string& msg) const { return Error::at(path, line, msg); }
};

struct Importer {
  std::string_view name;
  bool (*detect)(const Source& source);  // cheap look at the content
  Result<Imported> (*parse)(const Source& source);
};

// Every importer, in detection order.
const std::vector<Importer>& importers();

// One per format file.
extern const Importer kGoogleBenchmark;
extern const Importer kHyperfine;
extern const Importer kJmh;
extern const Importer kRenaissance;
extern const Importer kPytestBenchmark;
extern const Importer kHailJsonl;
extern const Importer kDuetCsv;
extern const Importer kGoBench;
extern const Importer kOtavaCsv;

// Collects the run's variants in first-seen order; instances get their index within the
// variant and their position in the file as `order`.
class RunBuilder {
 public:
  // The variant, new or seen before: for formats where several entries of one name are its
  // instances (repetitions, -count, one record per launch).
  VariantData& variant(const std::string& benchmark, const std::string& name = "default");
  // Always a new variant, for formats where an entry is a whole benchmark: a second entry of
  // a name seen before is kept apart as "NAME #2" (then #3, ...) with a warning in
  // `warnings`, never merged into the first.
  VariantData& distinct_variant(const std::string& benchmark, std::vector<std::string>& warnings,
                                const std::string& name = "default");
  InstanceRecord& add_instance(VariantData& v);
  // Whether variant() was called for this benchmark and variant name.
  bool has_variant(const std::string& benchmark, const std::string& name = "default") const {
    return index_.contains(key(benchmark, name));
  }
  RunData& data() { return data_; }

 private:
  VariantData& append(const std::string& benchmark, const std::string& name);
  static std::string key(const std::string& benchmark, const std::string& name) {
    return benchmark + '\0' + name;
  }

  RunData data_;
  std::unordered_map<std::string, size_t> index_;  // key(benchmark, name) -> variant
  int64_t next_order_ = 0;
};

// An instance with a single iteration carrying `metrics` (what harnesses that report one
// number per process launch or repetition produce).
InstanceRecord& add_single(RunBuilder& b, VariantData& v,
                           std::vector<std::pair<std::string, double>> metrics);

// Seconds per unit of a time unit as harnesses write it: ns, us (or µs), ms, s, min, hr,
// day; nullopt when unknown.
std::optional<double> seconds_per(std::string_view unit);

// ISO 8601 ("2022-03-25T09:03:41+00:00", "2019-11-29 21:26:59", "…T00:04:18.687119Z") to
// unix ns; a time without offset is taken as UTC. nullopt when it is not such a time.
std::optional<int64_t> parse_timestamp(std::string_view text);

// The lines of a text with their 1-based numbers, without "\r\n" / "\n"; `terminated` is
// false for a last line without a newline, which in line formats means a cut-off file.
struct Line {
  int number = 0;
  std::string_view text;
  bool terminated = true;
};
std::vector<Line> split_lines(const std::string& text);

// "benchmark/k=v/k2=v2": the name benchguard gives a benchmark with parameters.
std::string name_with_params(const std::string& base, const KeyValues& params);

// A whole number or a decimal in text; nullopt when the text is anything else.
std::optional<int64_t> parse_int(std::string_view text);
std::optional<double> parse_number(std::string_view text);

}  // namespace benchguard::ingest
