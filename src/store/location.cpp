#include "store/location.hpp"

#include <dirent.h>

#include <algorithm>
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

// libpq's keywords whose values are secrets (those its PQconninfoOptions show as "*").
bool secret_keyword(std::string_view key) {
  return key == "password" || key == "sslpassword" || key == "oauth_client_secret";
}

// True when every '%' of `s` begins a %XX libpq decodes (it refuses %00 too).
bool valid_percent(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') continue;
    if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return false;
    if (s[i + 1] == '0' && s[i + 2] == '0') return false;
    i += 2;
  }
  return true;
}

// A URL read as libpq reads one (conninfo_uri_parse_options in its fe-connect.c): the
// user-info runs up to the first '@' before any '/' (so a password may hold '?' or '#', which
// libpq takes literally), the password from the user-info's first ':'; the host list ends at
// '/' or '?' (a bracketed IPv6 address at its ']'); the parameters follow the first '?' after
// it, KEY=VALUE separated by '&', the key percent-decoded before it is compared.
struct Parsed {
  std::string refused;  // why libpq would not read it; empty when it would
  std::vector<std::pair<size_t, size_t>> secrets;  // [first, last) of each secret value
};

Parsed parse_url(const std::string& url) {
  Parsed out;
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) {
    out.refused = "not a postgresql:// URL";
    return out;
  }
  const size_t start = scheme + 3;
  size_t p = url.find_first_of("@/", start);
  if (p != std::string::npos && url[p] == '@') {
    const size_t colon = url.find(':', start);
    if (colon != std::string::npos && colon < p) out.secrets.emplace_back(colon + 1, p);
    if (!valid_percent(std::string_view(url).substr(start, p - start))) {
      out.refused = "the user or password holds a % that is not %XX";
      return out;
    }
    ++p;
  } else {
    p = start;
  }
  // The host list: '?' inside brackets is part of an address.
  while (p < url.size() && url[p] != '/' && url[p] != '?') {
    if (url[p] == '[') {
      const size_t close = url.find(']', p);
      if (close == std::string::npos) {
        out.refused = "an IPv6 host lacks its ']'";
        return out;
      }
      p = close;
    }
    ++p;
  }
  const size_t query = url.find('?', p);
  if (query == std::string::npos) return out;
  size_t pos = query + 1;
  while (pos < url.size()) {
    size_t amp = url.find('&', pos);
    if (amp == std::string::npos) amp = url.size();
    const std::string_view param(url.data() + pos, amp - pos);
    const size_t eq = param.find('=');
    if (eq == std::string_view::npos || param.find('=', eq + 1) != std::string_view::npos) {
      // The secret may be in it: libpq refuses the URL, so it is shown masked whole.
      out.refused = "a parameter is not one KEY=VALUE";
      return out;
    }
    if (!valid_percent(param)) {
      out.refused = "a parameter holds a % that is not %XX";
      return out;
    }
    if (secret_keyword(percent_decode(param.substr(0, eq))))
      out.secrets.emplace_back(pos + eq + 1, amp);
    pos = amp + 1;
  }
  return out;
}

}  // namespace

bool is_postgres_url(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

Status check_url(const std::string& url) {
  const Parsed parsed = parse_url(url);
  if (parsed.refused.empty()) return ok_status();
  return Error{redact_url(url) + ": libpq cannot read this URL: " + parsed.refused};
}

bool has_password(const std::string& url) {
  if (!is_postgres_url(url)) return false;
  const Parsed parsed = parse_url(url);
  return !parsed.refused.empty() || !parsed.secrets.empty();
}

std::string display_location(const std::string& location) {
  return is_postgres_url(location) ? redact_url(location) : location;
}

std::string redact_url(const std::string& url) {
  const Parsed parsed = parse_url(url);
  if (!parsed.refused.empty()) {
    // What libpq cannot read may hold a secret anywhere: only the scheme is shown.
    const size_t scheme = url.find("://");
    return (scheme == std::string::npos ? std::string() : url.substr(0, scheme + 3)) +
           std::string(kMask);
  }
  std::string out;
  size_t pos = 0;
  for (const auto& [first, last] : parsed.secrets) {
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
  for (const auto& [first, last] : parse_url(url).secrets) {
    if (last <= first) continue;
    const std::string raw = url.substr(first, last - first);
    out.push_back(raw);
    const std::string decoded = percent_decode(raw);
    if (decoded != raw) out.push_back(decoded);
  }
  return out;
}

std::string redact_command_line(const std::string& command_line) {
  std::string out;
  size_t pos = 0;
  while (pos <= command_line.size()) {
    size_t space = command_line.find(' ', pos);
    if (space == std::string::npos) space = command_line.size();
    const std::string word = command_line.substr(pos, space - pos);
    const size_t url = std::min(word.find("postgresql://"), word.find("postgres://"));
    out += url == std::string::npos ? word : word.substr(0, url) + redact_url(word.substr(url));
    if (space == command_line.size()) break;
    out += ' ';
    pos = space + 1;
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
