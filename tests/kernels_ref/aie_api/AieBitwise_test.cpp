// The AIE-API bitwiseORLine / bitwiseANDLine (kernels_ref/aie/bitwise.cc) against per-bit truth tables.
#include <npusim/aie_kernels.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

TEST_CASE("aie bitwiseORLine / bitwiseANDLine: per-byte OR and AND, 64 lanes a step", "[aie_kernels][bitwise]") {
    std::mt19937 rng(12);
    for (int n : {64, 1920, 7680}) {
        std::vector<std::uint8_t> a(static_cast<std::size_t>(n)), b(a.size()), o(a.size() + 64, 0x5a),
            d(a.size() + 64, 0x5a);
        for (auto& x : a) x = static_cast<std::uint8_t>(rng());
        for (auto& x : b) x = static_cast<std::uint8_t>(rng());
        a[0] = 0xff;
        b[0] = 0x00;
        npusim::aie_kernels::bitwiseORLine(a.data(), b.data(), o.data(), n);
        npusim::aie_kernels::bitwiseANDLine(a.data(), b.data(), d.data(), n);
        for (std::size_t i = 0; i < a.size(); ++i)
            for (int bit = 0; bit < 8; ++bit) {
                const bool x = (a[i] >> bit) & 1, y = (b[i] >> bit) & 1;
                REQUIRE(((o[i] >> bit) & 1) == (x || y ? 1 : 0));
                REQUIRE(((d[i] >> bit) & 1) == (x && y ? 1 : 0));
            }
        CHECK(o[a.size()] == 0x5a); // nothing written past n
        CHECK(d[a.size()] == 0x5a);
    }
}
