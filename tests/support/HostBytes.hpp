#pragma once
// Host tensors as bytes and back: what sim::simulate takes and returns, from and to typed values.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace npusim::test {

/// The bytes of `v` (its object representation, in order).
template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

/// The bytes of a string (a file's content, say).
inline std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

/// `b` read as values of T (a trailing partial value is dropped).
template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

} // namespace npusim::test
