// Tests for the reference input-split cascade pair of the bottleneck 1x1 projection
// (kernels_ref/conv2dk1_partial.hpp conv2dk1_partial_put_ui8 / conv2dk1_partial_get_skip_i8): the
// words put are checked lane by lane against sums written here over the first channel chunk of the
// put's own uint8 input; a put followed by a get over the same words equals the 1x1 convolution of
// both halves' inputs rounded half to even (a rational comparison), clamped to int8, plus the skip,
// rounded again at skip_scale (or left as it is at 0) and clamped. The data reach ties at both
// roundings and both clamps at both stages.
#include <npusim/kernels/conv2dk1_partial.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels;

namespace {

std::deque<std::array<std::int64_t, 8>> g_split_wire;
void split_wire_put(const void* w) {
    std::array<std::int64_t, 8> x;
    std::memcpy(x.data(), w, sizeof x);
    g_split_wire.push_back(x);
}
void split_wire_get(void* w) {
    REQUIRE(!g_split_wire.empty());
    std::memcpy(w, g_split_wire.front().data(), sizeof(std::array<std::int64_t, 8>));
    g_split_wire.pop_front();
}

// the sum over the first `chunk` channels of in[(c / 8) * width * 8 + x * 8 + c % 8] times the
// weights [oc][chunk/8][c%8][o%8]
std::int64_t split_test_dot(const std::vector<std::uint8_t>& in, const std::vector<std::int8_t>& wts, int width,
                            int chunk, int oc, int x, int o) {
    std::int64_t s = 0;
    for (int c = 0; c < chunk; ++c)
        s += std::int64_t{in[static_cast<std::size_t>((c / 8) * width * 8 + x * 8 + c % 8)]} *
             wts[static_cast<std::size_t>(oc * chunk * 8 + (c / 8) * 64 + (c % 8) * 8 + o)];
    return s;
}

// the nearest integer to s / 2^scale, ties to the even one: 2 * remainder against the divisor
std::int64_t split_test_round(std::int64_t s, int scale) {
    const std::int64_t d = std::int64_t{1} << scale;
    std::int64_t q = s / d;
    if (s % d != 0 && s < 0) --q; // floor
    const std::int64_t r2 = 2 * (s - q * d);
    if (r2 > d || (r2 == d && q % 2 != 0)) ++q;
    return q;
}

std::int64_t split_test_sat8(std::int64_t v) { return v < -128 ? -128 : v > 127 ? 127 : v; }

} // namespace

TEST_CASE("conv2dk1_partial_put_ui8 / _get_skip_i8: the words put, and put + get + skip to even, int8",
          "[kernels][conv2d][cascade]") {
    std::mt19937 rng(61);
    struct C {
        int width, ci, split, co, out_split, weight_index, oc, hi;
    };
    for (const C c : {C{7, 32, 2, 16, 2, 1, 0, 255}, C{7, 480, 2, 80, 2, 1, 4, 255}, C{9, 48, 3, 24, 1, 0, 2, 255},
                      C{7, 16, 1, 8, 1, 0, 0, 2}})
        for (const int scale : {1, 4, 9, 12})
            for (const int skip_scale : {0, 1, 2}) {
                const int chunk = c.ci / c.split;
                std::vector<std::uint8_t> in_put(static_cast<std::size_t>(c.width * c.ci)), in_get(in_put.size());
                for (auto* in : {&in_put, &in_get})
                    for (auto& v : *in) v = static_cast<std::uint8_t>(rng() % static_cast<unsigned>(c.hi + 1));
                std::vector<std::int8_t> w_put(static_cast<std::size_t>((c.oc + 1) * chunk * 8)), w_get(w_put.size());
                for (auto* w : {&w_put, &w_get})
                    for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
                std::vector<std::int8_t> skip(static_cast<std::size_t>(c.width * c.co));
                for (auto& v : skip) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
                g_split_wire.clear();
                conv2dk1_partial_put_ui8(in_put.data(), w_put.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0,
                                         c.oc, &split_wire_put);
                REQUIRE(g_split_wire.size() == 2u * kPartialConvPixels);
                for (int x = 0; x < kPartialConvPixels; ++x)
                    for (int o = 0; o < 8; ++o) {
                        CHECK(g_split_wire[static_cast<std::size_t>(2 * x)][static_cast<std::size_t>(o)] ==
                              split_test_dot(in_put, w_put, c.width, chunk, c.oc, x, o));
                        CHECK(g_split_wire[static_cast<std::size_t>(2 * x + 1)][static_cast<std::size_t>(o)] == 0);
                    }
                std::vector<std::int8_t> out(static_cast<std::size_t>(c.width * c.co), 0x5a);
                const auto before = out;
                conv2dk1_partial_get_skip_i8(in_get.data(), w_get.data(), out.data(), skip.data(), c.width, c.ci, c.co,
                                             scale, skip_scale, c.split, c.out_split, c.weight_index, 0, c.oc,
                                             &split_wire_get);
                CHECK(g_split_wire.empty());
                const int group = c.oc + c.co / (8 * c.out_split) * c.weight_index;
                int clamped_lo = 0, clamped_hi = 0, ties = 0;
                for (std::size_t at = 0; at < out.size(); ++at) {
                    const int g = static_cast<int>(at) / (c.width * 8), x = static_cast<int>(at) / 8 % c.width;
                    const int o = static_cast<int>(at) % 8;
                    if (g != group || x >= kPartialConvPixels) {
                        REQUIRE(out[at] == before[at]); // only the call's group and pixels are written
                        continue;
                    }
                    const std::int64_t s = split_test_dot(in_put, w_put, c.width, chunk, c.oc, x, o) +
                                           split_test_dot(in_get, w_get, c.width, chunk, c.oc, x, o);
                    const std::int64_t q = split_test_round(s, scale);
                    clamped_lo += q < -128;
                    clamped_hi += q > 127;
                    ties += (s & ((std::int64_t{1} << scale) - 1)) == (std::int64_t{1} << (scale - 1));
                    const std::int64_t with_skip = split_test_sat8(q) + skip[at];
                    const std::int64_t want =
                        split_test_sat8(skip_scale > 0 ? split_test_round(with_skip, skip_scale) : with_skip);
                    INFO("scale " << scale << " skip_scale " << skip_scale << " x " << x << " o " << o << " sum " << s
                                  << " skip " << int{skip[at]});
                    REQUIRE(out[at] == want);
                }
                if (c.hi == 255 && c.ci >= 32 && scale == 4) CHECK((clamped_lo > 0 && clamped_hi > 0));
                if (c.hi == 2 && scale == 1) CHECK(ties > 0);
            }
}

TEST_CASE("conv2dk1_partial_get_skip_i8: the skip's own rounding and clamps, written out", "[kernels][conv2d][cascade]") {
    // one channel, weight 1, the cascade word carrying the rest: the conv result is exactly s >> scale
    const int width = 7, ci = 8, co = 8;
    std::vector<std::uint8_t> in(static_cast<std::size_t>(width * ci), 0);
    std::vector<std::int8_t> w(64, 0), skip(static_cast<std::size_t>(width * co), 0), out(skip.size());
    struct P {
        std::int64_t cascade;
        int scale, skip_value, skip_scale, want;
    };
    // 6 / 4 = 1.5 -> 2, + 1 = 3, / 2 = 1.5 -> 2; 10 / 4 = 2.5 -> 2, + 1 = 3 -> 2; 14 / 4 = 3.5 -> 4, / 2 = 2;
    // -1000 / 2 clamps to -128, + 127 = -1 (skip_scale 0: unchanged); 1000 / 2 clamps to 127, + 127 = 254 -> 127;
    // -3 - 128 = -131 -> -128 (skip_scale 0) or / 8 = -16.375 -> -16; negative ties: -0.5 -> 0, -1.5 -> -2
    for (const P p : {P{6, 2, 1, 1, 2}, P{10, 2, 1, 1, 2}, P{14, 2, 0, 1, 2}, P{-1000, 1, 127, 0, -1},
                      P{1000, 1, 127, 0, 127}, P{-6, 1, -128, 0, -128}, P{-6, 1, -128, 3, -16}, P{-2, 1, 0, 1, 0},
                      P{-6, 1, 0, 1, -2}}) {
        g_split_wire.clear();
        for (int x = 0; x < kPartialConvPixels; ++x) {
            g_split_wire.push_back({p.cascade, 0, 0, 0, 0, 0, 0, 0});
            g_split_wire.push_back({});
        }
        for (auto& v : skip) v = static_cast<std::int8_t>(p.skip_value);
        conv2dk1_partial_get_skip_i8(in.data(), w.data(), out.data(), skip.data(), width, ci, co, p.scale, p.skip_scale,
                                     1, 1, 0, 0, 0, &split_wire_get);
        INFO("cascade " << p.cascade << " scale " << p.scale << " skip " << p.skip_value << " skip_scale "
                        << p.skip_scale);
        CHECK(int{out[0]} == p.want);
        CHECK(int{out[6 * 8]} == p.want);
    }
}

TEST_CASE("conv2dk1_partial ui8 / skip halves: preconditions and the [est] cost", "[kernels][conv2d][cascade]") {
    std::vector<std::uint8_t> in(7 * 16);
    std::vector<std::int8_t> w(64 * 8), out(7 * 16), skip(7 * 16);
    CHECK_THROWS_WITH(conv2dk1_partial_put_ui8(in.data(), w.data(), 6, 16, 16, 2, 0, 0, 0, &split_wire_put),
                      "conv2dk1_partial_put_ui8: width must be at least 7, the pixels the kernel computes (got 6)");
    CHECK_THROWS_WITH(conv2dk1_partial_put_ui8(in.data(), w.data(), 7, 16, 16, 0, 0, 0, 0, &split_wire_put),
                      "conv2dk1_partial_put_ui8: input_split must be at least 1 (got 0)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_skip_i8(in.data(), w.data(), out.data(), nullptr, 7, 16, 16, 4, 0, 1, 1, 0,
                                                   0, 0, &split_wire_get),
                      "conv2dk1_partial_get_skip_i8: pointer argument 'skip' is null");
    CHECK_THROWS_WITH(conv2dk1_partial_get_skip_i8(in.data(), w.data(), out.data(), skip.data(), 7, 16, 16, 4, -1, 1, 1,
                                                   0, 0, 0, &split_wire_get),
                      "conv2dk1_partial_get_skip_i8: skip_scale must be in 0..31 (got -1)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_skip_i8(in.data(), w.data(), out.data(), skip.data(), 7, 16, 16, 0, 0, 1, 1,
                                                   0, 0, 0, &split_wire_get),
                      "conv2dk1_partial_get_skip_i8: scale must be in 1..31 (got 0)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_skip_i8(in.data(), w.data(), out.data(), skip.data(), 7, 16, 16, 4, 0, 2, 2,
                                                   1, 0, 1, &split_wire_get),
                      Catch::StartsWith("conv2dk1_partial_get_skip_i8: output channel group 2"));
    CHECK(conv2dk1_partial_skip_cycles(480, 2) == 7u * 8 * 240 + 2 * 56);
    // [est] one scalar MAC per cycle: far below any generation's vector peak (256 int8 MACs per cycle on AIE2)
    CHECK(7.0 * 8 * 240 / static_cast<double>(conv2dk1_partial_skip_cycles(480, 2)) <= 1.0);
}
