// Reuse of the last site (docs/dashboard.md): what the previous build into a directory left
// there (kSiteKeys, kSiteState, its files), or the build `serve` holds in memory, read back, and
// the whole site or one page taken from it when its key is unchanged (site_keys.hpp) and its
// bytes are still those that build recorded.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "report/html/site.hpp"

namespace benchguard::report::html {

// Files of the site are compared whatever their size.
constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

// The non-empty lines of `text`.
std::vector<std::string_view> lines_of(std::string_view text);

// A file of the site in `dir` as it is there now.
Result<std::string> read_site_file(const std::string& dir, const std::string& path);

// The hash of a file's bytes: compared only by builds of the same benchguard (a key names the
// build before a file's hash is looked at), so the standard library's hash, which reads
// 8 bytes a step where Fnv1a reads one (16 MB of pages a build), serves.
std::string content_hash(std::string_view bytes);

// Every file of the previous build, when each is there with the bytes it had.
std::optional<Site> previous_files(const PreviousSite& previous);

// The page at `path` as the previous build wrote it, when made from the same key.
std::optional<SiteFile> previous_page(const PreviousSite* previous, const std::string& path,
                                      const std::string& key);

}  // namespace benchguard::report::html
