// Tests for zero_i32 / zero_i16 and zero_cycles (kernels_ref/zero.hpp).
#include <npusim/kernels/zero.hpp>

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

// Fills m*n elements plus a guard region with random non-zero values, runs the kernel and checks
// that exactly the first m*n elements became zero.
template <typename T, typename Fn>
void check_zero(Fn kernel, std::int32_t m, std::int32_t n, std::uint32_t seed) {
    const std::size_t count = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    std::vector<T> buf(count + 48);
    for (auto& x : buf) {
        do x = static_cast<T>(dist(rng));
        while (x == 0);
    }
    buf[0] = std::numeric_limits<T>::min();
    buf[count - 1] = std::numeric_limits<T>::max();
    const std::vector<T> before = buf;
    kernel(buf.data(), m, n);
    for (std::size_t i = 0; i < count; ++i) REQUIRE(buf[i] == 0);
    for (std::size_t i = count; i < buf.size(); ++i) REQUIRE(buf[i] == before[i]);
}

} // namespace

TEST_CASE("zero_i32 / zero_i16 clear exactly m*n elements", "[kernels][zero]") {
    check_zero<std::int32_t>(zero_i32, 32, 32, 1); // E6 C tile
    check_zero<std::int32_t>(zero_i32, 64, 64, 2);
    check_zero<std::int32_t>(zero_i32, 1, 16, 3); // minimum: one 64-byte pair of stores
    check_zero<std::int32_t>(zero_i32, 4, 4, 4);
    check_zero<std::int16_t>(zero_i16, 64, 32, 5); // E7 C tile
    check_zero<std::int16_t>(zero_i16, 1, 32, 6); // minimum
    check_zero<std::int16_t>(zero_i16, 2, 16, 7);
}

TEST_CASE("zero preconditions throw std::invalid_argument", "[kernels][zero]") {
    std::vector<std::int32_t> c32(1024, 9);
    std::vector<std::int16_t> c16(1024, 9);
    REQUIRE_INVALID(zero_i32(c32.data(), 1, 8), "multiple of 16");
    REQUIRE_INVALID(zero_i32(c32.data(), 3, 5), "multiple of 16");
    REQUIRE_INVALID(zero_i16(c16.data(), 1, 16), "multiple of 32");
    REQUIRE_INVALID(zero_i32(c32.data(), 0, 16), "m must be > 0");
    REQUIRE_INVALID(zero_i32(c32.data(), 16, -1), "n must be > 0");
    REQUIRE_INVALID(zero_i16(nullptr, 32, 32), "'c' is null");
    for (auto x : c32) REQUIRE(x == 9);
    for (auto x : c16) REQUIRE(x == 9);
    REQUIRE_THROWS_WITH(zero_i16(c16.data(), 1, 1), Catch::Matchers::StartsWith("zero_i16: "));
}

TEST_CASE("zero_cycles: 32 bytes per cycle plus call overhead", "[kernels][zero][cost]") {
    REQUIRE(kZeroBytesPerCycle == 32);
    REQUIRE(zero_cycles(32, 32, 4) == 4096 / 32);
    REQUIRE(zero_cycles(64, 32, 2) == 4096 / 32);
    REQUIRE(zero_cycles(64, 64, 4) == 512);
    REQUIRE(zero_cycles(0, 0, 4) == 0);
    REQUIRE_INVALID(zero_cycles(4, 4, 8), "elem_bytes");
    REQUIRE_INVALID(zero_cycles(-4, 4, 4), ">= 0");
}
