#include "analysis/series_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "analysis/history_runs.hpp"

namespace benchguard::analysis {
namespace {

// The encoding:
//   "BGSC", u32 version (little-endian), then varints (LEB128) and f64s (8 bytes little-endian,
//   bit for bit: NaN payloads and -0.0 kept):
//   n + n strings (length + bytes): the entry's texts, each once;
//   n variants, each: text benchmark, text name, simulated (0/1), text settings (version 3),
//     n + n texts measured,
//     n + n summaries (text metric, count + 2^62 (it may be negative), f64 mean, then for
//     stddev, median, min and max: 0, or 1 and an f64),
//     n + n metrics (text name, text unit, higher-is-better (0/1), instances, values,
//                    instances sizes, values f64s).
//   A text is its index in the strings. Names repeat across variants (variant names, metric
//   names, units): kept once, an entry of single-iteration instances is mostly its values.
constexpr std::string_view kMagic = "BGSC";
constexpr uint64_t kCountBias = uint64_t{1} << 62;

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_f64(std::string& out, double x) {
  const auto v = std::bit_cast<uint64_t>(x);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

double get_f64_at(std::string_view in, std::size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return std::bit_cast<double>(v);
}

class Writer {
 public:
  void varint(uint64_t v) { put_varint(body_, v); }
  void f64(double x) { put_f64(body_, x); }
  void text(const std::string& s) {
    const auto [it, fresh] = index_.try_emplace(s, texts_.size());
    if (fresh) texts_.push_back(&it->first);
    varint(it->second);
  }
  void opt(const std::optional<double>& v) {
    varint(v ? 1 : 0);
    if (v) f64(*v);
  }
  std::string finish() const {
    std::string out(kMagic);
    for (int i = 0; i < 4; ++i)
      out.push_back(
          static_cast<char>((static_cast<uint32_t>(kSeriesCacheVersion) >> (8 * i)) & 0xff));
    put_varint(out, texts_.size());
    for (const std::string* t : texts_) {
      put_varint(out, t->size());
      out += *t;
    }
    return out + body_;
  }

 private:
  std::string body_;
  std::map<std::string, std::size_t> index_;
  std::vector<const std::string*> texts_;
};

class Reader {
 public:
  Reader(std::string_view in, std::size_t at) : in_(in), pos_(at) {}
  bool ok() const { return ok_; }
  std::size_t pos() const { return pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!have(1)) return 0;
      const auto b = static_cast<unsigned char>(in_[pos_++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    ok_ = false;
    return 0;
  }
  // A count of items of at least `size` bytes each that must fit in what remains.
  std::size_t count(std::size_t size) {
    const uint64_t n = varint();
    if (!ok_ || n > (in_.size() - pos_) / std::max<std::size_t>(size, 1)) {
      ok_ = false;
      return 0;
    }
    return static_cast<std::size_t>(n);
  }
  double f64() {
    if (!have(8)) return 0;
    const double x = get_f64_at(in_, pos_);
    pos_ += 8;
    return x;
  }
  std::string_view bytes(std::size_t n) {
    if (!have(n)) return {};
    const std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string_view text(const std::vector<std::string_view>& texts) {
    const uint64_t i = varint();
    if (!ok_ || i >= texts.size()) {
      ok_ = false;
      return {};
    }
    return texts[static_cast<std::size_t>(i)];
  }
  std::optional<double> opt() {
    const uint64_t present = varint();
    if (present > 1) ok_ = false;
    if (present != 1) return std::nullopt;
    return f64();
  }
  bool skip(std::size_t n) {
    if (!have(n)) return false;
    pos_ += n;
    return true;
  }

 private:
  bool have(std::size_t n) {
    if (!ok_ || in_.size() - pos_ < n) return ok_ = false;
    return true;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace

std::string series_cache_key(const BurnInPolicy& policy) {
  return fmt::format("history/{} burn-in={}", kSeriesCacheVersion, to_string(policy));
}

const RunSeries::Metric* RunSeries::Variant::find(const std::string& metric) const {
  for (const auto& m : metrics)
    if (m.info.name == metric) return &m;
  return nullptr;
}

RunSeries RunSeries::of(const RunData& run, const BurnInPolicy& policy) {
  Writer w;
  w.varint(run.variants.size());
  for (const auto& v : run.variants) {
    w.text(v.variant.benchmark);
    w.text(v.variant.name);
    w.varint(counted_by_simulation(v) ? 1 : 0);
    w.text(settings_of(v));
    std::vector<std::string> metrics = metrics_of(v);
    w.varint(metrics.size());
    for (const auto& m : metrics) w.text(m);
    w.varint(v.summaries.size());
    for (const auto& s : v.summaries) {
      w.text(s.metric);
      w.varint(static_cast<uint64_t>(s.count) + kCountBias);
      w.f64(s.mean);
      w.opt(s.stddev);
      w.opt(s.median);
      w.opt(s.min);
      w.opt(s.max);
      if (std::find(metrics.begin(), metrics.end(), s.metric) == metrics.end())
        metrics.push_back(s.metric);
    }
    w.varint(metrics.size());
    for (const auto& m : metrics) {
      const MetricSample sample = extract(v, m, policy);
      const stats::Hierarchical& data = sample.data;
      w.text(m);
      w.text(sample.metric.unit);
      w.varint(sample.metric.direction == Direction::kHigherIsBetter ? 1 : 0);
      w.varint(data.instances());
      w.varint(data.size());
      for (std::size_t i = 0; i < data.instances(); ++i) w.varint(data.instance(i).size());
      for (const double x : data.values()) w.f64(x);
    }
  }
  auto decoded = decode(w.finish());
  // What was just encoded reads back; a failure here is a bug in the encoding.
  if (!decoded.ok()) throw std::logic_error("series cache: " + decoded.error().message);
  return std::move(*decoded);
}

namespace {

// Past the rest of a variant whose benchmark is not wanted, reading what decode reads and
// keeping none of it. False when its bytes are malformed.
bool skip_variant(Reader& r, const std::vector<std::string_view>& texts) {
  r.text(texts);  // its name
  if (r.varint() > 1) return false;
  r.text(texts);  // its settings
  const std::size_t measured = r.count(1);
  for (std::size_t i = 0; r.ok() && i < measured; ++i) r.text(texts);
  const std::size_t summaries = r.count(1);
  for (std::size_t i = 0; r.ok() && i < summaries; ++i) {
    r.text(texts);
    r.varint();
    r.f64();
    for (int k = 0; k < 4; ++k) r.opt();
  }
  const std::size_t metrics = r.count(1);
  for (std::size_t i = 0; r.ok() && i < metrics; ++i) {
    r.text(texts);
    r.text(texts);
    if (r.varint() > 1) return false;
    const std::size_t instances = r.count(1);
    const std::size_t values = r.count(8);
    for (std::size_t j = 0; r.ok() && j < instances; ++j) r.varint();
    if (!r.skip(8 * values)) return false;
  }
  return r.ok();
}

}  // namespace

Result<RunSeries> RunSeries::decode(std::string bytes, const std::vector<std::string>& only) {
  RunSeries out;
  out.bytes_ = std::move(bytes);
  const std::string_view in = out.bytes_;
  if (in.size() < kMagic.size() + 4 || in.substr(0, kMagic.size()) != kMagic)
    return Error{"not a series cache entry (no BGSC header)"};
  uint32_t version = 0;
  for (int i = 0; i < 4; ++i)
    version |= static_cast<uint32_t>(static_cast<unsigned char>(in[kMagic.size() + i])) << (8 * i);
  if (version != static_cast<uint32_t>(kSeriesCacheVersion))
    return Error{fmt::format("series cache entry of version {}, this benchguard reads {}", version,
                             kSeriesCacheVersion)};
  Reader r(in, kMagic.size() + 4);
  std::vector<std::string_view> texts(r.count(1));
  for (auto& t : texts) t = r.bytes(r.count(1));
  const std::size_t variants = r.count(4);
  if (only.empty()) out.variants_.reserve(variants);  // counts are bounded by the bytes left
  for (std::size_t k = 0; r.ok() && k < variants; ++k) {
    const std::string_view benchmark = r.text(texts);
    if (!only.empty() && std::find(only.begin(), only.end(), benchmark) == only.end()) {
      if (!skip_variant(r, texts)) return Error{"series cache entry: a malformed variant"};
      continue;
    }
    Variant v;
    v.benchmark = benchmark;
    v.name = r.text(texts);
    const uint64_t simulated = r.varint();
    if (simulated > 1) break;
    v.simulated = simulated == 1;
    v.settings = r.text(texts);
    const std::size_t measured = r.count(1);
    v.measured.reserve(measured);
    for (std::size_t i = 0; r.ok() && i < measured; ++i) v.measured.emplace_back(r.text(texts));
    const std::size_t summaries = r.count(1);
    for (std::size_t i = 0; r.ok() && i < summaries; ++i) {
      SummaryRecord s;
      s.metric = r.text(texts);
      s.count = static_cast<int64_t>(r.varint() - kCountBias);
      s.mean = r.f64();
      s.stddev = r.opt();
      s.median = r.opt();
      s.min = r.opt();
      s.max = r.opt();
      v.summaries.push_back(std::move(s));
    }
    const std::size_t metrics = r.count(1);
    v.metrics.reserve(metrics);
    for (std::size_t i = 0; r.ok() && i < metrics; ++i) {
      Metric m;
      m.info.name = r.text(texts);
      m.info.unit = r.text(texts);
      const uint64_t higher = r.varint();
      if (higher > 1) return Error{"series cache entry: a malformed direction"};
      m.info.direction = higher == 1 ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
      m.instances = r.count(1);
      m.values = r.count(8);
      m.offset = r.pos();
      // The sizes must add up to the values, none empty (extract() leaves those out).
      uint64_t total = 0;
      for (std::size_t j = 0; r.ok() && j < m.instances; ++j) {
        const uint64_t n = r.varint();
        if (n == 0 || n > m.values) return Error{"series cache entry: a malformed instance size"};
        total += n;
      }
      if (r.ok() && total != m.values)
        return Error{"series cache entry: instance sizes do not add up"};
      m.values_at = r.pos();
      if (!r.skip(8 * m.values)) break;
      v.metrics.push_back(std::move(m));
    }
    out.variants_.push_back(std::move(v));
  }
  if (!r.ok()) return Error{"series cache entry: cut short or malformed"};
  if (!r.at_end()) return Error{"series cache entry: bytes after its end"};
  return out;
}

stats::Hierarchical RunSeries::data(const Metric& metric) const {
  // decode() checked that the sizes are positive and add up to the values.
  const std::string_view in = bytes_;
  Reader sizes(in, metric.offset);
  std::vector<double> values(metric.values);
  for (std::size_t j = 0; j < metric.values; ++j)
    values[j] = get_f64_at(in, metric.values_at + 8 * j);
  std::vector<std::size_t> offsets(metric.instances + 1, 0);
  for (std::size_t i = 0; i < metric.instances; ++i)
    offsets[i + 1] = offsets[i] + static_cast<std::size_t>(sizes.varint());
  return stats::Hierarchical::from_parts(std::move(values), std::move(offsets));
}

Result<std::size_t> cache_run_series(store::Store& store, const std::vector<int64_t>& ids,
                                     const BurnInPolicy& policy, std::size_t batch, bool again) {
  if (!store.writable()) return std::size_t{0};
  const std::string key = series_cache_key(policy);
  std::vector<store::SeriesCacheEntry> pending;
  std::size_t saved = 0;
  const auto save = [&]() -> Status {
    if (pending.empty()) return ok_status();
    BG_TRY(store.save_series_cache(pending));
    saved += pending.size();
    pending.clear();
    return ok_status();
  };
  for (const int64_t id : ids) {
    RunData run;
    if (again) {
      BG_ASSIGN(run, store.load_run(std::to_string(id), {.columns = true}));
    } else {
      BG_ASSIGN(store::CachedRun cached, store.load_cached_run(id, key, {.columns = true}));
      if (cached.cache) continue;
      run = std::move(cached.data);
    }
    if (!is_history_run(run.run)) continue;
    pending.push_back({id, key, RunSeries::of(run, policy).bytes()});
    if (pending.size() >= std::max<std::size_t>(batch, 1)) BG_TRY(save());
  }
  BG_TRY(save());
  return saved;
}

Result<std::size_t> cache_store_series(store::Store& store, bool again) {
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  std::vector<int64_t> ids;
  ids.reserve(runs.size());
  for (const auto& r : runs) ids.push_back(r.id);
  return cache_run_series(store, ids, {}, kSeriesCacheBatch, again);
}

std::size_t check_series_cache(store::CheckReport& report, const store::StoreOpener& open) {
  // Where nothing else is wrong: a damaged instance would be reported twice, as itself and as
  // an entry that differs.
  if (!report.problems.empty() || report.series_cache_entries == 0) return 0;
  auto checked = [&]() -> Result<SeriesCacheCheck> {
    BG_ASSIGN(auto store, open());
    return check_series_cache(*store);
  }();
  if (!checked.ok()) {
    report.problems.push_back(
        {"series_cache", "the series cache cannot be checked: " + checked.error().message});
    return 0;
  }
  for (auto& p : checked->problems) report.problems.push_back({"series_cache", std::move(p)});
  return checked->entries;
}

Result<SeriesCacheCheck> check_series_cache(store::Store& store) {
  SeriesCacheCheck out;
  const BurnInPolicy policy;
  const std::string key = series_cache_key(policy);
  BG_ASSIGN(const auto runs, store.list_runs({.counts = false}));
  for (const auto& s : runs) {
    BG_ASSIGN(store::CachedRun cached, store.load_cached_run(s.id, key, {.columns = true}));
    if (!cached.cache) continue;
    ++out.entries;
    const std::string what = fmt::format("run {} ({})", s.id, s.uuid);
    if (!is_history_run(cached.data.run)) {
      out.problems.push_back(what + ": a series cache entry for a run history does not read");
      continue;
    }
    if (auto decoded = RunSeries::decode(*cached.cache); !decoded.ok()) {
      out.problems.push_back(what + ": " + decoded.error().message +
                             " (`benchguard db cache` derives every entry again)");
      continue;
    }
    BG_ASSIGN(const RunData run, store.load_run(std::to_string(s.id), {.columns = true}));
    if (RunSeries::of(run, policy).bytes() != *cached.cache)
      out.problems.push_back(what +
                             ": its series cache entry differs from what its instances give "
                             "(`benchguard db cache` derives every entry again)");
  }
  return out;
}

}  // namespace benchguard::analysis
