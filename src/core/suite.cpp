#include "core/suite.hpp"

#include <filesystem>

#include "core/suite_raw.hpp"
#include "core/yaml_util.hpp"

namespace benchguard {

namespace {

namespace fs = std::filesystem;

// The directory relative cwd values start from: the suite file's, or the current one.
std::string base_dir(const std::string& path) {
  std::error_code ec;
  const fs::path dir =
      path.empty() ? fs::current_path(ec) : fs::absolute(fs::path(path), ec).parent_path();
  return ec ? std::string(".") : dir.string();
}

}  // namespace

Result<Suite> load_suite(const std::string& path) {
  BG_ASSIGN(std::string text, yaml::read_text_file(path));
  return parse_suite(text, path);
}

Result<Suite> parse_suite(const std::string& text, const std::string& path) {
  const yaml::Reader reader(path.empty() ? "<suite>" : path);
  const std::string name = path.empty() ? "suite" : fs::path(path).stem().string();
  // The readers check node types before converting, so yaml-cpp should not throw past parse();
  // this keeps a missed case an error value rather than a crash.
  try {
    BG_ASSIGN(YAML::Node root, reader.parse(text));
    BG_ASSIGN(auto raw, suite_detail::read_suite(root, reader, name));
    BG_ASSIGN(Suite suite, suite_detail::expand_suite(raw, reader, base_dir(path)));
    suite.path = path;
    return suite;
  } catch (const YAML::Exception& e) {
    return reader.error(e.mark.line >= 0 ? e.mark.line + 1 : 0, "invalid suite: " + e.msg);
  }
}

}  // namespace benchguard
