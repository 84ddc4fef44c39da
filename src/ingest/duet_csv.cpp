// The asynchronous-duet unified results CSV, in its current header (suite, benchmark,
// runid, iteration, type, pair, order, ..., iteration_start_ns, iteration_end_ns) and its
// first one (benchmark, runid, pair, iteration, epoch_start_ms, iteration_time_ns, machine,
// ...), and benchguard's own `export --format csv`, which follows the same schema. Rows of
// one (benchmark, type, runid, pair) are the iterations of one instance of variant `pair`;
// the two members of a duet pair share their position in the schedule.
#include "ingest/duet_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

#include "ingest/csv.hpp"
#include "ingest/importer.hpp"

namespace benchguard::ingest {

namespace {

// Columns the duet scripts fill with unquoted text that may contain commas.
bool is_free_text(const std::string& column) {
  for (const char* c : {"date", "hostname", "lscpu", "meminfo", "uname", "machine", "provider",
                        "jdk", "jdk_version"})
    if (column == c) return true;
  return false;
}

bool detect(const Source& src) {
  if (src.json) return false;
  const auto nl = src.text.find('\n');
  const std::string header = "," + src.text.substr(0, nl) + ",";
  for (const char* c : {",benchmark,", ",pair,", ",iteration_time_ns,"})
    if (header.find(c) == std::string::npos) return false;
  return true;
}

class Reader {
 public:
  Reader(const Source& src, const std::vector<std::string>& header) : src_(src), header_(header) {
    for (size_t c = 0; c < header.size(); ++c) {
      col_[header[c]] = c;
      free_.push_back(is_free_text(header[c]));
    }
    // benchguard's export: metric columns between failure and run, artifacts after started_at.
    if (has("failure") && has("run"))
      for (size_t c = col_["failure"] + 1; c < col_["run"]; ++c) metric_cols_.push_back(c);
  }

  bool has(const std::string& c) const { return col_.count(c) > 0; }

  Status row(const CsvRecord& rec, std::vector<DuetInstance>& instances, RunRecord& run) {
    if (!rec.terminated) return src_.error(rec.line, "the last line has no end (truncated file?)");
    BG_ASSIGN(AlignedRecord aligned, align_to_header(src_, rec, free_));
    line_ = rec.line;
    values_ = &aligned.values;
    if (instances.empty()) describe_run(aligned, run);

    DuetInstance key;
    key.run = text("run");
    key.type = text("type");
    key.tag = text("order");
    BG_ASSIGN(key.benchmark, required("benchmark"));
    BG_ASSIGN(key.pair, required("pair"));
    key.runid = text("runid");
    // Looked up, not searched: a file of 100,000 instances or iterations took minutes.
    auto id = std::make_tuple(key.run, key.benchmark, key.type, key.runid, key.pair);
    auto found = index_.find(id);
    if (found == index_.end()) {
      key.first_line = rec.line;
      if (has("epoch_start_ms")) {
        BG_ASSIGN(key.epoch_start_ms, integer("epoch_start_ms"));
      }
      found = index_.emplace(std::move(id), instances.size()).first;
      instances.push_back(std::move(key));
      seen_.emplace_back();
    }
    return iteration(instances[found->second].inst, seen_[found->second]);
  }

 private:
  std::string text(const std::string& c) const { return has(c) ? (*values_)[col_.at(c)] : ""; }

  Result<std::string> required(const std::string& c) const {
    if (!has(c) || text(c).empty()) return src_.error(line_, fmt::format("{} is empty", c));
    return text(c);
  }

  Result<int64_t> integer(const std::string& c) const {
    const std::string t = text(c);
    if (auto v = parse_int(t)) return *v;
    return src_.error(line_, fmt::format("{} \"{}\" is not a whole number", c, t.substr(0, 40)));
  }

  Result<double> number(const std::string& c) const {
    const std::string t = text(c);
    if (auto v = parse_number(t)) return *v;
    return src_.error(line_, fmt::format("{} \"{}\" is not a number", c, t.substr(0, 40)));
  }

  Result<bool> flag(const std::string& c) const {
    const std::string t = text(c);
    if (t.empty() || t == "0" || t == "false") return false;
    if (t == "1" || t == "true") return true;
    return src_.error(line_, fmt::format("{} \"{}\" is not 0 or 1", c, t.substr(0, 40)));
  }

  // `seen`: the iteration numbers of `inst` so far.
  Status iteration(InstanceRecord& inst, std::unordered_set<int>& seen) {
    IterationRecord it;
    BG_ASSIGN(int64_t index, integer("iteration"));
    it.index = static_cast<int>(index);
    if (!seen.insert(it.index).second)
      return src_.error(line_, fmt::format("iteration {} appears twice in one instance", index));
    BG_ASSIGN(double time_ns, number("iteration_time_ns"));
    it.metrics.emplace_back("wall_time", time_ns * 1e-9);
    if (has("iteration_start_ns") && !text("iteration_start_ns").empty()) {
      BG_ASSIGN(it.start_ns, integer("iteration_start_ns"));
      BG_ASSIGN(it.end_ns, integer("iteration_end_ns"));
    }
    BG_ASSIGN(it.burn_in, flag("burn_in"));
    BG_ASSIGN(it.timed_out, flag("timed_out"));
    it.failure = text("failure");
    for (size_t c : metric_cols_) {
      if ((*values_)[c].empty()) continue;
      BG_ASSIGN(double v, number(header_[c]));
      it.metrics.emplace_back(header_[c], v);
    }
    inst.iterations.push_back(std::move(it));
    return ok_status();
  }

  void describe_run(const AlignedRecord& first, RunRecord& run) const {
    run.suite = text("suite");
    if (!first.ambiguous) run.hostname = text("hostname");
    std::string names, merged;
    for (size_t c = 0; c < header_.size(); ++c) {
      if (!free_[c]) continue;
      if (!first.ambiguous && !(*values_)[c].empty())
        run.artifacts.emplace_back(header_[c], (*values_)[c]);
      names += (names.empty() ? "" : ",") + header_[c];
      merged += (*values_)[c];
    }
    // Free-text columns with commas in them cannot be told apart: keep their text whole.
    if (first.ambiguous) run.artifacts.emplace_back(names, merged);
    if (has("started_at") && has("run")) {
      run.started_at = parse_int(text("started_at")).value_or(0);
      for (size_t c = col_.at("started_at") + 1; c < header_.size(); ++c)
        if (!(*values_)[c].empty()) run.artifacts.emplace_back(header_[c], (*values_)[c]);
    }
  }

  const Source& src_;
  const std::vector<std::string>& header_;
  std::map<std::string, size_t> col_;
  std::vector<bool> free_;
  std::vector<size_t> metric_cols_;
  // (run, benchmark, type, runid, pair) -> position in the instances, and their iterations.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, size_t>
      index_;
  std::vector<std::unordered_set<int>> seen_;
  int line_ = 0;
  const std::vector<std::string>* values_ = nullptr;
};

Result<Imported> parse(const Source& src) {
  BG_ASSIGN(auto records, read_csv(src));
  if (records.empty()) return src.error(0, "no header line");
  const std::vector<std::string> header = records.front().fields;
  Reader reader(src, header);
  for (const char* c : {"benchmark", "pair", "iteration", "iteration_time_ns"})
    if (!reader.has(c)) return src.error(1, fmt::format("the header has no column \"{}\"", c));
  std::vector<DuetInstance> instances;
  RunRecord run;
  for (size_t r = 1; r < records.size(); ++r) BG_TRY(reader.row(records[r], instances, run));
  DuetColumns columns;
  columns.type = reader.has("type");
  columns.iteration_times = reader.has("iteration_start_ns");
  Imported out;
  BG_ASSIGN(out.data, assemble_duet_run(src, std::move(instances), columns, std::move(run)));
  return out;
}

}  // namespace

const Importer kDuetCsv{"duet-csv", detect, parse};

}  // namespace benchguard::ingest
