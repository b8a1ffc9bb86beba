// Tests for passThroughLine_{u8,i16,i32} and passThroughLine_cycles (kernels_ref/passthrough.hpp).
#include <npusim/kernels/passthrough.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

#define REQUIRE_INVALID(expr, text)                                                                                    \
    do {                                                                                                               \
        REQUIRE_THROWS_AS(expr, std::invalid_argument);                                                                \
        REQUIRE_THROWS_WITH(expr, Catch::Matchers::Contains(text));                                                    \
    } while (0)

template <typename T>
std::vector<T> random_with_edges(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(dist(rng));
    // edge values at the start, middle and end
    const T edges[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1), static_cast<T>(-1)};
    for (std::size_t i = 0; i < std::size(edges) && i < n; ++i) {
        v[i] = edges[i];
        v[n - 1 - i] = edges[i];
        v[n / 2 + i < n ? n / 2 + i : 0] = edges[i];
    }
    return v;
}

// Runs the kernel into a buffer with guard elements after n and checks out == in element by
// element and that the guard is untouched.
template <typename T, typename Fn>
void check_copy(Fn kernel, std::int32_t n, std::uint32_t seed) {
    const std::vector<T> in = random_with_edges<T>(static_cast<std::size_t>(n), seed);
    const T guard = static_cast<T>(0x5A);
    std::vector<T> out(static_cast<std::size_t>(n) + 64, guard);
    kernel(in.data(), out.data(), n);
    for (std::int32_t i = 0; i < n; ++i) REQUIRE(out[static_cast<std::size_t>(i)] == in[static_cast<std::size_t>(i)]);
    for (std::size_t i = static_cast<std::size_t>(n); i < out.size(); ++i) REQUIRE(out[i] == guard);
}

} // namespace

TEST_CASE("passThroughLine copies n elements exactly (u8, i16, i32)", "[kernels][passthrough]") {
    SECTION("u8: minimum size 384, E1 tile 1024, 4096") {
        for (std::int32_t n : {384, 448, 1024, 4096})
            check_copy<std::uint8_t>(passThroughLine_u8, n, 11u + static_cast<std::uint32_t>(n));
    }
    SECTION("i16: minimum size 192, 1024") {
        for (std::int32_t n : {192, 224, 1024})
            check_copy<std::int16_t>(passThroughLine_i16, n, 21u + static_cast<std::uint32_t>(n));
    }
    SECTION("i32: minimum size 96, E11 tile 1024") {
        for (std::int32_t n : {96, 112, 1024})
            check_copy<std::int32_t>(passThroughLine_i32, n, 31u + static_cast<std::uint32_t>(n));
    }
}

TEST_CASE("passThroughLine E1 golden: out == arange(uint8)", "[kernels][passthrough]") {
    std::vector<std::uint8_t> in(1024), out(1024, 0);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i); // np.arange(...).astype(uint8)
    passThroughLine_u8(in.data(), out.data(), 1024);
    REQUIRE(out == in);
}

TEST_CASE("passThroughLine preconditions throw std::invalid_argument", "[kernels][passthrough]") {
    std::vector<std::uint8_t> a8(4096, 1), b8(4096, 2);
    std::vector<std::int16_t> a16(4096, 1), b16(4096, 2);
    std::vector<std::int32_t> a32(4096, 1), b32(4096, 2);

    REQUIRE_INVALID(passThroughLine_u8(a8.data(), b8.data(), 100), "multiple of 64");
    REQUIRE_INVALID(passThroughLine_i16(a16.data(), b16.data(), 1000), "multiple of 32");
    REQUIRE_INVALID(passThroughLine_i32(a32.data(), b32.data(), 1000), "multiple of 16");
    // whole 64-byte blocks but fewer than the 6 the kernel loop is compiled for
    REQUIRE_INVALID(passThroughLine_u8(a8.data(), b8.data(), 320), ">= 384");
    REQUIRE_INVALID(passThroughLine_i16(a16.data(), b16.data(), 32), ">= 192");
    REQUIRE_INVALID(passThroughLine_i32(a32.data(), b32.data(), 16), ">= 96");
    REQUIRE_INVALID(passThroughLine_i32(a32.data(), b32.data(), 0), ">= 96");
    REQUIRE_INVALID(passThroughLine_i32(a32.data(), b32.data(), -16), ">= 0");
    REQUIRE_INVALID(passThroughLine_u8(nullptr, b8.data(), 1024), "'in' is null");
    REQUIRE_INVALID(passThroughLine_u8(a8.data(), nullptr, 1024), "'out' is null");
    // a rejected call writes nothing
    for (auto x : b8) REQUIRE(x == 2);
    for (auto x : b16) REQUIRE(x == 2);
    for (auto x : b32) REQUIRE(x == 2);
    // the message names the kernel
    REQUIRE_THROWS_WITH(passThroughLine_i16(a16.data(), b16.data(), 31),
                        Catch::Matchers::StartsWith("passThroughLine_i16: "));
}

TEST_CASE("passThroughLine_cycles: 32 bytes per cycle plus call overhead", "[kernels][passthrough][cost]") {
    REQUIRE(kPassThroughBytesPerCycle == 32);
    REQUIRE(passThroughLine_cycles(1024, 1) == 32);
    REQUIRE(passThroughLine_cycles(1024, 2) == 64);
    REQUIRE(passThroughLine_cycles(1024, 4) == 128);
    REQUIRE(passThroughLine_cycles(0, 4) == 0);
    REQUIRE(passThroughLine_cycles(33, 1) == 2); // partial store rounds up
    REQUIRE(passThroughLine_cycles(4096, 1) > passThroughLine_cycles(1024, 1));
    REQUIRE_INVALID(passThroughLine_cycles(1024, 3), "elem_bytes");
    REQUIRE_INVALID(passThroughLine_cycles(-1, 1), ">= 0");
}
