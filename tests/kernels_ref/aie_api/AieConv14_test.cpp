// The AIE-API 14x14 convolution build (kernels_ref/aie/conv2dk14.cc) against the plain reference
// (kernels_ref/conv2dk14.hpp), bit for bit: IRON's default 224-pixel row (two tile groups, shared
// weights), an odd number of tile groups, scales from none to 14, data that saturates both ways and
// small data whose shifted sums tie.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/conv2dk14.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

TEST_CASE("aie conv2dk14_i8 equals the reference conv2dk14_i8", "[aie_kernels][conv2d]") {
    std::mt19937 rng(43);
    struct C {
        int kw, tiles, co;
        unsigned mask;
    };
    for (const C c : {C{14, 16, 16, 0xff}, C{14, 24, 8, 0x03}, C{2, 8, 16, 0x01}})
        for (const int scale : {0, 1, 3, 14}) {
            const int px = c.kw * c.kw;
            std::vector<std::uint8_t> in(static_cast<std::size_t>(c.tiles * px * 4));
            std::vector<std::int8_t> wt(static_cast<std::size_t>(c.co * px * 4));
            for (auto& v : in) v = static_cast<std::uint8_t>(rng() & c.mask);
            for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
            std::vector<std::int8_t> want(static_cast<std::size_t>(c.tiles * c.co), 0x11), got(want.size(), 0x55);
            npusim::kernels::conv2dk14_i8(in.data(), wt.data(), want.data(), c.tiles * c.kw, 4, c.co, c.kw, scale);
            npusim::aie_kernels::conv2dk14_i8(in.data(), wt.data(), got.data(), c.tiles * c.kw, 4, c.co, c.kw, scale);
            INFO("kw " << c.kw << " tiles " << c.tiles << " co " << c.co << " scale " << scale);
            CHECK(got == want);
        }
}
