// The AIE-API matvec and conv2dk1 builds (kernels_ref/aie/mv.cc, conv2dk1_i8.cc) against the plain
// references (kernels_ref/matvec.hpp, conv2d.hpp):
// bit for bit, on random int16 data including the extremes (so the 32-bit sums wrap).
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/conv2d.hpp>
#include <npusim/kernels/matvec.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

TEST_CASE("aie matvec_vectorized / matvec_scalar equal the reference, wrapping sums included",
          "[aie_kernels][matvec]") {
    namespace nk = npusim::kernels;
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> d(-32768, 32767);
    for (const auto& [m, k] : {std::pair{32, 32}, std::pair{16, 8}, std::pair{64, 48}}) {
        std::vector<std::int16_t> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k));
        for (auto& x : a) x = static_cast<std::int16_t>(d(rng));
        for (auto& x : b) x = static_cast<std::int16_t>(d(rng));
        a[0] = b[0] = -32768;
        std::vector<std::int32_t> c0(static_cast<std::size_t>(m));
        for (auto& x : c0) x = d(rng) * 65536;
        for (const bool vec : {true, false}) {
            INFO("m=" << m << " k=" << k << (vec ? " vectorized" : " scalar"));
            auto want = c0, got = c0;
            nk::matvec_i16_i32(a.data(), b.data(), want.data(), m, k,
                               vec ? nk::MatvecLayout::word_transposed : nk::MatvecLayout::row_major);
            (vec ? npusim::aie_kernels::matvec_vectorized_i16_i32 : npusim::aie_kernels::matvec_scalar_i16_i32)(
                a.data(), b.data(), got.data(), m, k);
            CHECK(got == want);
        }
    }
}

TEST_CASE("aie conv2dk1_i8_u8 / conv2dk1_ui8_u8 equal the reference conv2dk1_u8", "[aie_kernels][conv2d]") {
    namespace nk = npusim::kernels;
    std::mt19937 rng(9);
    for (const int scale : {0, 2, 7, 12}) {
        const int width = 32, ci = 64, co = 32;
        std::vector<std::int8_t> in_s(width * ci), w(ci * co);
        std::vector<std::uint8_t> in_u(width * ci);
        for (auto& x : in_s) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : in_u) x = static_cast<std::uint8_t>(rng() & 0xff);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        std::vector<std::uint8_t> want(width * co), got(width * co, 0x55);
        INFO("scale " << scale);
        nk::conv2dk1_u8(in_s.data(), w.data(), want.data(), width, ci, co, scale);
        npusim::aie_kernels::conv2dk1_i8_u8(in_s.data(), w.data(), got.data(), width, ci, co, scale);
        CHECK(got == want);
        nk::conv2dk1_u8(in_u.data(), w.data(), want.data(), width, ci, co, scale);
        npusim::aie_kernels::conv2dk1_ui8_u8(in_u.data(), w.data(), got.data(), width, ci, co, scale);
        CHECK(got == want);
    }
}

TEST_CASE("aie conv2dk1_skip_i8 / conv2dk1_skip_ui8 equal the reference conv2dk1_skip_u8", "[aie_kernels][conv2d]") {
    namespace nk = npusim::kernels;
    std::mt19937 rng(10);
    for (const auto& [scale, skip_scale] : {std::pair{10, 0}, std::pair{3, 1}, std::pair{6, 4}}) {
        const int width = 32, ci = 64, co = 16;
        std::vector<std::uint8_t> in0(width * ci / 2), in1(width * ci / 2), skip_u(width * co);
        std::vector<std::int8_t> w(ci * co), skip_s(width * co);
        for (auto& x : in0) x = static_cast<std::uint8_t>(rng() & 0xff);
        for (auto& x : in1) x = static_cast<std::uint8_t>(rng() & 0x1f);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_s) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip_u) x = static_cast<std::uint8_t>(rng() & 0xff);
        std::vector<std::uint8_t> want(width * co), got(width * co, 0x55);
        INFO("scale " << scale << "/" << skip_scale);
        nk::conv2dk1_skip_u8(in0.data(), in1.data(), w.data(), want.data(), skip_s.data(), width, ci, co, scale, skip_scale);
        npusim::aie_kernels::conv2dk1_skip_i8(in0.data(), in1.data(), w.data(), got.data(), skip_s.data(), width, ci, co,
                                              scale, skip_scale);
        CHECK(got == want);
        nk::conv2dk1_skip_u8(in0.data(), in1.data(), w.data(), want.data(), skip_u.data(), width, ci, co, scale, skip_scale);
        npusim::aie_kernels::conv2dk1_skip_ui8(in0.data(), in1.data(), w.data(), got.data(), skip_u.data(), width, ci, co,
                                               scale, skip_scale);
        CHECK(got == want);
    }
}

TEST_CASE("aie conv2dk1_skip_init_i8 equals the reference conv2dk1_skip_init_u8", "[aie_kernels][conv2d]") {
    std::mt19937 rng(11);
    const int width = 32, ci = 32, co = 16, cs = 24;
    for (const auto& [scale, skip_scale, scale_skip] : {std::tuple{9, 0, 8}, std::tuple{4, 1, 3}}) {
        std::vector<std::uint8_t> in0(width * ci / 2), in1(width * ci / 2), want(width * co), got(width * co, 0x55);
        std::vector<std::int8_t> w((ci + cs) * co), skip(width * cs);
        for (auto& x : in0) x = static_cast<std::uint8_t>(rng() & 0xff);
        for (auto& x : in1) x = static_cast<std::uint8_t>(rng() & 0x0f);
        for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
        for (auto& x : skip) x = static_cast<std::int8_t>(rng() & 0xff);
        npusim::kernels::conv2dk1_skip_init_u8(in0.data(), in1.data(), w.data(), want.data(), skip.data(), width, ci, co,
                                               cs, scale, skip_scale, scale_skip);
        npusim::aie_kernels::conv2dk1_skip_init_i8(in0.data(), in1.data(), w.data(), got.data(), skip.data(), width, ci,
                                                   co, cs, scale, skip_scale, scale_skip);
        INFO("scales " << scale << " " << skip_scale << " " << scale_skip);
        CHECK(got == want);
    }
}

// bn_conv2dk1_*.cc's scalar loops written out: output (x, o) of a YCXC8 row is the sum over ci of
// input x OIYXI8O8 weight, shifted by (s + 2^(scale-1) - 1 + ((s >> scale) & 1)) >> scale (to even)
template <class TIn>
std::int64_t aie_bn1x1_even_sum(const std::vector<TIn>& in, const std::vector<std::int8_t>& w, int width, int ci,
                                int x, int o, int scale) {
    std::int64_t s = 0;
    for (int i = 0; i < ci; ++i)
        s += std::int64_t{in[static_cast<std::size_t>((i / 8 * width + x) * 8 + i % 8)]} *
             w[static_cast<std::size_t>(((o / 8 * (ci / 8) + i / 8) * 8 + i % 8) * 8 + o % 8)];
    return (s + (std::int64_t{1} << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale;
}

TEST_CASE("aie conv2dk1_relu_i8_ui8 / conv2dk1_ui8_i8 equal the reference conv2dk1_even", "[aie_kernels][conv2d]") {
    // upstream's scalar loops compute every pixel of any width (mobilenet's bn6.. run 14): the widths
    // past a multiple of the 4-pixel mmul step (14, 7, 1) too, checked against the written-out sums
    std::mt19937 rng(12);
    const int ci = 64, co = 16;
    for (const int width : {32, 14, 7, 1})
        for (const int scale : {1, 3, 9}) {
            std::vector<std::int8_t> in_s(width * ci), w(ci * co), want_s(width * co), got_s(width * co, 0x55);
            std::vector<std::uint8_t> in_u(width * ci), want_u(width * co), got_u(width * co, 0x55);
            for (auto& x : in_s) x = static_cast<std::int8_t>(rng() & 0xff);
            for (auto& x : in_u) x = static_cast<std::uint8_t>(rng() & 0x0f);
            for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
            INFO("width " << width << " scale " << scale);
            npusim::kernels::conv2dk1_even(in_s.data(), w.data(), want_u.data(), width, ci, co, scale);
            npusim::aie_kernels::conv2dk1_relu_i8_ui8(in_s.data(), w.data(), got_u.data(), width, ci, co, scale);
            CHECK(got_u == want_u);
            npusim::kernels::conv2dk1_even(in_u.data(), w.data(), want_s.data(), width, ci, co, scale);
            npusim::aie_kernels::conv2dk1_ui8_i8(in_u.data(), w.data(), got_s.data(), width, ci, co, scale);
            CHECK(got_s == want_s);
            for (int x = 0; x < width; ++x)
                for (int o = 0; o < co; ++o) {
                    const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                    INFO("x " << x << " o " << o);
                    REQUIRE(got_u[at] == std::clamp<std::int64_t>(aie_bn1x1_even_sum(in_s, w, width, ci, x, o, scale), 0, 255));
                    REQUIRE(got_s[at] ==
                            std::clamp<std::int64_t>(aie_bn1x1_even_sum(in_u, w, width, ci, x, o, scale), -128, 127));
                }
        }
}

TEST_CASE("aie conv2dk1_skip_ui8_i8_i8 / _ui8_ui8_i8 equal the reference conv2dk1_skip_even", "[aie_kernels][conv2d]") {
    std::mt19937 rng(13);
    const int ci = 64, co = 16;
    for (const int width : {32, 14, 5})
        for (const auto& [scale, skip_scale] : {std::pair{8, 1}, std::pair{3, 2}, std::pair{5, 0}}) {
            std::vector<std::uint8_t> in(width * ci), skip_u(width * co);
            std::vector<std::int8_t> w(ci * co), skip_s(width * co), want(width * co), got(width * co, 0x55);
            for (auto& x : in) x = static_cast<std::uint8_t>(rng() & 0x1f);
            for (auto& x : w) x = static_cast<std::int8_t>(rng() & 0xff);
            for (auto& x : skip_s) x = static_cast<std::int8_t>(rng() & 0xff);
            for (auto& x : skip_u) x = static_cast<std::uint8_t>(rng() & 0xff);
            INFO("width " << width << " scales " << scale << " " << skip_scale);
            npusim::kernels::conv2dk1_skip_even(in.data(), w.data(), want.data(), skip_s.data(), width, ci, co, scale,
                                                skip_scale);
            npusim::aie_kernels::conv2dk1_skip_ui8_i8_i8(in.data(), w.data(), got.data(), skip_s.data(), width, ci, co,
                                                         scale, skip_scale);
            CHECK(got == want);
            auto fin = [skip_scale](std::int64_t v) {
                const std::int64_t r =
                    skip_scale > 0 ? (v + (std::int64_t{1} << (skip_scale - 1)) - 1 + ((v >> skip_scale) & 1)) >> skip_scale : v;
                return std::clamp<std::int64_t>(r, -128, 127);
            };
            for (int x = 0; x < width; ++x)
                for (int o = 0; o < co; ++o) {
                    const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                    const std::int64_t c = std::clamp<std::int64_t>(aie_bn1x1_even_sum(in, w, width, ci, x, o, scale), -128, 127);
                    INFO("x " << x << " o " << o);
                    REQUIRE(got[at] == fin(c + skip_s[at]));
                }
            npusim::kernels::conv2dk1_skip_even(in.data(), w.data(), want.data(), skip_u.data(), width, ci, co, scale,
                                                skip_scale);
            npusim::aie_kernels::conv2dk1_skip_ui8_ui8_i8(in.data(), w.data(), got.data(), skip_u.data(), width, ci, co,
                                                          scale, skip_scale);
            CHECK(got == want);
            for (int x = 0; x < width; ++x)
                for (int o = 0; o < co; ++o) {
                    const auto at = static_cast<std::size_t>((o / 8 * width + x) * 8 + o % 8);
                    const std::int64_t c = std::clamp<std::int64_t>(aie_bn1x1_even_sum(in, w, width, ci, x, o, scale), -128, 127);
                    REQUIRE(got[at] == fin(c + skip_u[at]));
                }
        }
}
