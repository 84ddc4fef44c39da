// One way to read an instance's iterations, whichever form holds them: records
// (InstanceRecord::iterations, as runs and importers make them) or columns
// (InstanceRecord::columns, as analysis reads a stored run).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace benchguard {

class IterationsView {
 public:
  explicit IterationsView(const InstanceRecord& in)
      : rows_(&in.iterations),
        columns_(in.columns.get()),
        count_(in.columns != nullptr ? in.columns->count : 0) {}
  // Iterations [begin, end) of columns that hold several instances' (InstanceTable).
  IterationsView(const IterationColumns& columns, std::size_t begin, std::size_t end)
      : rows_(nullptr), columns_(&columns), begin_(begin), count_(end - begin) {}

  std::size_t size() const { return columns_ != nullptr ? count_ : rows_->size(); }
  bool burn_in(std::size_t k) const {
    return columns_ != nullptr ? flag(k, IterationColumns::kBurnIn) : (*rows_)[k].burn_in;
  }
  bool timed_out(std::size_t k) const {
    return columns_ != nullptr ? flag(k, IterationColumns::kTimedOut) : (*rows_)[k].timed_out;
  }
  bool failed(std::size_t k) const {
    return columns_ != nullptr ? flag(k, IterationColumns::kFailed) : !(*rows_)[k].failure.empty();
  }
  int64_t start_ns(std::size_t k) const {
    return columns_ != nullptr ? columns_->start_ns[begin_ + k] : (*rows_)[k].start_ns;
  }
  int64_t end_ns(std::size_t k) const {
    return columns_ != nullptr ? columns_->end_ns[begin_ + k] : (*rows_)[k].end_ns;
  }

  // One metric's values by position; its column is looked up once.
  class Metric {
   public:
    std::optional<double> at(std::size_t k) const {
      if (rows_ != nullptr) return (*rows_)[k].metric(*name_);
      if (column_ == nullptr) return std::nullopt;
      const std::size_t at = begin_ + k;
      if (!column_->present.empty() && column_->present[at] == 0) return std::nullopt;
      return column_->values[at];
    }

   private:
    friend class IterationsView;
    const std::vector<IterationRecord>* rows_ = nullptr;  // set: read from the records
    const std::string* name_ = nullptr;
    const MetricColumn* column_ = nullptr;  // null: no iteration reports it
    std::size_t begin_ = 0;                 // of this view's iterations in the column
  };
  // `name` must outlive the returned object.
  Metric metric(const std::string& name) const;

  // The metric names the iterations report, each once, in the order first met.
  std::vector<std::string> metric_names() const;
  // Appends to `names` those of them it does not hold yet.
  void add_metric_names(std::vector<std::string>& names) const;

 private:
  bool flag(std::size_t k, uint8_t bit) const {
    return !columns_->flags.empty() && (columns_->flags[begin_ + k] & bit) != 0;
  }

  const std::vector<IterationRecord>* rows_;  // null when reading columns
  const IterationColumns* columns_;
  std::size_t begin_ = 0;  // of the first iteration in columns_
  std::size_t count_ = 0;  // iterations read from columns_
};

}  // namespace benchguard
