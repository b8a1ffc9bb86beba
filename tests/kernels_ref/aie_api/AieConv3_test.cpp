// The AIE-API 3x3 convolution build (kernels_ref/aie/conv2dk3.cc) against the plain reference
// (kernels_ref/conv2dk3.hpp), bit for bit: every row position (top, middle, bottom), a channel
// offset into a shared weights buffer, scales from none to 12, on full-range data (sums that
// saturate at both ends and shifted sums that tie).
#include <npusim/aie_kernels.hpp>
#include <aie_api/aie.hpp>
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

TEST_CASE("aie conv2dk3_dw_stride1/2_relu_ui8_ui8 equal the reference conv2dk3_dw_stride1/2_u8",
          "[aie_kernels][conv2d]") {
    std::mt19937 rng(36);
    for (const int w : {32, 14, 7})
        for (const int stride : {1, 2}) {
            if (stride == 2 && w % 2 != 0) continue;
            for (const int check : {0, 1, 2})
                for (const int scale : {1, 3, 8}) {
                    const int c = 24;
                    std::vector<std::uint8_t> l0(w * c), l1(w * c), l2(w * c);
                    for (auto* l : {&l0, &l1, &l2})
                        for (auto& v : *l) v = static_cast<std::uint8_t>(rng() & (scale == 1 ? 0x03 : 0xff));
                    std::vector<std::int8_t> wt(9 * c);
                    for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
                    std::vector<std::uint8_t> want(w / stride * c, 0x11), got(want.size(), 0x55);
                    (stride == 1 ? npusim::kernels::conv2dk3_dw_stride1_u8 : npusim::kernels::conv2dk3_dw_stride2_u8)(
                        l0.data(), l1.data(), l2.data(), wt.data(), want.data(), w, c, c, 3, 3, check, scale, 0);
                    (stride == 1 ? npusim::aie_kernels::conv2dk3_dw_stride1_relu_ui8_ui8
                                 : npusim::aie_kernels::conv2dk3_dw_stride2_relu_ui8_ui8)(
                        l0.data(), l1.data(), l2.data(), wt.data(), got.data(), w, c, c, 3, 3, check, scale, 0);
                    INFO("w " << w << " stride " << stride << " check " << check << " scale " << scale);
                    CHECK(got == want);
                }
        }
}

TEST_CASE("aie conv2dk3_stride2_i8 equals the reference conv2dk3_stride2_even", "[aie_kernels][conv2d]") {
    std::mt19937 rng(38);
    for (const int w : {32, 8})
        for (const int check : {0, 1, 2})
            for (const int scale : {1, 5, 11}) {
                const int ci = 16, co = 8, wco = 16;
                std::vector<std::int8_t> l0(w * ci), l1(w * ci), l2(w * ci), wt(9 * ci * wco);
                for (auto* l : {&l0, &l1, &l2})
                    for (auto& v : *l)
                        v = static_cast<std::int8_t>(scale == 1 ? static_cast<int>(rng() % 5) - 2
                                                                : static_cast<int>(rng() & 0xff) - 128);
                for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
                for (const int offset : {0, 8}) {
                    std::vector<std::uint8_t> want(w / 2 * co, 0x11), got(want.size(), 0x55);
                    npusim::kernels::conv2dk3_stride2_even(l0.data(), l1.data(), l2.data(), wt.data(), want.data(), w,
                                                           ci, co, 3, 3, check, scale, offset);
                    npusim::aie_kernels::conv2dk3_stride2_i8(l0.data(), l1.data(), l2.data(), wt.data(), got.data(), w,
                                                             ci, co, 3, 3, check, scale, offset);
                    INFO("w " << w << " check " << check << " scale " << scale << " offset " << offset);
                    CHECK(got == want);
                }
            }
}

TEST_CASE("aie conv2dk3_dw_out_split_ui8 equals the reference conv2dk3_dw_out_split_u8", "[aie_kernels][conv2d]") {
    std::mt19937 rng(38);
    for (const int w : {7, 2, 32})
        for (const int c : {16, 40})
            for (const int check : {0, 1, 2})
                for (const int scale : {1, 3, 8}) {
                    std::vector<std::uint8_t> l0(w * c), l1(w * c), l2(w * c);
                    for (auto* l : {&l0, &l1, &l2})
                        for (auto& v : *l) v = static_cast<std::uint8_t>(rng() & (scale == 1 ? 0x03 : 0xff));
                    std::vector<std::int8_t> wt(9 * c);
                    for (auto& v : wt) v = static_cast<std::int8_t>(rng() & 0xff);
                    std::vector<std::uint8_t> want1(w * c, 0x11), want2(w * c, 0x22), got1(want1), got2(want2);
                    npusim::kernels::conv2dk3_dw_out_split_u8(l0.data(), l1.data(), l2.data(), wt.data(), want1.data(),
                                                              want2.data(), w, 1, c, 3, 3, check, scale, 0);
                    npusim::aie_kernels::conv2dk3_dw_out_split_ui8(l0.data(), l1.data(), l2.data(), wt.data(),
                                                                   got1.data(), got2.data(), w, 1, c, 3, 3, check,
                                                                   scale, 0);
                    INFO("w " << w << " c " << c << " check " << check << " scale " << scale);
                    CHECK(got1 == want1);
                    CHECK(got2 == want2);
                }
}

TEST_CASE("aie conv2dk3_dw_out_split_ui8 leaves the core's rounding and saturation modes as it found them",
          "[aie_kernels][conv2d]") {
    std::vector<std::uint8_t> l(7 * 16, 3), o1(7 * 8), o2(7 * 8);
    std::vector<std::int8_t> wt(9 * 16, 1);
    aie::set_rounding(aie::rounding_mode::floor);
    aie::set_saturation(aie::saturation_mode::none);
    npusim::aie_kernels::conv2dk3_dw_out_split_ui8(l.data(), l.data(), l.data(), wt.data(), o1.data(), o2.data(), 7, 1,
                                                   16, 3, 3, 1, 1, 0);
    CHECK(aie::get_rounding() == aie::rounding_mode::floor);
    CHECK(aie::get_saturation() == aie::saturation_mode::none);
    CHECK(o1[8] == 14); // pixel 1: 9 taps of 3 * 1 = 27, / 2 to even (its own mode, not floor's 13)
}
