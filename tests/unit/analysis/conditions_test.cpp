// Which conditions A and B ran under, compared between the artifacts of their runs.
#include "analysis/conditions.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace benchguard::analysis {
namespace {

TEST(Conditions, SameConditionsNoWarning) {
  const KeyValues run{{"hostname", "box"}, {"cpu_governor", "performance"}, {"seed", "1"}};
  EXPECT_TRUE(condition_differences({run}, {run}).empty());
  EXPECT_TRUE(condition_differences({}, {}).empty());
}

TEST(Conditions, OneWarningPerDifferingKeyNamingBothValues) {
  const KeyValues a{
      {"hostname", "box"}, {"cpu_governor", "powersave"}, {"turbo", "on"}, {"seed", "1"}};
  const KeyValues b{{"hostname", "box"},
                    {"cpu_governor", "performance"},
                    {"turbo", "off"},
                    {"seed", "2"}};  // seed is no condition
  const auto d = condition_differences({a}, {b});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].key, "cpu_governor");
  EXPECT_EQ(d[0].a, std::vector<std::string>{"powersave"});
  EXPECT_EQ(d[0].b, std::vector<std::string>{"performance"});
  EXPECT_EQ(d[1].key, "turbo");
  EXPECT_EQ(condition_warnings({a}, {b}),
            (std::vector<std::string>{
                "A and B ran under different conditions: cpu_governor powersave (A) vs "
                "performance (B)",
                "A and B ran under different conditions: turbo on (A) vs off (B)"}));
}

TEST(Conditions, OnlyKeysBothSidesHave) {
  // An imported result file knows nothing of the governor: no comparison of it.
  const KeyValues stored{{"cpu_governor", "powersave"}, {"cpu_count", "8"}};
  const KeyValues imported{{"import_format", "go"}, {"cpu_count", "4"}};
  const auto d = condition_differences({stored}, {imported});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].key, "cpu_count");
  EXPECT_TRUE(condition_differences({stored}, {KeyValues{}}).empty());
}

TEST(Conditions, RunsOfOneSideThatDisagreeAreListed) {
  const KeyValues p{{"cpu_governor", "performance"}, {"smt", "off"}};
  const KeyValues s{{"cpu_governor", "powersave"}, {"smt", "off"}};
  const KeyValues none{{"smt", "off"}};  // a run without the key does not count for it
  const auto d = condition_differences({p, s, none, p}, {p});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].key, "cpu_governor");
  EXPECT_EQ(d[0].a, (std::vector<std::string>{"performance", "powersave"}));
  EXPECT_EQ(describe(d[0]),
            "A and B ran under different conditions: cpu_governor performance / powersave "
            "(A: its runs differ) vs performance (B)");
  // Both sides alike, but each mixed: still reported.
  const auto both = condition_differences({p, s}, {s, p});
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(describe(both[0]),
            "A and B ran under different conditions: cpu_governor performance / powersave "
            "(A: its runs differ) vs powersave / performance (B: its runs differ)");
}

TEST(Conditions, KeysInReportOrder) {
  const auto& keys = condition_keys();
  for (const char* k :
       {"cpu_governor", "turbo", "smt", "isolated_cpus", "nohz_full", "aslr", "cpu_quota",
        "virtualization", "container", "cpu_model", "cpu_count", "kernel", "hostname"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), k), keys.end()) << k;
  const KeyValues a{{"hostname", "x"}, {"cpu_governor", "a"}};
  const KeyValues b{{"hostname", "y"}, {"cpu_governor", "b"}};
  const auto d = condition_differences({a}, {b});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].key, "cpu_governor");  // the order of condition_keys(), not of the runs
  EXPECT_EQ(d[1].key, "hostname");
}

// The packages of each side, from a session's one set or a `benchguard pytest` run's set per
// variant, and what differs, named as pip names them.
TEST(Conditions, PackagesOfEachSideAndWhatDiffers) {
  const KeyValues session{{"python_packages", R"({"dask": "2023.3.2", "Foo_Bar": "1.0"})"}};
  const KeyValues per_variant{
      {"python_packages", R"({"A": {"dask": "2023.3.2"}, "B": {"dask": "2024.2.1", "x": "1"}})"}};
  const auto s = packages_of(session, "default");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->at("dask"), "2023.3.2");
  const auto a = packages_of(per_variant, "A");
  const auto b = packages_of(per_variant, "B");
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(packages_of(per_variant, "C").has_value());
  EXPECT_FALSE(packages_of({}, "A").has_value());
  EXPECT_FALSE(packages_of({{"python_packages", "not json"}}, "A").has_value());
  EXPECT_EQ(package_changes(*a, *b),
            (std::vector<std::string>{"dask 2023.3.2 -> 2024.2.1", "x (only in B, 1)"}));
  // foo-bar and Foo_Bar are one distribution to pip.
  EXPECT_EQ(package_changes(*s, {{"dask", "2023.3.2"}, {"foo-bar", "1.0"}}),
            std::vector<std::string>{});
  EXPECT_EQ(package_changes(*s, {{"dask", "2023.3.2"}}),
            std::vector<std::string>{"Foo_Bar (only in A, 1.0)"});
  EXPECT_EQ(packages_note(*a, *b),
            "packages that differ between A and B: dask 2023.3.2 -> 2024.2.1, x (only in B, 1)");
  EXPECT_EQ(packages_note(*a, *a), "");
}

}  // namespace
}  // namespace benchguard::analysis
