// File writing (docs/dashboard.md): a built site written into its directory, a file whose
// bytes are already there left alone, the files of the previous build this one lacks removed,
// and the keys, hashes and state the next build reads (site_reuse.hpp) written beside them.
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/yaml_util.hpp"
#include "report/html/site.hpp"
#include "report/html/site_reuse.hpp"

namespace benchguard::report::html {

Status check_site_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root(dir);
  const auto status = fs::status(root, ec);
  if (!fs::exists(status)) return ok_status();
  if (!fs::is_directory(status))
    return Error{fmt::format("{} is a file, not a folder: give a folder for the site", dir)};
  if (fs::exists(root / kSiteManifest, ec)) return ok_status();
  std::string found;
  for (const auto& name : {"index.html", "data", "assets"})
    if (fs::exists(root / name, ec)) {
      found = name;
      break;
    }
  if (found.empty()) {
    fs::directory_iterator it(root, ec);
    if (ec || it == fs::directory_iterator()) return ok_status();  // empty
    found = it->path().filename().string();
  }
  return Error{fmt::format(
      "{} holds {} and no site benchguard wrote: give an empty or new folder, or --force to "
      "write the site over what is there",
      dir, (root / found).string())};
}

Result<SiteWrite> write_site(const Site& site, const std::string& dir) {
  namespace fs = std::filesystem;
  SiteWrite done;
  std::error_code ec;
  const fs::path root(dir);
  // What the previous build wrote: removed below unless this site has it too.
  std::vector<std::string> before;
  if (const auto listed = read_site_file(dir, kSiteManifest); listed.ok())
    for (const auto line : lines_of(*listed)) before.emplace_back(line);
  std::string manifest;
  std::set<std::string> now;
  std::set<fs::path> folders;
  for (const auto& f : site.files) {
    manifest += f.path + "\n";
    now.insert(f.path);
    folders.insert((root / f.path).parent_path());
  }
  // A folder of the site that is a link (planted in a shared or checked-out folder) would take
  // the pages written into it elsewhere.
  for (const auto& folder : folders) {
    BG_TRY(check_real_folders(dir, folder.lexically_relative(root).string()));
    fs::create_directories(folder, ec);
    if (ec) return Error{fmt::format("cannot create {}: {}", folder.string(), ec.message())};
  }
  // Each file is checked and written on its own, several at once; its hash for kSiteKeys is
  // taken meanwhile. The first failure in the order of the files is the one reported.
  enum Outcome : char { kUnchanged, kWritten, kFailed };
  std::vector<Outcome> outcome(site.files.size(), kUnchanged);
  std::vector<std::string> hashes(site.files.size());
  tbb::parallel_for(std::size_t{0}, site.files.size(), [&](std::size_t k) {
    const SiteFile& f = site.files[k];
    hashes[k] = f.hash.empty() ? content_hash(f.content) : f.hash;
    // The same bytes are left alone: a published copy then sees only what changed. A page
    // read back from this directory was just found there with them.
    if (!f.read_from.empty() && f.read_from == dir) return;
    const fs::path path = root / f.path;
    // A link in the file's place is replaced, never read or written through.
    std::error_code lec;
    if (fs::is_regular_file(fs::symlink_status(path, lec))) {
      if (const auto existing = yaml::read_text_file(path.string(), kNoLimit);
          existing.ok() && *existing == f.content)
        return;
    }
    outcome[k] = write_file_atomically(path.string(), f.content).ok() ? kWritten : kFailed;
  });
  for (std::size_t k = 0; k < site.files.size(); ++k) {
    if (outcome[k] == kFailed)
      return Error{fmt::format("cannot write {}", (root / site.files[k].path).string())};
    ++(outcome[k] == kWritten ? done.written : done.unchanged);
  }
  // The manifest is read from the folder, which others may have written: only regular files
  // reached through real folders beneath it are removed.
  for (const auto& path : before) {
    if (now.contains(path)) continue;
    if (remove_file_beneath(dir, path)) ++done.removed;
  }
  BG_TRY(write_file_atomically((root / kSiteManifest).string(), manifest));
  std::string keys;
  if (!site.key.empty()) keys += fmt::format("site {}\n", site.key);
  for (const auto& [path, key] : site.keys) keys += fmt::format("page {} {}\n", key, path);
  for (std::size_t k = 0; k < site.files.size(); ++k)
    keys += fmt::format("file {} {}\n", hashes[k], site.files[k].path);
  for (auto w : site.warnings) {
    std::replace(w.begin(), w.end(), '\n', ' ');
    keys += fmt::format("warning {}\n", w);
  }
  BG_TRY(write_file_atomically((root / kSiteKeys).string(), keys));
  // Without a state the next build makes everything; a state left by an earlier build would
  // describe another site.
  if (site.state.empty()) {
    fs::remove(root / kSiteState, ec);
  } else {
    BG_TRY(write_file_atomically((root / kSiteState).string(), site.state));
  }
  return done;
}

}  // namespace benchguard::report::html
