#pragma once
// What the AIE-API tests share: random integers with the type's edge values, the core modes
// scrambled, the kernels' clamp and shift, and a bfloat16 bit pattern read as a float.
#include <aie_api/aie.hpp> // only for scrambling the core modes

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace npusim::test::aie_test_data {

// Kernels that depend on a mode set it themselves; scrambling the modes first proves it.
inline void scramble_modes() {
    npusim::aie_api::set_core_modes({aie::rounding_mode::conv_odd, aie::saturation_mode::symmetric});
}

template <typename T>
inline std::vector<T> random_ints(std::size_t n, std::mt19937& rng, bool with_edges = true) {
    std::vector<T> v(n);
    std::uniform_int_distribution<std::int64_t> d(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    for (auto& x : v) x = static_cast<T>(d(rng));
    if (with_edges && n >= 4) {
        v[0] = std::numeric_limits<T>::min();
        v[1] = std::numeric_limits<T>::max();
        v[2] = 0;
        v[n - 1] = std::numeric_limits<T>::min();
    }
    return v;
}

inline std::uint8_t clamp_u8(std::int64_t v) { return static_cast<std::uint8_t>(std::clamp<std::int64_t>(v, 0, 255)); }

// floor(v / 2^s) (the C++20 >> of a negative value is an arithmetic shift)
inline std::int64_t shr(std::int64_t v, int s) { return v >> s; }

// The float a bfloat16 bit pattern stands for.
inline float bf_bits(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

} // namespace npusim::test::aie_test_data
