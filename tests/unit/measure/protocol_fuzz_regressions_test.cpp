// Protocol lines that overflowed the reader's arithmetic (fuzz/protocol_fuzz.cpp,
// docs/dev/fuzzing.md).
#include <gtest/gtest.h>

#include "measure/protocol.hpp"

namespace benchguard::measure {
namespace {

TEST(ProtocolFuzzRegressions, WallTimeOfTimesFurtherApartThanInt64) {
  // end_ns - start_ns overflowed int64: the wall time came out negative.
  auto r = parse_protocol("{\"start_ns\":-1,\"end_ns\":9223372036854775807}\n", "r.jsonl");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  const auto wall = (*r)[0].metric("wall_time");
  ASSERT_TRUE(wall.has_value());
  EXPECT_DOUBLE_EQ(*wall, 9223372036854775808.0 * 1e-9);
}

}  // namespace
}  // namespace benchguard::measure
