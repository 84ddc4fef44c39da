// A variant's instances by column, as analysis reads a large stored run
// (store::LoadOptions::instance_table): what an InstanceRecord holds, in a fraction of its
// memory. A column whose every instance has one value (an exit code of 0, counters left
// unset, one schedule) is kept once; texts are kept once each and referred to by number; the
// iterations of all instances share one IterationColumns. An instance timed from outside
// keeps no iteration of its own when its one iteration is the one its own measurements give
// (outside_iteration). docs/store.md states the bytes an instance and an iteration take.
//
// Read through for_each_instance(), which also reads VariantData::instances.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/iterations.hpp"
#include "core/model.hpp"

namespace benchguard {

// Values one per instance, kept as a formula while they follow one: all the same, or for
// integers a progression (an index, a schedule's order: first + i * step). A value off the
// formula writes the column out in full.
template <class T>
class UniformColumn {
 public:
  void reserve(std::size_t n) { expected_ = n; }
  void push_back(const T& x) {
    if (values_.empty()) {
      if (size_ == 0) first_ = x;
      if constexpr (std::is_integral_v<T>) {
        if (size_ == 1) step_ = static_cast<U>(static_cast<U>(x) - static_cast<U>(first_));
      }
      if (same(x, formula(size_))) {
        ++size_;
        return;
      }
      values_.reserve(std::max(expected_, size_ + 1));
      for (std::size_t i = 0; i < size_; ++i) values_.push_back(formula(i));
    }
    values_.push_back(x);
    ++size_;
  }
  T operator[](std::size_t i) const { return values_.empty() ? formula(i) : values_[i]; }
  std::size_t size() const { return size_; }
  bool compact() const { return values_.empty(); }
  void shrink_to_fit() { values_.shrink_to_fit(); }
  std::size_t bytes() const { return values_.capacity() * sizeof(T); }

 private:
  // Integers step in unsigned arithmetic: it wraps where signed would overflow.
  using U = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>,
                                        std::type_identity<T>>::type;
  T formula(std::size_t i) const {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<U>(static_cast<U>(first_) + static_cast<U>(i) * step_));
    else
      return first_;
  }
  // Bit for bit for numbers: a NaN is one value, -0 and 0 are two.
  static bool same(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, double>)
      return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
    else
      return a == b;
  }
  std::vector<T> values_;  // empty while the formula holds
  T first_{};
  U step_{};
  std::size_t size_ = 0;
  std::size_t expected_ = 0;
};

// Texts one per instance: each distinct text once, the instances by its number.
class TextColumn {
 public:
  void reserve(std::size_t n) { codes_.reserve(n); }
  void push_back(const std::string& text);
  const std::string& operator[](std::size_t i) const { return words_[codes_[i]]; }
  void shrink_to_fit() { codes_.shrink_to_fit(); }
  std::size_t bytes() const;

 private:
  UniformColumn<uint32_t> codes_;
  std::vector<std::string> words_;
  std::unordered_map<std::string, uint32_t> index_;
};

class InstanceTable {
 public:
  // Room for `n` instances in the columns that turn out to vary.
  void reserve(std::size_t n);
  // Appends the instance with its iterations (as IterationColumns keeps them: no failure
  // texts; a failed iteration is flagged).
  void push_back(const InstanceRecord& in);
  // Gives back what the columns hold beyond what they use.
  void shrink_to_fit();

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  // Instance i's fields; its iterations are those iterations(i, out) views.
  void read(std::size_t i, InstanceRecord& out) const;
  // Instance i's iterations. `record` must be read(i, record) first and outlive the view: an
  // instance timed from outside may have its one iteration made from it (outside_iteration).
  IterationsView iterations(std::size_t i, InstanceRecord& record) const;
  // Instance i as a record of its own, its iterations in InstanceRecord::columns (or its one
  // outside iteration in InstanceRecord::iterations).
  InstanceRecord record(std::size_t i) const;

  // What the columns take, in bytes (the bound docs/store.md states, tested).
  std::size_t bytes() const;

 private:
  static constexpr uint8_t kTimedOut = 1, kTimedOutside = 2, kOutsideIteration = 4;
  // Calls f on each column of instance fields (not the iterations).
  template <class Self, class F>
  static void each_column(Self& t, F&& f) {
    for (auto* c : {&t.index_, &t.exit_code_, &t.signal_, &t.mem_samples_}) f(*c);
    for (auto* c : {&t.order_, &t.start_ns_, &t.end_ns_, &t.started_at_, &t.max_rss_, &t.mem_peak_,
                    &t.rss_floor_})
      f(*c);
    for (auto* c : {&t.user_s_, &t.sys_s_, &t.mem_avg_, &t.prepare_s_, &t.conclude_s_}) f(*c);
    for (auto* c : {&t.instructions_, &t.cycles_}) f(*c);
    f(t.flags_);
    f(t.counts_end_);
    for (auto* c : {&t.failure_, &t.cpus_, &t.schedule_, &t.schedule_tag_, &t.mem_source_}) f(*c);
  }
  void add_range(std::size_t count);
  std::pair<std::size_t, std::size_t> range(std::size_t i) const;

  std::size_t count_ = 0;
  UniformColumn<int> index_, exit_code_, signal_, mem_samples_;
  UniformColumn<int64_t> order_, start_ns_, end_ns_, started_at_, max_rss_, mem_peak_, rss_floor_;
  UniformColumn<double> user_s_, sys_s_, mem_avg_, prepare_s_, conclude_s_;
  UniformColumn<std::optional<int64_t>> instructions_, cycles_;
  UniformColumn<uint8_t> flags_;
  TextColumn failure_, cpus_, schedule_, schedule_tag_, mem_source_;
  // InstanceRecord::counts of every instance, one after another: instance i holds
  // [counts_end_[i - 1], counts_end_[i]) (a formula while each holds as many), names by number.
  UniformColumn<uint32_t> counts_end_;
  std::vector<std::pair<uint32_t, int64_t>> counts_;
  std::vector<std::string> count_names_;
  // The iterations of every instance, one instance after another: instance i holds
  // [i * uniform_count_, ...) while every instance has uniform_count_ of them, then
  // [ends_[i], ends_[i + 1]).
  IterationColumns iterations_;
  std::size_t uniform_count_ = 0;
  std::vector<std::size_t> ends_;  // empty while the counts are uniform; else count_ + 1 entries
  std::size_t expected_ = 0;
};

// The number of instances a variant holds, in whichever form.
std::size_t instance_count(const VariantData& v);

// Calls f(const InstanceRecord&, const IterationsView&) for each instance of the variant in
// order, whichever form holds them (VariantData::instances, or VariantData::table: then the
// record is read into one reused object, valid only during the call).
template <class F>
void for_each_instance(const VariantData& v, F&& f) {
  if (v.table == nullptr) {
    for (const auto& in : v.instances) f(in, IterationsView(in));
    return;
  }
  InstanceRecord record;
  for (std::size_t i = 0; i < v.table->size(); ++i) {
    v.table->read(i, record);
    const IterationsView its = v.table->iterations(i, record);
    f(std::as_const(record), its);
  }
}

// The variant with its instances as records (a copy; VariantData::table read into
// InstanceRecord::columns), for what needs records: pairing duet instances, a simulated
// slowdown.
VariantData with_records(const VariantData& v);

}  // namespace benchguard
