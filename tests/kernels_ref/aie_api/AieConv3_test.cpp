// The AIE-API 3x3 convolution build (kernels_ref/aie/conv2dk3.cc) against the plain reference
// (kernels_ref/conv2dk3.hpp), bit for bit: every row position (top, middle, bottom), a channel
// offset into a shared weights buffer, scales from none to 12, on full-range data (sums that
// saturate at both ends and shifted sums that tie).
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/conv2dk3.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

TEST_CASE("aie conv2dk3_ui8 equals the reference conv2dk3_u8", "[aie_kernels][conv2d]") {
    std::mt19937 rng(33);
    struct C {
        int width, ci, co, co_total, offset;
        unsigned in_mask;
    };
    for (const C c :
         {C{32, 32, 16, 32, 16, 0xff}, C{32, 64, 32, 64, 0, 0x0f}, C{8, 8, 8, 8, 0, 0x03}, C{12, 16, 8, 24, 16, 0xff}})
        for (const int check : {0, 1, 2})
            for (const int scale : {0, 1, 4, 11, 12}) {
                std::vector<std::uint8_t> l0(c.width * c.ci), l1(c.width * c.ci), l2(c.width * c.ci);
                for (auto* l : {&l0, &l1, &l2})
                    for (auto& v : *l) v = static_cast<std::uint8_t>(rng() & c.in_mask);
                std::vector<std::int8_t> w(static_cast<std::size_t>(9 * c.ci * c.co_total));
                for (auto& v : w) v = static_cast<std::int8_t>(rng() & 0xff);
                std::vector<std::uint8_t> want(c.width * c.co, 0x11), got(c.width * c.co, 0x55);
                npusim::kernels::conv2dk3_u8(l0.data(), l1.data(), l2.data(), w.data(), want.data(), c.width, c.ci,
                                             c.co, 3, 3, check, scale, c.offset);
                npusim::aie_kernels::conv2dk3_ui8(l0.data(), l1.data(), l2.data(), w.data(), got.data(), c.width, c.ci,
                                                  c.co, 3, 3, check, scale, c.offset);
                INFO("w" << c.width << " ci" << c.ci << " co" << c.co << " offset " << c.offset << " check " << check
                         << " scale " << scale);
                CHECK(got == want);
            }
}
