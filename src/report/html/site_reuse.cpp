#include "report/html/site_reuse.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <utility>

#include "core/yaml_util.hpp"

namespace benchguard::report::html {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    if (end > from) lines.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  return lines;
}

Result<std::string> read_site_file(const std::string& dir, const std::string& path) {
  return yaml::read_text_file((std::filesystem::path(dir) / path).string(), kNoLimit);
}

std::string content_hash(std::string_view bytes) {
  return fmt::format("{:016x}", static_cast<uint64_t>(std::hash<std::string_view>{}(bytes)));
}

std::optional<Site> previous_files(const PreviousSite& previous) {
  if (previous.built != nullptr) {
    Site site = *previous.built;
    site.reused = site.files.size();
    site.unchanged = true;
    site.followed = false;
    site.remade.clear();
    return site;
  }
  if (previous.files.empty()) return std::nullopt;
  Site site;
  for (const auto& [path, hash] : previous.files) {
    auto text = read_site_file(previous.dir, path);
    if (!text.ok() || content_hash(*text) != hash) return std::nullopt;
    site.files.push_back({path, std::move(*text), previous.dir, hash});
  }
  site.keys = previous.keys;
  site.warnings = previous.warnings;
  site.state = previous.state;
  site.reused = site.files.size();
  site.unchanged = true;
  return site;
}

std::optional<SiteFile> previous_page(const PreviousSite* previous, const std::string& path,
                                      const std::string& key) {
  if (previous == nullptr) return std::nullopt;
  const auto it = previous->keys.find(path);
  if (it == previous->keys.end() || it->second != key) return std::nullopt;
  if (previous->built != nullptr) {
    const SiteFile* file = previous->built->find(path);
    if (file == nullptr) return std::nullopt;
    return *file;
  }
  // As that build wrote it: a page edited since is made again.
  const auto hash = previous->hashes.find(path);
  if (hash == previous->hashes.end()) return std::nullopt;
  auto text = read_site_file(previous->dir, path);
  if (!text.ok() || content_hash(*text) != hash->second) return std::nullopt;
  return SiteFile{path, std::move(*text), previous->dir, hash->second};
}

PreviousSite previous_in_memory(const Site& site) {
  PreviousSite previous;
  previous.built = &site;
  previous.keys = site.keys;
  previous.key = site.key;
  previous.warnings = site.warnings;
  previous.state = site.state;
  return previous;
}

PreviousSite read_previous_site(const std::string& dir) {
  PreviousSite previous;
  previous.dir = dir;
  const auto text = read_site_file(dir, kSiteKeys);
  if (!text.ok()) return previous;
  if (auto state = read_site_file(dir, kSiteState); state.ok()) previous.state = std::move(*state);
  for (auto line : lines_of(*text)) {
    // "KIND REST"; "page" and "file" split REST into "KEY PATH".
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view kind = line.substr(0, space);
    line.remove_prefix(space + 1);
    if (kind == "site") previous.key = std::string(line);
    if (kind == "warning") previous.warnings.emplace_back(line);
    if (kind != "page" && kind != "file") continue;
    const auto split = line.find(' ');
    if (split == std::string_view::npos || split == 0) continue;
    std::string key(line.substr(0, split)), path(line.substr(split + 1));
    if (kind == "page") {
      previous.keys.emplace(std::move(path), std::move(key));
    } else {
      previous.hashes.emplace(path, key);
      previous.files.emplace_back(std::move(path), std::move(key));
    }
  }
  return previous;
}

}  // namespace benchguard::report::html
