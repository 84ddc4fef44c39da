#include "measure/protocol.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/json_error.hpp"
#include "core/names.hpp"

namespace benchguard::measure {
namespace {

using Json = nlohmann::ordered_json;  // keeps metrics in the order the benchmark wrote them

constexpr const char* kKnownFields =
    "iteration, start_ns, end_ns, burn_in, metrics, timed_out, failure";

// The parser's message without its "[json.exception...] parse error at line 1, " prefix.
std::string json_reason(const std::string& what) {
  const size_t at = what.find("column");
  return at == std::string::npos ? what : what.substr(at);
}

Result<int64_t> get_int(const Json& v, const char* name) {
  if (!v.is_number_integer()) return Error{std::string("'") + name + "' must be an integer"};
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    return Error{std::string("'") + name + "' is out of range"};
  return v.get<int64_t>();
}

// Fills `rec` from one parsed line; a message (without position) on failure.
Status read_record(const Json& j, int position, IterationRecord& rec) {
  if (!j.is_object()) return Error{"expected a JSON object per line"};
  rec.index = position;
  bool has_start = false;
  bool has_end = false;
  for (const auto& [key, v] : j.items()) {
    if (key == "iteration") {
      BG_ASSIGN(const int64_t i, get_int(v, "iteration"));
      if (i < 0 || i > INT32_MAX) return Error{"'iteration' must be a non-negative integer"};
      rec.index = static_cast<int>(i);
    } else if (key == "start_ns") {
      BG_ASSIGN(rec.start_ns, get_int(v, "start_ns"));
      has_start = true;
    } else if (key == "end_ns") {
      BG_ASSIGN(rec.end_ns, get_int(v, "end_ns"));
      has_end = true;
    } else if (key == "burn_in" || key == "timed_out") {
      if (!v.is_boolean()) return Error{"'" + key + "' must be true or false"};
      (key == "burn_in" ? rec.burn_in : rec.timed_out) = v.get<bool>();
    } else if (key == "failure") {
      if (!v.is_string()) return Error{"'failure' must be a string"};
      rec.failure = v.get<std::string>();
    } else if (key == "metrics") {
      if (!v.is_object()) return Error{"'metrics' must be an object of numbers"};
      for (const auto& [name, value] : v.items()) {
        BG_TRY(check_name("metric name", name));
        if (!value.is_number()) return Error{"metric '" + name + "' must be a number"};
        const auto x = value.get<double>();
        const MetricInfo* known = find_builtin_metric(name);
        std::string why = metric_value_problem(name, known != nullptr ? known->unit : "", x);
        if (!why.empty()) return Error{why};
        rec.metrics.emplace_back(name, x);
      }
    } else {
      // Rejected rather than skipped: a misspelt "burn_in" would silently change results.
      return Error{"unknown field '" + key + "' (known: " + kKnownFields + ")"};
    }
  }
  if (has_start != has_end) return Error{"'start_ns' and 'end_ns' come together"};
  if (has_start && rec.end_ns < rec.start_ns) return Error{"'end_ns' is before 'start_ns'"};
  if (!rec.metric("wall_time").has_value()) {
    if (!has_start) return Error{"needs 'start_ns' and 'end_ns', or a 'wall_time' metric"};
    // end_ns >= start_ns, yet the difference may exceed int64 (a negative start_ns): in
    // uint64 it is exact.
    const uint64_t ns = static_cast<uint64_t>(rec.end_ns) - static_cast<uint64_t>(rec.start_ns);
    rec.metrics.insert(rec.metrics.begin(), {"wall_time", static_cast<double>(ns) * 1e-9});
  }
  return ok_status();
}

// A declaration line: {"metric": NAME, "unit": UNIT, "better": "lower"|"higher"}. Adds it to
// `declared` unless the same is there; a message (without position) on failure.
Status read_declaration(const Json& j, std::vector<MetricInfo>& declared) {
  MetricInfo m;
  bool has_better = false;
  for (const auto& [key, v] : j.items()) {
    if (key == "metric") {
      if (!v.is_string()) return Error{"'metric' must be the metric's name"};
      m.name = v.get<std::string>();
      BG_TRY(check_name("metric name", m.name));
    } else if (key == "unit") {
      if (!v.is_string()) return Error{"'unit' must be a string (\"s\", \"B\", ...)"};
      m.unit = v.get<std::string>();
      if (m.unit.size() > 32) return Error{"'unit' is longer than 32 bytes"};
      for (const char c : m.unit)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          return Error{"'unit' holds a control character"};
    } else if (key == "better") {
      const std::string b = v.is_string() ? v.get<std::string>() : "";
      if (b != "lower" && b != "higher") return Error{"'better' must be \"lower\" or \"higher\""};
      m.direction = b == "higher" ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
      has_better = true;
    } else {
      return Error{"unknown field '" + key +
                   "' in a metric declaration (known: metric, unit, better)"};
    }
  }
  const auto direction_text = [](Direction d) {
    return d == Direction::kHigherIsBetter ? "higher" : "lower";
  };
  if (const MetricInfo* known = find_builtin_metric(m.name)) {
    if (known->unit != m.unit || (has_better && known->direction != m.direction))
      return Error{fmt::format(
          "'{}' is built in, with unit \"{}\" and {} is better: declare it so or not at all",
          m.name, known->unit, direction_text(known->direction))};
    return ok_status();
  }
  for (const auto& d : declared) {
    if (d.name != m.name) continue;
    if (d.unit != m.unit || d.direction != m.direction)
      return Error{fmt::format(
          "metric '{}' declared again differently (unit \"{}\", {} is better; before: \"{}\", "
          "{} is better)",
          m.name, m.unit, direction_text(m.direction), d.unit, direction_text(d.direction))};
    return ok_status();
  }
  declared.push_back(std::move(m));
  return ok_status();
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

Result<std::vector<IterationRecord>> parse_protocol(std::string_view text,
                                                    const std::string& source,
                                                    std::vector<MetricInfo>* declared) {
  std::vector<IterationRecord> records;
  std::vector<MetricInfo> declarations;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line_no;
    const size_t nl = text.find('\n', pos);
    const bool last_unterminated = nl == std::string_view::npos;
    std::string_view line = text.substr(pos, last_unterminated ? std::string_view::npos : nl - pos);
    pos = last_unterminated ? text.size() : nl + 1;
    if (blank(line)) continue;
    if (line.back() == '\r') line.remove_suffix(1);

    Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      // A benchmark killed mid-write leaves a final line without its newline: drop it.
      if (last_unterminated) break;
      std::string reason = "not valid JSON";
      try {
        const Json again = Json::parse(line);
      } catch (const Json::parse_error& e) {
        reason = "invalid JSON at " + json_reason(e.what());
      } catch (const Json::exception& e) {  // a number beyond the range of a double
        reason = "invalid JSON: " + json_error(e, line).reason;
      }
      return Error::at(source, line_no, reason);
    }
    if (j.is_object() && j.contains("metric")) {
      if (auto st = read_declaration(j, declarations); !st.ok())
        return Error::at(source, line_no, st.error().message);
      continue;
    }
    IterationRecord rec;
    if (auto st = read_record(j, static_cast<int>(records.size()), rec); !st.ok())
      return Error::at(source, line_no, st.error().message);
    records.push_back(std::move(rec));
  }
  // A value the declared unit rules out (a negative size) is as wrong as one of a built-in.
  for (const auto& d : declarations)
    for (const auto& r : records)
      if (const auto v = r.metric(d.name))
        if (auto why = metric_value_problem(d.name, d.unit, *v); !why.empty())
          return Error{fmt::format("{}: iteration {}: {}", source, r.index, why)};
  if (declared != nullptr) *declared = std::move(declarations);
  return records;
}

Result<std::vector<IterationRecord>> read_protocol_file(const std::string& path,
                                                        std::vector<MetricInfo>* declared) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::vector<IterationRecord>{};
    return Error{"cannot read '" + path + "': " + std::strerror(errno)};
  }
  std::string text;
  char buf[65536];
  ssize_t n = 0;
  while ((n = read(fd, buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return Error{"cannot read '" + path + "': " + std::strerror(err)};
    }
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > kMaxProtocolBytes) {
      close(fd);
      return Error{fmt::format("{}: larger than the limit of {} MiB for iteration records", path,
                               kMaxProtocolBytes >> 20)};
    }
  }
  close(fd);
  return parse_protocol(text, path, declared);
}

}  // namespace benchguard::measure
