#include "core/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace benchguard {

namespace {

std::string escaped(std::string_view text, std::size_t limit) {
  std::string out;
  out.reserve(std::min(text.size(), limit));
  std::size_t i = 0;
  while (i < text.size() && i < limit) {
    const std::size_t at = i;
    const auto cp = next_code_point(text, i);
    if (!cp)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[at]));
    else if (*cp < 0x80 && is_control(*cp))
      out += fmt::format("\\x{:02x}", static_cast<uint32_t>(*cp));
    else if (is_control(*cp) || is_bidi_control(*cp))
      out += fmt::format("\\u{{{:04x}}}", static_cast<uint32_t>(*cp));
    else
      out.append(text.substr(at, i - at));
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace

bool is_bidi_control(char32_t cp) {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) {
    ++i;
    return c;
  }
  std::size_t extra = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((c & 0xe0) == 0xc0) {
    extra = 1, cp = c & 0x1f, min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    extra = 2, cp = c & 0x0f, min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    extra = 3, cp = c & 0x07, min = 0x10000;
  } else {
    ++i;
    return std::nullopt;
  }
  if (i + extra >= s.size()) {  // cut short
    ++i;
    return std::nullopt;
  }
  for (std::size_t k = 1; k <= extra; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) {
      ++i;
      return std::nullopt;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    ++i;
    return std::nullopt;
  }
  i += extra + 1;
  return cp;
}

bool is_control(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

std::string name_problem(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.size() > kMaxNameBytes)
    return fmt::format("is {} bytes long, above the limit of {}", name.size(), kMaxNameBytes);
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t at = i;
    const auto cp = next_code_point(name, i);
    if (!cp)
      return fmt::format("is not UTF-8 (byte 0x{:02x} at offset {})",
                         static_cast<unsigned char>(name[at]), at);
    if (is_control(*cp))
      return fmt::format("contains the control character U+{:04X} at offset {}",
                         static_cast<uint32_t>(*cp), at);
    if (is_bidi_control(*cp))
      return fmt::format("contains the bidirectional control U+{:04X} at offset {}",
                         static_cast<uint32_t>(*cp), at);
  }
  return "";
}

Status check_name(std::string_view what, std::string_view name) {
  std::string why = name_problem(name);
  if (why.empty()) return ok_status();
  if (name.empty()) return Error{fmt::format("{} {}", what, why)};
  return Error{fmt::format("{} \"{}\" {}", what, escape_name(name), why)};
}

std::string escape_text(std::string_view text) {
  return escaped(text, text.size());
}

std::string escape_name(std::string_view name) {
  return escaped(name, 200);  // enough to recognise a name, short enough for one line
}

Status check_run_names(const RunData& data) {
  for (const auto& [key, value] : data.run.labels) {
    BG_TRY(check_name("label", key));
    if (!value.empty()) BG_TRY(check_name(fmt::format("label '{}' value", key), value));
  }
  for (const auto& v : data.variants) {
    const VariantRecord& r = v.variant;
    BG_TRY(check_name("benchmark name", r.benchmark));
    const std::string where = fmt::format("benchmark '{}'", escape_name(r.benchmark));
    BG_TRY(check_name(where + ": variant name", r.name));
    for (const auto& [key, value] : r.params) {
      BG_TRY(check_name(where + ": parameter", key));
      if (!value.empty())
        BG_TRY(check_name(fmt::format("{}: parameter '{}' value", where, key), value));
    }
    // Metric names repeat in every iteration: check each distinct one once.
    std::vector<const std::string*> seen;
    for (const auto& inst : v.instances)
      for (const auto& it : inst.iterations)
        for (const auto& [metric, value] : it.metrics) {
          bool known = false;
          for (const auto* s : seen) known = known || *s == metric;
          if (known) continue;
          BG_TRY(check_name(where + ": metric name", metric));
          seen.push_back(&metric);
        }
  }
  return ok_status();
}

namespace {

// Optimal string alignment distance.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    if (word.size() > 256 || c.size() > 256) continue;
    const std::size_t d = edit_distance(word, c);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(word.size(), c.size()) / 3);
    if (d <= allowed && d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace benchguard
