// A GoogleTest program whose tests are benchmarks (include/benchguard/gtest.hpp), for
// tests/e2e/cli_gtest_test.cpp. BG_SAMPLE_FAIL=1 makes Spin.Fails fail.
#include <benchguard/gtest.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace {

using Spin = benchguard::gtest::TimeFixture;

TEST_F(Spin, Short) { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }
TEST_F(Spin, Long) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }
TEST_F(Spin, Fails) {
  if (std::getenv("BG_SAMPLE_FAIL") != nullptr) FAIL() << "asked to fail";
}

// 64 MiB touched, then freed: the peak sees it, the process's size after does not.
using Alloc = benchguard::gtest::MemoryFixture;
TEST_F(Alloc, Big) {
  constexpr size_t kBytes = size_t{64} << 20;
  auto block = std::make_unique<char[]>(kBytes);
  std::memset(block.get(), 1, kBytes);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(block[kBytes - 1], 1);
}

class Sorted : public benchguard::gtest::TimeFixture {};
TEST_F(Sorted, Measure) {
  std::vector<int> data(100000);
  std::mt19937 rng(1);
  for (auto& x : data) x = static_cast<int>(rng());
  // Only the sort is measured, once per iteration.
  const size_t n = measure([&] {
    auto copy = data;
    std::sort(copy.begin(), copy.end());
    return copy.size();
  });
  EXPECT_EQ(n, data.size());
}

class Sized : public benchguard::gtest::TimeFixture, public ::testing::WithParamInterface<int> {};
TEST_P(Sized, Sleep) { std::this_thread::sleep_for(std::chrono::milliseconds(GetParam())); }
INSTANTIATE_TEST_SUITE_P(Sizes, Sized, ::testing::Values(1, 3));

TEST(Plain, NotABenchmark) { EXPECT_EQ(1 + 1, 2); }

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!benchguard::gtest::init(&argc, argv)) return 2;
  return RUN_ALL_TESTS();
}
