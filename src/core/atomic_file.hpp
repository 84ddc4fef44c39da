// Files written so that no link planted where they go is followed, and no reader sees half
// of one: each is made under a new name beside its place (created exclusively, so never
// through a link), then renamed over it, which replaces a link rather than writing where it
// points. And files removed beneath a folder only when they are regular files reached through
// real folders.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace benchguard {

// Writes what `write` puts into the stream to `path`, through PATH.tmp-XXXXXX renamed into
// place. The file gets mode 0666 less the umask (0777 less the umask with `executable`). On
// any failure `path` is as it was and the temporary file is gone.
Status write_file_atomically(const std::string& path,
                             const std::function<void(std::ostream&)>& write,
                             bool executable = false);
Status write_file_atomically(const std::string& path, std::string_view content,
                             bool executable = false);

// An error when a component of `relative` (a folder path beneath `root`, "" for root itself)
// is absolute, "..", a link, or not a folder: what would take a file written there outside
// `root`. Components that do not exist yet are fine.
Status check_real_folders(const std::string& root, const std::string& relative);

// Removes `relative` beneath `root` when it is a regular file reached through real folders
// (each component opened without following a link, no ".." and not absolute); a link, a
// folder or anything else is left alone. True when a file was removed.
bool remove_file_beneath(const std::string& root, const std::string& relative);

}  // namespace benchguard
