#pragma once
#include <cstring>
#include <fmt/format.h>

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

template <class T>
OutputCheck compare_exact(const std::string& name, const std::vector<std::uint8_t>& got_bytes, const std::vector<T>& want) {
    OutputCheck c;
    c.name = name;
    c.elements = want.size();
    const auto got = from_bytes<T>(got_bytes);
    if (got.size() != want.size()) {
        c.mismatches = want.size();
        c.first_mismatches = fmt::format("size {} elements, expected {}", got.size(), want.size());
        return c;
    }
    if (want.empty() || std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0) {
        c.match = true;
        return c;
    }
    int shown = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            if (shown++ < 5)
                c.first_mismatches += fmt::format("{}[{}] got {} want {}", c.first_mismatches.empty() ? "" : "; ", i,
                                                  +static_cast<std::conditional_t<sizeof(T) == 1, int, T>>(got[i]),
                                                  +static_cast<std::conditional_t<sizeof(T) == 1, int, T>>(want[i]));
            ++c.mismatches;
        }
    }
    c.match = c.mismatches == 0;
    return c;
}

} // namespace npusim::examples
