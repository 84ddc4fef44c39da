#include "core/instance_table.hpp"

#include <memory>

namespace benchguard {

void TextColumn::push_back(const std::string& text) {
  auto [at, added] = index_.try_emplace(text, static_cast<uint32_t>(words_.size()));
  if (added) words_.push_back(text);
  codes_.push_back(at->second);
}

std::size_t TextColumn::bytes() const {
  std::size_t n = codes_.bytes() + words_.capacity() * sizeof(std::string);
  for (const auto& w : words_) n += w.capacity() > 15 ? w.capacity() + 1 : 0;
  // The index's nodes: a text and a number each, and a bucket.
  return n + index_.size() * (sizeof(std::string) + 2 * sizeof(void*)) +
         index_.bucket_count() * sizeof(void*);
}

namespace {

// Appends the instance's iterations to `to`, whose columns cover every iteration before them.
void append_iterations(IterationColumns& to, const IterationsView& its) {
  const std::size_t base = to.count, n = its.size();
  if (n == 0) return;
  for (std::size_t k = 0; k < n; ++k) {
    to.start_ns.push_back(its.start_ns(k));
    to.end_ns.push_back(its.end_ns(k));
    const uint8_t f = (its.burn_in(k) ? IterationColumns::kBurnIn : 0) |
                      (its.timed_out(k) ? IterationColumns::kTimedOut : 0) |
                      (its.failed(k) ? IterationColumns::kFailed : 0);
    if (f != 0 && to.flags.empty()) to.flags.assign(base + k, 0);  // the ones before: none
    if (f != 0 || !to.flags.empty()) to.flags.push_back(f);
  }
  const std::vector<std::string> names = its.metric_names();
  for (const auto& name : names) {
    auto column = std::find_if(to.metrics.begin(), to.metrics.end(),
                               [&](const MetricColumn& c) { return c.name == name; });
    if (column == to.metrics.end()) {
      MetricColumn c;
      c.name = name;
      c.values.assign(base, 0.0);
      if (base > 0) c.present.assign(base, 0);
      to.metrics.push_back(std::move(c));
      column = std::prev(to.metrics.end());
    }
    const auto values = its.metric(name);
    for (std::size_t k = 0; k < n; ++k) {
      const auto x = values.at(k);
      // The ones before all had a value.
      if (!x && column->present.empty()) column->present.assign(column->values.size(), 1);
      column->values.push_back(x.value_or(0.0));
      if (!x || !column->present.empty()) column->present.push_back(x ? 1 : 0);
    }
  }
  // The columns these iterations do not report.
  for (auto& c : to.metrics) {
    if (c.values.size() == base + n) continue;
    if (c.present.empty()) c.present.assign(c.values.size(), 1);
    c.values.resize(base + n, 0.0);
    c.present.resize(base + n, 0);
  }
  to.count = base + n;
}

// True when the instance's one iteration is what its own measurements make of it.
bool only_outside_iteration(const InstanceRecord& in) {
  if (!in.timed_outside || in.columns != nullptr || in.iterations.size() != 1) return false;
  const IterationRecord& it = in.iterations.front();
  return is_outside_iteration(in, it) && it.metrics == outside_metrics(in);
}

IterationColumns slice(const IterationColumns& from, std::size_t begin, std::size_t end) {
  IterationColumns out;
  out.count = end - begin;
  const auto b = static_cast<std::ptrdiff_t>(begin), e = static_cast<std::ptrdiff_t>(end);
  out.start_ns.assign(from.start_ns.begin() + b, from.start_ns.begin() + e);
  out.end_ns.assign(from.end_ns.begin() + b, from.end_ns.begin() + e);
  if (!from.flags.empty()) out.flags.assign(from.flags.begin() + b, from.flags.begin() + e);
  for (const auto& c : from.metrics) {
    MetricColumn m;
    m.name = c.name;
    m.values.assign(c.values.begin() + b, c.values.begin() + e);
    if (!c.present.empty()) {
      m.present.assign(c.present.begin() + b, c.present.begin() + e);
      if (std::find(m.present.begin(), m.present.end(), 1) == m.present.end()) continue;
      if (std::find(m.present.begin(), m.present.end(), 0) == m.present.end()) m.present.clear();
    }
    out.metrics.push_back(std::move(m));
  }
  return out;
}

}  // namespace

void InstanceTable::reserve(std::size_t n) {
  expected_ = n;
  each_column(*this, [n](auto& c) { c.reserve(n); });
}

void InstanceTable::add_range(std::size_t count) {
  if (ends_.empty()) {
    if (count_ == 0) uniform_count_ = count;
    if (count == uniform_count_) return;
    ends_.reserve(std::max(expected_, count_) + 1);
    for (std::size_t i = 0; i <= count_; ++i) ends_.push_back(i * uniform_count_);
    // ends_ now holds count_ + 1 entries; the one for this instance follows.
  }
  ends_.push_back(ends_.back() + count);
}

std::pair<std::size_t, std::size_t> InstanceTable::range(std::size_t i) const {
  if (ends_.empty()) return {i * uniform_count_, (i + 1) * uniform_count_};
  return {ends_[i], ends_[i + 1]};
}

void InstanceTable::push_back(const InstanceRecord& in) {
  index_.push_back(in.index);
  order_.push_back(in.order);
  start_ns_.push_back(in.start_ns);
  end_ns_.push_back(in.end_ns);
  started_at_.push_back(in.started_at);
  exit_code_.push_back(in.exit_code);
  signal_.push_back(in.signal);
  failure_.push_back(in.failure);
  user_s_.push_back(in.user_s);
  sys_s_.push_back(in.sys_s);
  max_rss_.push_back(in.max_rss_bytes);
  mem_peak_.push_back(in.mem_peak_bytes);
  mem_avg_.push_back(in.mem_avg_bytes);
  mem_samples_.push_back(in.mem_samples);
  rss_floor_.push_back(in.rss_floor_bytes);
  mem_source_.push_back(in.mem_source);
  prepare_s_.push_back(in.prepare_s);
  conclude_s_.push_back(in.conclude_s);
  instructions_.push_back(in.instructions);
  cycles_.push_back(in.cycles);
  for (const auto& [name, count] : in.counts) {
    auto code = std::find(count_names_.begin(), count_names_.end(), name);
    if (code == count_names_.end()) code = count_names_.insert(code, name);
    counts_.emplace_back(static_cast<uint32_t>(code - count_names_.begin()), count);
  }
  counts_end_.push_back(static_cast<uint32_t>(counts_.size()));
  cpus_.push_back(in.cpus);
  schedule_.push_back(in.schedule);
  schedule_tag_.push_back(in.schedule_tag);
  const bool outside = only_outside_iteration(in);
  flags_.push_back(static_cast<uint8_t>((in.timed_out ? kTimedOut : 0) |
                                        (in.timed_outside ? kTimedOutside : 0) |
                                        (outside ? kOutsideIteration : 0)));
  const std::size_t before = iterations_.count;
  if (!outside) append_iterations(iterations_, IterationsView(in));
  add_range(iterations_.count - before);
  ++count_;
}

void InstanceTable::shrink_to_fit() {
  each_column(*this, [](auto& c) { c.shrink_to_fit(); });
  iterations_.start_ns.shrink_to_fit();
  iterations_.end_ns.shrink_to_fit();
  iterations_.flags.shrink_to_fit();
  for (auto& m : iterations_.metrics) {
    m.values.shrink_to_fit();
    m.present.shrink_to_fit();
  }
  ends_.shrink_to_fit();
  counts_.shrink_to_fit();
}

void InstanceTable::read(std::size_t i, InstanceRecord& out) const {
  out.index = index_[i];
  out.order = order_[i];
  out.start_ns = start_ns_[i];
  out.end_ns = end_ns_[i];
  out.started_at = started_at_[i];
  out.exit_code = exit_code_[i];
  out.signal = signal_[i];
  out.timed_out = (flags_[i] & kTimedOut) != 0;
  out.failure = failure_[i];
  out.user_s = user_s_[i];
  out.sys_s = sys_s_[i];
  out.max_rss_bytes = max_rss_[i];
  out.mem_peak_bytes = mem_peak_[i];
  out.mem_avg_bytes = mem_avg_[i];
  out.mem_samples = mem_samples_[i];
  out.rss_floor_bytes = rss_floor_[i];
  out.mem_source = mem_source_[i];
  out.prepare_s = prepare_s_[i];
  out.conclude_s = conclude_s_[i];
  out.instructions = instructions_[i];
  out.cycles = cycles_[i];
  out.counts.clear();
  for (std::size_t k = i == 0 ? 0 : counts_end_[i - 1]; k < counts_end_[i]; ++k)
    out.counts.emplace_back(count_names_[counts_[k].first], counts_[k].second);
  out.cpus = cpus_[i];
  out.schedule = schedule_[i];
  out.schedule_tag = schedule_tag_[i];
  out.timed_outside = (flags_[i] & kTimedOutside) != 0;
  out.iterations.clear();
  out.columns.reset();
}

IterationsView InstanceTable::iterations(std::size_t i, InstanceRecord& record) const {
  if ((flags_[i] & kOutsideIteration) != 0) {
    record.iterations.assign(1, outside_iteration(record));
    return IterationsView(record);
  }
  const auto [begin, end] = range(i);
  return IterationsView(iterations_, begin, end);
}

std::size_t InstanceTable::bytes() const {
  std::size_t n = 0;
  each_column(*this, [&n](const auto& c) { n += c.bytes(); });
  n += (iterations_.start_ns.capacity() + iterations_.end_ns.capacity()) * sizeof(int64_t) +
       iterations_.flags.capacity();
  for (const auto& m : iterations_.metrics)
    n += sizeof(MetricColumn) + m.values.capacity() * sizeof(double) + m.present.capacity();
  n += counts_.capacity() * sizeof(counts_[0]) + count_names_.capacity() * sizeof(std::string);
  return n + ends_.capacity() * sizeof(std::size_t);
}

std::size_t instance_count(const VariantData& v) {
  return v.table != nullptr ? v.table->size() : v.instances.size();
}

InstanceRecord InstanceTable::record(std::size_t i) const {
  InstanceRecord in;
  read(i, in);
  if ((flags_[i] & kOutsideIteration) != 0) {
    in.iterations.assign(1, outside_iteration(in));
  } else if (const auto [begin, end] = range(i); end > begin) {
    in.columns = std::make_shared<const IterationColumns>(slice(iterations_, begin, end));
  }
  return in;
}

VariantData with_records(const VariantData& v) {
  if (v.table == nullptr) return v;
  VariantData out;
  out.variant = v.variant;
  out.summaries = v.summaries;
  out.metrics = v.metrics;
  out.instances.reserve(v.table->size());
  for (std::size_t i = 0; i < v.table->size(); ++i) out.instances.push_back(v.table->record(i));
  return out;
}

}  // namespace benchguard
