#include "measure/affinity.hpp"

#include <gtest/gtest.h>

namespace benchguard::measure {
namespace {

TEST(MeasureCpuList, ParsesItemsAndRanges) {
  auto one = parse_cpu_list("0");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(*one, std::vector<int>{0});
  const std::vector<int> usable = usable_cpus();
  if (usable.size() >= 2 && usable[0] == 0 && usable[1] == 1) {
    auto both = parse_cpu_list(" 1, 0-1 ");
    ASSERT_TRUE(both.ok()) << both.error().message;
    EXPECT_EQ(*both, (std::vector<int>{0, 1}));  // sorted, duplicates merged
  }
}

TEST(MeasureCpuList, RejectsBadSyntax) {
  EXPECT_EQ(parse_cpu_list("").error().message, "invalid CPU list '': no CPUs given");
  EXPECT_EQ(parse_cpu_list("0,,1").error().message,
            "invalid CPU list '0,,1': empty item (stray ',')");
  EXPECT_EQ(parse_cpu_list("a").error().message, "invalid CPU list 'a': 'a' is not a CPU number");
  EXPECT_EQ(parse_cpu_list("-1").error().message,
            "invalid CPU list '-1': '-1' is not a range like 2-5");
  EXPECT_EQ(parse_cpu_list("3-1").error().message,
            "invalid CPU list '3-1': range '3-1' runs backwards");
}

TEST(MeasureCpuList, RejectsCpusThisMachineLacks) {
  auto r = parse_cpu_list("0,5000");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("CPU 5000 is not available here (usable CPUs: ", 0), 0u)
      << r.error().message;
  const std::vector<int> usable = usable_cpus();
  const int missing = usable.back() + 1;
  auto m = parse_cpu_list(std::to_string(missing));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            "CPU " + std::to_string(missing) +
                " is not available here (usable CPUs: " + format_cpu_list(usable) + ")");
}

TEST(MeasureCpuList, FormatsRuns) {
  EXPECT_EQ(format_cpu_list({0, 2, 3, 4, 7}), "0,2-4,7");
  EXPECT_EQ(format_cpu_list({}), "");
}

}  // namespace
}  // namespace benchguard::measure
