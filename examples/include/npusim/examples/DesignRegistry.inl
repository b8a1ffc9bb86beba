#pragma once
#include <cstring>

namespace npusim::examples {

template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

} // namespace npusim::examples
