// Measurements with two levels: instances (process launches), each holding the iterations
// timed inside it. Iterations of one instance share that instance's state (memory layout,
// JIT decisions, CPU frequency), so they are not independent of each other; instances are the
// independent units. Stored as one flat vector plus offsets so resampling stays cache-friendly.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace benchguard::stats {

class Hierarchical {
 public:
  Hierarchical() = default;
  // One inner vector per instance; empty instances are dropped (see add_instance).
  explicit Hierarchical(const std::vector<std::vector<double>>& instances);

  // Appends an instance. An instance without iterations carries no information about the
  // metric, so it is ignored rather than kept as a zero-weight group.
  void add_instance(std::span<const double> iterations);
  // Every instance at once: `offsets` as offsets() returns them (0 first, then each
  // instance's end in `values`, each past the one before: no instance empty). Anything else
  // gives no instance.
  static Hierarchical from_parts(std::vector<double> values, std::vector<std::size_t> offsets);

  std::size_t instances() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  std::size_t size() const { return values_.size(); }  // iterations over all instances
  bool empty() const { return values_.empty(); }

  std::span<const double> instance(std::size_t i) const {
    return std::span<const double>(values_).subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  std::span<const double> values() const { return values_; }
  // offsets()[i] .. offsets()[i + 1] delimit instance i in values(); size instances() + 1.
  std::span<const std::size_t> offsets() const {
    return offsets_.empty() ? std::span<const std::size_t>(kNoOffsets) : offsets_;
  }

  // True when every instance has the same number of iterations.
  bool balanced() const;

 private:
  static constexpr std::size_t kNoOffsets[1] = {0};
  std::vector<double> values_;
  // Empty until the first instance (then 0 first): a Hierarchical made empty, as every history
  // point is before its values arrive, allocates nothing.
  std::vector<std::size_t> offsets_;
};

// The mean of each instance's iterations, in instance order.
std::vector<double> instance_means(const Hierarchical& data);

// The same data without the first `count` iterations of every instance (burn-in removal).
// Instances left with no iterations disappear.
Hierarchical drop_leading(const Hierarchical& data, std::size_t count);

// The first `count` instances (all of them when there are fewer).
Hierarchical first_instances(const Hierarchical& data, std::size_t count);

// Every value multiplied by `factor` (a simulated slowdown, or a unit change).
Hierarchical scaled(const Hierarchical& data, double factor);

}  // namespace benchguard::stats
