// Names come from suites, the command line, other tools' files and benchmarks' own output,
// and go out into terminals, Markdown, CSV and HTML. One rule for every door: a name is
// valid UTF-8, not empty, at most kMaxNameBytes long, and holds no control character (C0,
// DEL, C1) and no bidirectional override, so no name can move a terminal's cursor, split a
// table row or reorder what a reviewer reads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/result.hpp"

namespace benchguard {

inline constexpr std::size_t kMaxNameBytes = 4096;

// The code point starting at s[i], advancing i past it; nullopt (advancing by one byte) when
// the bytes there are not UTF-8: a stray continuation byte, an overlong form, a surrogate,
// a value above U+10FFFF or a sequence cut short.
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i);

// C0 controls, DEL and C1 controls: what a terminal may act on.
bool is_control(char32_t cp);

// What is wrong with `name` as a name, "" when nothing is.
std::string name_problem(std::string_view name);

// An Error "<what> "<name>" <problem>" (the name shown with escape_name) when the name is
// not valid.
Status check_name(std::string_view what, std::string_view name);

// Text as a one-line message can show it: control characters (newlines and tabs too),
// bidirectional controls and bytes that are not UTF-8 as \xNN or \u{NNNN}.
std::string escape_text(std::string_view text);
// The same for a name inside a message, cut with "..." after 200 bytes.
std::string escape_name(std::string_view name);

// Bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069).
bool is_bidi_control(char32_t cp);

// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
// swaps of neighbours), when it is close enough to be a typo of it: at most a third of the
// longer one's length, at least one edit allowed. "" when none is. For "did you mean ...?".
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

// Every name a run holds: benchmarks, variants, parameter keys and values, metric names in
// its iterations, labels (keys and values). The first problem, naming where it is.
Status check_run_names(const RunData& data);

}  // namespace benchguard
