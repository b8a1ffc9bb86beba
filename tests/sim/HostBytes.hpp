#pragma once
// Host-tensor byte conversions shared by the simulation tests.
#include <cstdint>
#include <cstring>
#include <vector>

namespace npusim::test {

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

} // namespace npusim::test
