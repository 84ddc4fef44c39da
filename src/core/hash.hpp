// FNV-1a 64 over a length-prefixed encoding of values: the store's row checksums
// (store/checksum.hpp) and the stable ids of history (analysis/detection.hpp). Stable across
// machines, compilers and versions, unlike std::hash; not for anything an attacker chooses to
// collide.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace benchguard {

class Fnv1a {
 public:
  // `tag` separates the encodings of different things.
  explicit Fnv1a(std::string_view tag) { str(tag); }

  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      h_ ^= c[i];
      h_ *= 1099511628211ULL;
    }
  }
  // Little-endian, whatever the machine.
  void i64(int64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * i));
    bytes(b, sizeof b);
  }
  // Every NaN alike (SQLite stores NaN as NULL), -0.0 as 0.0 (it reads back so).
  void f64(double v) {
    uint64_t bits = 0;
    if (std::isnan(v)) {
      bits = 0x7ff8000000000000ULL;
    } else {
      if (v == 0) v = 0;
      std::memcpy(&bits, &v, sizeof bits);
    }
    i64(static_cast<int64_t>(bits));
  }
  void str(std::string_view s) {
    i64(static_cast<int64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  int64_t value() const { return static_cast<int64_t>(h_); }

 private:
  uint64_t h_ = 14695981039346656037ULL;
};

}  // namespace benchguard
