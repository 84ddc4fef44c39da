// Iterations packed by column (migration 0009): the byte layout the file format promises,
// what reads back, and the damage that unpacking refuses.
#include "store/sqlite/iteration_columns.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace benchguard::store::sqlite {
namespace {

IterationRecord iteration(int index, int64_t start, int64_t end,
                          std::vector<std::pair<std::string, double>> metrics) {
  IterationRecord it;
  it.index = index;
  it.start_ns = start;
  it.end_ns = end;
  it.metrics = std::move(metrics);
  return it;
}

BlockView view(const PackedIterations& p) {
  BlockView b;
  b.count = p.count;
  if (p.idx) b.idx = *p.idx;
  b.start_ns = p.start_ns;
  b.end_ns = p.end_ns;
  if (p.flags) b.flags = *p.flags;
  if (p.failures) b.failures = *p.failures;
  return b;
}

std::vector<IterationRecord> unpacked(const PackedIterations& p) {
  std::vector<IterationRecord> out;
  EXPECT_TRUE(unpack_iterations(view(p), out).ok());
  for (const auto& m : p.metrics) {
    std::optional<std::string_view> present;
    if (m.present) present = *m.present;
    EXPECT_TRUE(unpack_metric(m.name, present, m.data, out).ok());
  }
  return out;
}

// Little-endian int64 and float64, 8 bytes per iteration; columns that hold only their
// default are NULL.
TEST(IterationColumns, LayoutIsLittleEndianArraysWithDefaultsLeftNull) {
  auto packed = pack_iterations(
      {iteration(0, 1, 0x0102, {{"wall_time", 1.5}}), iteration(1, 2, 3, {{"wall_time", -2.0}})},
      0);
  ASSERT_TRUE(packed.ok()) << packed.error().message;
  EXPECT_EQ(packed->count, 2);
  EXPECT_EQ(packed->start_ns, std::string("\x01\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0", 16));
  EXPECT_EQ(packed->end_ns.substr(0, 8), std::string("\x02\x01\0\0\0\0\0\0", 8));
  EXPECT_FALSE(packed->idx);  // 0, 1, ...
  EXPECT_FALSE(packed->flags);
  EXPECT_FALSE(packed->failures);
  ASSERT_EQ(packed->metrics.size(), 1u);
  EXPECT_EQ(packed->metrics[0].name, "wall_time");
  EXPECT_FALSE(packed->metrics[0].present);
  // 1.5 = 0x3ff8000000000000, -2.0 = 0xc000000000000000
  EXPECT_EQ(packed->metrics[0].data, std::string("\0\0\0\0\0\0\xf8\x3f\0\0\0\0\0\0\0\xc0", 16));
}

TEST(IterationColumns, EverythingAnIterationHoldsComesBack) {
  std::vector<IterationRecord> its = {
      iteration(3, -5, 7, {{"wall_time", 1e-9}, {"cycles", 12.0}}),
      iteration(-1, 100, 90, {{"cycles", std::numeric_limits<double>::infinity()}}),
      iteration(7, 0, 0, {}),
      iteration(8, 1, 2, {{"wall_time", -0.0}, {"rss", std::nan("")}}),
  };
  its[0].burn_in = true;
  its[1].timed_out = true;
  its[2].burn_in = its[2].timed_out = true;
  its[2].failure = "exit 3: \"quoted\"\nsecond line";
  its[3].failure = "✗";
  auto packed = pack_iterations(its, 0);
  ASSERT_TRUE(packed.ok()) << packed.error().message;
  ASSERT_TRUE(packed->idx);
  ASSERT_TRUE(packed->flags);
  EXPECT_EQ(*packed->flags, std::string("\x01\x02\x03\x00", 4));
  ASSERT_TRUE(packed->failures);
  ASSERT_EQ(packed->metrics.size(), 3u);  // in the order first reported
  EXPECT_EQ(packed->metrics[0].name, "wall_time");
  EXPECT_EQ(packed->metrics[1].name, "cycles");
  EXPECT_EQ(packed->metrics[2].name, "rss");
  EXPECT_EQ(packed->metrics[0].present, std::string("\x01\x00\x00\x01", 4));

  const auto back = unpacked(*packed);
  ASSERT_EQ(back.size(), its.size());
  for (size_t k = 0; k < its.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(back[k].index, its[k].index);
    EXPECT_EQ(back[k].start_ns, its[k].start_ns);
    EXPECT_EQ(back[k].end_ns, its[k].end_ns);
    EXPECT_EQ(back[k].burn_in, its[k].burn_in);
    EXPECT_EQ(back[k].timed_out, its[k].timed_out);
    EXPECT_EQ(back[k].failure, its[k].failure);
  }
  EXPECT_EQ(back[0].metric("wall_time"), 1e-9);
  EXPECT_EQ(back[0].metric("cycles"), 12.0);
  EXPECT_FALSE(back[1].metric("wall_time"));
  EXPECT_EQ(back[1].metric("cycles"), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(back[2].metrics.empty());
  // -0.0 and NaN come back as the row layout gave them: 0.0 and a NaN.
  ASSERT_TRUE(back[3].metric("wall_time"));
  EXPECT_FALSE(std::signbit(*back[3].metric("wall_time")));
  EXPECT_TRUE(std::isnan(back[3].metric("rss").value_or(0)));
}

TEST(IterationColumns, AMetricReportedTwiceInOneIterationIsRefused) {
  auto packed = pack_iterations({iteration(4, 0, 1, {{"wall_time", 1}, {"wall_time", 2}})}, 6);
  ASSERT_FALSE(packed.ok());
  EXPECT_EQ(packed.error().message, "iteration 4 of instance 6 reports metric 'wall_time' twice");
}

TEST(IterationColumns, DamageIsRefusedWithWhatIsWrong) {
  auto packed = pack_iterations(
      {iteration(0, 0, 1, {{"wall_time", 1}}), iteration(1, 1, 2, {{"wall_time", 2}})}, 0);
  ASSERT_TRUE(packed.ok());
  const auto refused = [](BlockView b) {
    std::vector<IterationRecord> out;
    auto s = unpack_iterations(b, out);
    return s.ok() ? std::string() : s.error().message;
  };
  BlockView b = view(*packed);
  b.end_ns = b.end_ns.substr(0, 15);
  EXPECT_EQ(refused(b), "end_ns holds 15 bytes for 2 iterations (8 each)");
  b = view(*packed);
  const std::string flags("\x00\x04", 2);
  b.flags = flags;
  EXPECT_EQ(refused(b), "flags of iteration 1 are 4, not 0 to 3");
  b = view(*packed);
  b.count = -1;
  EXPECT_EQ(refused(b), "count is negative (-1)");
  for (const char* bad : {"{}", "[[0]]", "[[2, \"x\"]]", "[[0, \"\"]]", "[[-1, \"x\"]]", "[", ""}) {
    b = view(*packed);
    b.failures = std::string_view(bad);
    EXPECT_EQ(refused(b), "failures is not a JSON array of [position, message]") << bad;
  }

  std::vector<IterationRecord> its;
  ASSERT_TRUE(unpack_iterations(view(*packed), its).ok());
  const std::string& data = packed->metrics[0].data;
  auto s = unpack_metric("wall_time", std::nullopt, std::string_view(data).substr(0, 8), its);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "data holds 8 bytes for 2 iterations (8 each)");
  s = unpack_metric("wall_time", std::string_view("\x01\x02", 2), data, its);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "present of iteration 1 is 2, not 0 or 1");
}

}  // namespace
}  // namespace benchguard::store::sqlite
