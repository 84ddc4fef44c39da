#include "store/location.hpp"

#include <dirent.h>

#include <cctype>
#include <cstring>
#include <memory>
#include <string_view>

namespace benchguard::store {
namespace {

constexpr std::string_view kMask = "***";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Where the authority (user-info and hosts) of a URL starts and ends.
struct Authority {
  size_t begin = std::string::npos;
  size_t end = std::string::npos;
};

Authority authority(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  const size_t begin = scheme + 3;
  size_t end = url.find_first_of("/?#", begin);
  if (end == std::string::npos) end = url.size();
  return {begin, end};
}

// Ranges [first, second) of password values in `url`.
std::vector<std::pair<size_t, size_t>> password_ranges(const std::string& url) {
  std::vector<std::pair<size_t, size_t>> out;
  const Authority a = authority(url);
  if (a.begin == std::string::npos) return out;
  const size_t at = url.rfind('@', a.end == 0 ? 0 : a.end - 1);
  if (at != std::string::npos && at >= a.begin && at < a.end) {
    const size_t colon = url.find(':', a.begin);
    if (colon != std::string::npos && colon < at) out.emplace_back(colon + 1, at);
  }
  // password=VALUE among the parameters after '?'.
  const size_t query = url.find('?', a.end);
  if (query != std::string::npos) {
    size_t pos = query + 1;
    while (pos < url.size()) {
      size_t amp = url.find('&', pos);
      if (amp == std::string::npos) amp = url.size();
      const std::string_view param(url.data() + pos, amp - pos);
      if (param.starts_with("password=")) out.emplace_back(pos + 9, amp);
      pos = amp + 1;
    }
  }
  return out;
}

}  // namespace

bool is_postgres_url(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

bool has_password(const std::string& url) {
  return is_postgres_url(url) && !password_ranges(url).empty();
}

std::string display_location(const std::string& location) {
  return is_postgres_url(location) ? redact_url(location) : location;
}

std::string redact_url(const std::string& url) {
  const auto ranges = password_ranges(url);
  std::string out;
  size_t pos = 0;
  for (const auto& [first, last] : ranges) {
    if (first < pos) continue;
    out.append(url, pos, first - pos);
    out += kMask;
    pos = last;
  }
  out.append(url, pos, std::string::npos);
  return out;
}

std::vector<std::string> url_secrets(const std::string& url) {
  std::vector<std::string> out;
  for (const auto& [first, last] : password_ranges(url)) {
    if (last <= first) continue;
    const std::string raw = url.substr(first, last - first);
    out.push_back(raw);
    const std::string decoded = percent_decode(raw);
    if (decoded != raw) out.push_back(decoded);
  }
  return out;
}

std::string scrub(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& secret : secrets) {
    if (secret.empty()) continue;
    size_t pos = 0;
    while ((pos = text.find(secret, pos)) != std::string::npos) {
      text.replace(pos, secret.size(), kMask);
      pos += kMask.size();
    }
  }
  return text;
}

std::string folder_of(const std::string& db_path) {
  const std::size_t slash = db_path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : db_path.substr(0, slash);
}

std::vector<std::string> names_beginning_with(const std::string& folder, std::string_view prefix) {
  std::vector<std::string> out;
  const std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(folder.c_str()), ::closedir);
  if (!dir) return out;  // no folder, or not readable: nothing of ours to find there
  while (const dirent* e = ::readdir(dir.get())) {
    if (std::strncmp(e->d_name, prefix.data(), prefix.size()) == 0) out.emplace_back(e->d_name);
  }
  return out;
}

}  // namespace benchguard::store
