// Tests for the reference cascade halves of the split 1x1 convolution (kernels_ref/conv2dk1_partial.hpp):
// the words put are checked lane by lane against sums written here over the channel chunk, and a put
// followed by a get over the same words equals the whole 1x1 convolution of the 7 pixels over all
// input channels, rounded half to even (written as a rational comparison) and clamped to [0, 255];
// the data include ties at every tested scale, negative partial sums and sums past both clamps.
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

std::deque<std::array<std::int64_t, 8>> g_partial_wire;
void partial_wire_put(const void* w) {
    std::array<std::int64_t, 8> x;
    std::memcpy(x.data(), w, sizeof x);
    g_partial_wire.push_back(x);
}
void partial_wire_get(void* w) {
    REQUIRE(!g_partial_wire.empty());
    std::memcpy(w, g_partial_wire.front().data(), sizeof(std::array<std::int64_t, 8>));
    g_partial_wire.pop_front();
}

// in[(c / 8) * width * 8 + x * 8 + c % 8]; the chunk's weights [oc][chunk/8][c%8][o%8]
std::int64_t partial_test_dot(const std::vector<std::int8_t>& in, const std::vector<std::int8_t>& wts, int width,
                              int first, int chunk, int oc, int x, int o) {
    std::int64_t s = 0;
    for (int c = first; c < first + chunk; ++c) {
        const int i = c - first;
        s += std::int64_t{in[static_cast<std::size_t>((c / 8) * width * 8 + x * 8 + c % 8)]} *
             wts[static_cast<std::size_t>(oc * chunk * 8 + (i / 8) * 64 + (i % 8) * 8 + o)];
    }
    return s;
}

// nearest integer to s / 2^scale, ties to even: compare 2 * remainder with the divisor
std::int64_t partial_test_round(std::int64_t s, int scale) {
    const std::int64_t d = std::int64_t{1} << scale;
    std::int64_t q = s / d;
    if (s % d != 0 && s < 0) --q; // floor
    const std::int64_t r2 = 2 * (s - q * d);
    if (r2 > d || (r2 == d && q % 2 != 0)) ++q;
    return q;
}

} // namespace

TEST_CASE("conv2dk1_partial put / get: the words put, and put + get is the whole 1x1 convolution to even",
          "[kernels][conv2d][cascade]") {
    std::mt19937 rng(51);
    struct C {
        int width, ci, split, co, out_split, weight_index, oc, lo, hi;
    };
    for (const C c : {C{7, 16, 2, 32, 2, 1, 1, -128, 127}, C{7, 80, 2, 480, 4, 3, 14, -3, 3},
                      C{9, 48, 3, 16, 1, 0, 1, -128, 127}, C{7, 16, 2, 8, 1, 0, 0, 0, 2}})
        for (const int scale : {1, 2, 5, 10}) {
            const int chunk = c.ci / c.split;
            std::vector<std::int8_t> in(static_cast<std::size_t>(c.width * c.ci));
            for (auto& v : in) v = static_cast<std::int8_t>(c.lo + static_cast<int>(rng() % (c.hi - c.lo + 1)));
            std::vector<std::int8_t> w_put(static_cast<std::size_t>((c.oc + 1) * chunk * 8)), w_get(w_put.size());
            for (auto* w : {&w_put, &w_get})
                for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
            g_partial_wire.clear();
            conv2dk1_partial_put_i8(in.data(), w_put.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0, c.oc,
                                    &partial_wire_put);
            REQUIRE(g_partial_wire.size() == 2u * kPartialConvPixels);
            for (int x = 0; x < kPartialConvPixels; ++x)
                for (int o = 0; o < 8; ++o) {
                    CHECK(g_partial_wire[static_cast<std::size_t>(2 * x)][static_cast<std::size_t>(o)] ==
                          partial_test_dot(in, w_put, c.width, 0, chunk, c.oc, x, o));
                    CHECK(g_partial_wire[static_cast<std::size_t>(2 * x + 1)][static_cast<std::size_t>(o)] == 0);
                }
            std::vector<std::uint8_t> out(static_cast<std::size_t>(c.width * c.co), 0x5a);
            const auto before = out;
            conv2dk1_partial_get_relu_i8(in.data(), w_get.data(), out.data(), c.width, c.ci, c.co, scale, c.split,
                                         c.out_split, c.weight_index, 0, c.oc, &partial_wire_get);
            CHECK(g_partial_wire.empty());
            const int group = c.oc + c.co / (8 * c.out_split) * c.weight_index;
            int low = 0, high = 0, ties = 0;
            for (std::size_t at = 0; at < out.size(); ++at) {
                const int g = static_cast<int>(at) / (c.width * 8), x = static_cast<int>(at) / 8 % c.width;
                const int o = static_cast<int>(at) % 8;
                if (g != group || x >= kPartialConvPixels) {
                    REQUIRE(out[at] == before[at]); // only the call's group and pixels are written
                    continue;
                }
                const std::int64_t s = partial_test_dot(in, w_put, c.width, 0, chunk, c.oc, x, o) +
                                       partial_test_dot(in, w_get, c.width, chunk, chunk, c.oc, x, o);
                const std::int64_t q = partial_test_round(s, scale);
                low += q < 0;
                high += q > 255;
                ties += (s & ((std::int64_t{1} << scale) - 1)) == (std::int64_t{1} << (scale - 1));
                INFO("scale " << scale << " x " << x << " o " << o << " sum " << s);
                REQUIRE(out[at] == (q < 0 ? 0 : q > 255 ? 255 : q));
            }
            if (c.lo == -128 && scale <= 5) CHECK((low > 0 && high > 0)); // both clamps reached
            if (c.hi == 2 && scale == 1) CHECK(ties > 0);                  // small sums: ties to even
        }
}

TEST_CASE("conv2dk1_partial: preconditions and the [est] cost", "[kernels][conv2d][cascade]") {
    std::vector<std::int8_t> in(7 * 16), w(64 * 8);
    std::vector<std::uint8_t> out(7 * 16);
    CHECK_THROWS_WITH(conv2dk1_partial_put_i8(in.data(), w.data(), 6, 16, 16, 2, 0, 0, 0, &partial_wire_put),
                      "conv2dk1_partial_put_i8: width must be at least 7, the pixels the kernel computes (got 6)");
    CHECK_THROWS_WITH(conv2dk1_partial_put_i8(in.data(), w.data(), 7, 12, 16, 2, 0, 0, 0, &partial_wire_put),
                      "conv2dk1_partial_put_i8: input_channels must be a positive multiple of 8 * input_split (got 12)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_relu_i8(in.data(), w.data(), out.data(), 7, 16, 16, 4, 1, 1, 0, 0, 0,
                                                   &partial_wire_get),
                      "conv2dk1_partial_get_relu_i8: input_split must be at least 2 (got 1)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_relu_i8(in.data(), w.data(), out.data(), 7, 16, 16, 0, 2, 1, 0, 0, 0,
                                                   &partial_wire_get),
                      "conv2dk1_partial_get_relu_i8: scale must be in 1..31 (got 0)");
    CHECK_THROWS_WITH(conv2dk1_partial_get_relu_i8(in.data(), w.data(), out.data(), 7, 16, 16, 4, 2, 2, 1, 0, 1,
                                                   &partial_wire_get),
                      Catch::StartsWith("conv2dk1_partial_get_relu_i8: output channel group 2"));
    CHECK(conv2dk1_partial_cycles(80, 2, false) == 7u * 8 * 40);
    CHECK(conv2dk1_partial_cycles(80, 2, true) == 7u * 8 * 40 + 56);
}
