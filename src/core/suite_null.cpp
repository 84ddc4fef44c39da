// The A/A form of a suite (core/suite.hpp).
#include "core/suite.hpp"

namespace benchguard {

Result<Suite> null_suite(const Suite& suite, const std::string& variant) {
  Suite out = suite;
  for (auto& b : out.benchmarks) {
    const VariantSpec* chosen = b.variants.empty() ? nullptr : &b.variants.front();
    if (!variant.empty()) {
      chosen = nullptr;
      for (const auto& v : b.variants)
        if (v.name == variant) chosen = &v;
    }
    if (chosen == nullptr) {
      std::string msg = "benchmark '" + b.name + "' has no variant '" + variant + "' (it has: ";
      for (std::size_t k = 0; k < b.variants.size(); ++k)
        msg.append(k == 0 ? "" : ", ").append(b.variants[k].name);
      msg += ")";
      return suite.path.empty() ? Error{msg} : Error::at(suite.path, b.line, msg);
    }
    VariantSpec again = *chosen;
    again.name = null_variant_again(chosen->name);
    VariantSpec first = *chosen;
    b.variants = {std::move(first), std::move(again)};
  }
  return out;
}

}  // namespace benchguard
