// Errors are values: Result<T> holds either a T or an Error carrying the exit code
// the CLI should return and a one-line message (with file:line where input is at fault).
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace benchguard {

// Exit codes shared by every command (README.md, "Exit codes").
enum class ExitCode : int {
  kOk = 0,
  kRegression = 1,        // gate / compare --fail-on found what it was asked to fail on
  kInput = 2,             // usage, malformed input, unusable database
  kBenchmarkFailure = 3,  // benchmarks failed while measuring
};

struct Error {
  std::string message;  // one line, says what is wrong and, where it can, what to do
  ExitCode code = ExitCode::kInput;

  // "file:line: message" when the error is tied to a position in an input file.
  static Error at(const std::string& file, int line, const std::string& msg) {
    if (line > 0) return Error{file + ":" + std::to_string(line) + ": " + msg};
    return Error{file + ": " + msg};
  }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error e) : v_(std::move(e)) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Result<void>: success or an Error.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace benchguard

// Propagate an error from an expression returning Result<...>/Status.
#define BG_TRY(expr)                               \
  do {                                             \
    auto bg_try_r_ = (expr);                       \
    if (!bg_try_r_.ok()) return bg_try_r_.error(); \
  } while (0)

#define BG_CONCAT_INNER(a, b) a##b
#define BG_CONCAT(a, b) BG_CONCAT_INNER(a, b)
// auto x = BG_ASSIGN_OR_RETURN-style helper: BG_ASSIGN(auto x, expr);
#define BG_ASSIGN(decl, expr)                                        \
  auto BG_CONCAT(bg_assign_r_, __LINE__) = (expr);                   \
  if (!BG_CONCAT(bg_assign_r_, __LINE__).ok())                       \
    return BG_CONCAT(bg_assign_r_, __LINE__).error();                \
  decl = std::move(BG_CONCAT(bg_assign_r_, __LINE__)).value()  // NOLINT(bugprone-macro-parentheses)
