// export --format json / jsonl stream the document instead of building it: the text must be
// exactly what nlohmann's dump() writes for it (parsed and dumped again, it comes back the same
// byte for byte), with everything in it.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/export.hpp"

namespace benchguard::report {
namespace {

RunData sample() {
  RunData r;
  r.run.uuid = "u-1";
  r.run.suite = "s";
  r.run.started_at = 1'700'000'000'000'000'000;
  r.run.labels = {{"ci", "yes"}, {"a", "b"}};
  r.run.artifacts = {{"cpu", "x86"}};
  for (const char* name : {"zeta", "alpha"}) {
    VariantData v;
    v.variant.benchmark = name;
    v.variant.name = "default";
    v.variant.command = {"sleep", "0"};
    v.variant.params = {{"n", "1"}};
    v.variant.config_json = R"({"iterations": 3, "nested": {"x": [1, 2]}})";
    for (int i = 0; i < 2; ++i) {
      InstanceRecord in;
      in.index = i;
      in.instructions = 12345;
      in.failure = i ? "exit 3: \"quoted\"\nline ✗ \xff" : "";
      for (int k = 0; k < 3; ++k) {
        IterationRecord it;
        it.index = k;
        it.start_ns = 1000 * k;
        it.end_ns = 1000 * k + 999;
        it.burn_in = k == 0;
        it.failure = k == 2 ? "timed out" : "";
        if (k == 0) it.metrics = {{"wall_time", 0.1}, {"cycles", 1e6}, {"a\"b", -2.5e300}};
        if (k == 1)
          it.metrics = {{"wall_time", std::numeric_limits<double>::quiet_NaN()},
                        {"wall_time", 3.0}};  // a repeated name: the last counts
        in.iterations.push_back(it);
      }
      v.instances.push_back(in);
    }
    r.variants.push_back(v);
  }
  r.variants[1].instances.push_back(InstanceRecord{});  // no iterations at all
  return r;
}

TEST(ExportJson, StreamedTextIsWhatDumpWrites) {
  std::ostringstream out;
  export_json({sample(), RunData{}}, out);
  const std::string text = out.str();
  ASSERT_FALSE(text.empty());
  ASSERT_EQ(text.back(), '\n');
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j.dump(2), text.substr(0, text.size() - 1));

  const auto& instances = j["runs"][0]["variants"][1]["instances"];
  ASSERT_EQ(instances.size(), 3u);
  const auto& its = instances[0]["iterations"];
  ASSERT_EQ(its.size(), 3u);
  EXPECT_EQ(its[0]["metrics"]["cycles"], 1e6);
  EXPECT_EQ(its[0]["metrics"]["a\"b"], -2.5e300);
  EXPECT_EQ(its[1]["metrics"]["wall_time"], 3.0);
  EXPECT_TRUE(its[2]["metrics"].empty());
  EXPECT_EQ(its[2]["failure"], "timed out");
  EXPECT_TRUE(instances[2]["iterations"].empty());
  EXPECT_EQ(j["runs"][0]["variants"][1]["config"]["nested"]["x"][1], 2);
  EXPECT_TRUE(j["runs"][1]["variants"].empty());
}

TEST(ExportJsonl, EachLineIsWhatDumpWrites) {
  std::ostringstream out;
  export_jsonl({sample()}, out);
  std::istringstream lines(out.str());
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.dump(), line);
    ++n;
  }
  EXPECT_EQ(n, 5);  // one per instance
}

}  // namespace
}  // namespace benchguard::report
