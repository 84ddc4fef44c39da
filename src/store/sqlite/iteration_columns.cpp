#include "store/sqlite/iteration_columns.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

namespace benchguard::store::sqlite {
namespace {

constexpr uint8_t kBurnIn = 1;
constexpr uint8_t kTimedOut = 2;

template <class T>
T to_little(T v) {
  static_assert(sizeof(T) == 8);
  if constexpr (std::endian::native == std::endian::big) {
    uint64_t u = 0;
    std::memcpy(&u, &v, 8);
    u = __builtin_bswap64(u);
    std::memcpy(&v, &u, 8);
  }
  return v;
}

template <class T>
void put(std::string& out, size_t k, T v) {
  v = to_little(v);
  std::memcpy(out.data() + 8 * k, &v, 8);
}

template <class T>
T get(std::string_view in, size_t k) {
  T v;
  std::memcpy(&v, in.data() + 8 * k, 8);
  return to_little(v);
}

// What the row layout read back: SQLite keeps no NaN (stored NULL, read as the one quiet NaN)
// and no negative zero.
double canonical(double v) {
  if (std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
  return v == 0.0 ? 0.0 : v;
}

Status check_length(std::string_view column, size_t bytes, size_t count, size_t width) {
  if (bytes == count * width) return ok_status();
  return Error{std::string(column) + " holds " + std::to_string(bytes) + " bytes for " +
               std::to_string(count) + " iterations (" + std::to_string(width) + " each)"};
}

}  // namespace

Result<PackedIterations> pack_iterations(const std::vector<IterationRecord>& iterations,
                                         int instance_index, bool with_metrics) {
  const size_t n = iterations.size();
  PackedIterations out;
  out.count = static_cast<int64_t>(n);
  out.start_ns.resize(8 * n);
  out.end_ns.resize(8 * n);
  std::string idx(8 * n, '\0');
  std::string flags(n, '\0');
  bool plain_idx = true, any_flag = false;
  nlohmann::json failures = nlohmann::json::array();
  std::vector<std::string> present;  // beside out.metrics
  std::vector<size_t> reported;      // iterations reporting each metric
  for (size_t k = 0; k < n; ++k) {
    const IterationRecord& it = iterations[k];
    put<int64_t>(out.start_ns, k, it.start_ns);
    put<int64_t>(out.end_ns, k, it.end_ns);
    put<int64_t>(idx, k, it.index);
    plain_idx = plain_idx && it.index == static_cast<int64_t>(k);
    const auto f =
        static_cast<uint8_t>((it.burn_in ? kBurnIn : 0) | (it.timed_out ? kTimedOut : 0));
    flags[k] = static_cast<char>(f);
    any_flag = any_flag || f != 0;
    if (!it.failure.empty()) failures.push_back(nlohmann::json::array({k, it.failure}));
    if (!with_metrics) continue;
    for (size_t m = 0; m < it.metrics.size(); ++m) {
      const auto& [name, value] = it.metrics[m];
      for (size_t earlier = 0; earlier < m; ++earlier)
        if (it.metrics[earlier].first == name)
          return Error{"iteration " + std::to_string(it.index) + " of instance " +
                       std::to_string(instance_index) + " reports metric '" + name + "' twice"};
      // Usually the m-th metric of every iteration is the same one.
      size_t slot = m;
      if (slot >= out.metrics.size() || out.metrics[slot].name != name) {
        slot = 0;
        while (slot < out.metrics.size() && out.metrics[slot].name != name) ++slot;
        if (slot == out.metrics.size()) {
          const double nan = std::numeric_limits<double>::quiet_NaN();
          out.metrics.push_back({name, std::nullopt, std::string(8 * n, '\0')});
          for (size_t j = 0; j < n; ++j) put(out.metrics.back().data, j, nan);
          present.emplace_back(n, '\0');
          reported.push_back(0);
        }
      }
      put(out.metrics[slot].data, k, canonical(value));
      present[slot][k] = 1;
      ++reported[slot];
    }
  }
  if (!plain_idx) out.idx = std::move(idx);
  if (any_flag) out.flags = std::move(flags);
  if (!failures.empty()) out.failures = failures.dump();
  for (size_t m = 0; m < out.metrics.size(); ++m)
    if (reported[m] != n) out.metrics[m].present = std::move(present[m]);
  return out;
}

namespace {

// The checks both readers make of a block: array lengths, indexes in range, flag values and
// the failures' JSON; `failed(k, message)` is called for each failed iteration.
template <class OnFailure>
Status check_block(const BlockView& block, OnFailure&& failed) {
  if (block.count < 0) return Error{"count is negative (" + std::to_string(block.count) + ")"};
  const auto n = static_cast<size_t>(block.count);
  BG_TRY(check_length("start_ns", block.start_ns.size(), n, 8));
  BG_TRY(check_length("end_ns", block.end_ns.size(), n, 8));
  if (block.idx) {
    BG_TRY(check_length("idx", block.idx->size(), n, 8));
    for (size_t k = 0; k < n; ++k)
      if (const auto index = get<int64_t>(*block.idx, k);
          index < std::numeric_limits<int>::min() || index > std::numeric_limits<int>::max())
        return Error{"idx of iteration " + std::to_string(k) + " is out of range (" +
                     std::to_string(index) + ")"};
  }
  if (block.flags) {
    BG_TRY(check_length("flags", block.flags->size(), n, 1));
    for (size_t k = 0; k < n; ++k)
      if (const auto f = static_cast<uint8_t>((*block.flags)[k]); f > (kBurnIn | kTimedOut))
        return Error{"flags of iteration " + std::to_string(k) + " are " + std::to_string(f) +
                     ", not 0 to 3"};
  }
  if (block.failures) {
    const auto bad = [] { return Error{"failures is not a JSON array of [position, message]"}; };
    const auto json = nlohmann::json::parse(*block.failures, nullptr, /*allow_exceptions=*/false);
    if (!json.is_array()) return bad();
    for (const auto& entry : json) {
      if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_unsigned() ||
          !entry[1].is_string() || entry[1].get_ref<const std::string&>().empty())
        return bad();
      const auto k = entry[0].get<uint64_t>();
      if (k >= n) return bad();
      failed(static_cast<size_t>(k), entry[1].get<std::string>());
    }
  }
  return ok_status();
}

// The checks both readers make of a metric's arrays for `n` iterations.
Status check_metric(std::optional<std::string_view> present, std::string_view data, size_t n) {
  BG_TRY(check_length("data", data.size(), n, 8));
  if (!present) return ok_status();
  BG_TRY(check_length("present", present->size(), n, 1));
  for (size_t k = 0; k < n; ++k)
    if (const char p = (*present)[k]; p != 0 && p != 1)
      return Error{"present of iteration " + std::to_string(k) + " is " +
                   std::to_string(static_cast<uint8_t>(p)) + ", not 0 or 1"};
  return ok_status();
}

}  // namespace

Status unpack_iterations(const BlockView& block, std::vector<IterationRecord>& out) {
  const size_t first = out.size();
  std::vector<std::pair<size_t, std::string>> failures;
  BG_TRY(check_block(
      block, [&](size_t k, std::string message) { failures.emplace_back(k, std::move(message)); }));
  const auto n = static_cast<size_t>(block.count);
  out.resize(first + n);
  for (size_t k = 0; k < n; ++k) {
    IterationRecord& it = out[first + k];
    it.start_ns = get<int64_t>(block.start_ns, k);
    it.end_ns = get<int64_t>(block.end_ns, k);
    it.index = block.idx ? static_cast<int>(get<int64_t>(*block.idx, k)) : static_cast<int>(k);
    if (block.flags) {
      const auto f = static_cast<uint8_t>((*block.flags)[k]);
      it.burn_in = (f & kBurnIn) != 0;
      it.timed_out = (f & kTimedOut) != 0;
    }
  }
  for (auto& [k, message] : failures) out[first + k].failure = std::move(message);
  return ok_status();
}

Status unpack_metric(const std::string& name, std::optional<std::string_view> present,
                     std::string_view data, std::vector<IterationRecord>& iterations) {
  const size_t n = iterations.size();
  BG_TRY(check_metric(present, data, n));
  for (size_t k = 0; k < n; ++k)
    if (!present || (*present)[k] != 0)
      iterations[k].metrics.emplace_back(name, get<double>(data, k));
  return ok_status();
}

Status unpack_columns(const BlockView& block, IterationColumns& out) {
  std::vector<size_t> failed;
  BG_TRY(check_block(block, [&](size_t k, const std::string&) { failed.push_back(k); }));
  const auto n = static_cast<size_t>(block.count);
  out.count = n;
  out.start_ns.resize(n);
  out.end_ns.resize(n);
  for (size_t k = 0; k < n; ++k) {
    out.start_ns[k] = get<int64_t>(block.start_ns, k);
    out.end_ns[k] = get<int64_t>(block.end_ns, k);
  }
  // The stored flag bits are IterationColumns' kBurnIn and kTimedOut.
  static_assert(kBurnIn == IterationColumns::kBurnIn && kTimedOut == IterationColumns::kTimedOut);
  if (block.flags) out.flags.assign(block.flags->begin(), block.flags->end());
  if (!failed.empty() && out.flags.empty()) out.flags.assign(n, 0);
  for (const size_t k : failed) out.flags[k] |= IterationColumns::kFailed;
  return ok_status();
}

Status unpack_metric_column(const std::string& name, std::optional<std::string_view> present,
                            std::string_view data, IterationColumns& out) {
  BG_TRY(check_metric(present, data, out.count));
  MetricColumn column;
  column.name = name;
  column.values.resize(out.count);
  for (size_t k = 0; k < out.count; ++k) column.values[k] = get<double>(data, k);
  if (present) column.present.assign(present->begin(), present->end());
  out.metrics.push_back(std::move(column));
  return ok_status();
}

IterationRecord iteration_from_row(const Stmt& row, int first) {
  IterationRecord it;
  it.index = static_cast<int>(row.int64(first));
  it.start_ns = row.int64(first + 1);
  it.end_ns = row.int64(first + 2);
  it.burn_in = row.int64(first + 3) != 0;
  it.timed_out = row.int64(first + 4) != 0;
  it.failure = row.text(first + 5);
  return it;
}

}  // namespace benchguard::store::sqlite
