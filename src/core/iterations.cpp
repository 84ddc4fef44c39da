#include "core/iterations.hpp"

#include <algorithm>

namespace benchguard {

IterationsView::Metric IterationsView::metric(const std::string& name) const {
  Metric m;
  m.name_ = &name;
  if (columns_ == nullptr) {
    m.rows_ = rows_;
    return m;
  }
  m.begin_ = begin_;
  for (const auto& c : columns_->metrics)
    if (c.name == name) m.column_ = &c;
  return m;
}

std::vector<std::string> IterationsView::metric_names() const {
  std::vector<std::string> names;
  add_metric_names(names);
  return names;
}

void IterationsView::add_metric_names(std::vector<std::string>& names) const {
  const auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  if (columns_ != nullptr) {
    // Of columns shared with other instances, only those with a value in this view's range.
    for (const auto& c : columns_->metrics) {
      bool reported = c.present.empty() && count_ > 0;
      for (std::size_t k = 0; !reported && k < count_; ++k) reported = c.present[begin_ + k] != 0;
      if (reported) add(c.name);
    }
  } else {
    for (const auto& it : *rows_)
      for (const auto& [name, value] : it.metrics) add(name);
  }
}

}  // namespace benchguard
