// The AIE-API build of the split 1x1 convolution's cascade halves (kernels_ref/aie/bn_conv2dk1_partial.cc)
// against the reference (kernels_ref/conv2dk1_partial.hpp), bit for bit, across the cascade both ways:
// the AIE put's words feed the reference get and the reference put's words the AIE get, on full-range
// data (clamped at both ends) and small data (ties), at scales 1 to 12.
#include <npusim/aie_kernels.hpp>
#include <npusim/kernels/conv2dk1_partial.hpp>

#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

namespace {

using AiePartialWord = std::array<std::byte, 64>;
std::deque<AiePartialWord> g_aie_partial_wire;
void aie_partial_put(const void* w) {
    AiePartialWord x;
    std::memcpy(x.data(), w, x.size());
    g_aie_partial_wire.push_back(x);
}
void aie_partial_get(void* w) {
    REQUIRE(!g_aie_partial_wire.empty());
    std::memcpy(w, g_aie_partial_wire.front().data(), 64);
    g_aie_partial_wire.pop_front();
}

} // namespace

TEST_CASE("aie conv2dk1_partial_put_i8 / _get_relu_i8 equal the reference halves", "[aie_kernels][conv2d][cascade]") {
    namespace ak = npusim::aie_kernels;
    namespace rk = npusim::kernels;
    std::mt19937 rng(52);
    npusim::aie_api::set_cascade_hooks(&aie_partial_put, &aie_partial_get);
    struct C {
        int width, ci, split, co, out_split, weight_index, oc, lo, hi;
    };
    for (const C c : {C{7, 80, 2, 480, 2, 1, 14, -128, 127}, C{8, 32, 2, 16, 1, 0, 1, -2, 2},
                      C{7, 48, 3, 24, 3, 2, 0, -128, 127}})
        for (const int scale : {1, 3, 8, 12}) {
            const int chunk = c.ci / c.split;
            std::vector<std::int8_t> in(static_cast<std::size_t>(c.width * c.ci));
            for (auto& v : in) v = static_cast<std::int8_t>(c.lo + static_cast<int>(rng() % (c.hi - c.lo + 1)));
            std::vector<std::int8_t> w1(static_cast<std::size_t>((c.oc + 1) * chunk * 8)), w2(w1.size());
            for (auto* w : {&w1, &w2})
                for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
            // the reference halves over a wire of their own
            g_aie_partial_wire.clear();
            std::vector<std::uint8_t> want(static_cast<std::size_t>(c.width * c.co), 0x33);
            rk::conv2dk1_partial_put_i8(in.data(), w1.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0, c.oc,
                                        &aie_partial_put);
            const auto ref_words = g_aie_partial_wire;
            rk::conv2dk1_partial_get_relu_i8(in.data(), w2.data(), want.data(), c.width, c.ci, c.co, scale, c.split,
                                             c.out_split, c.weight_index, 0, c.oc, &aie_partial_get);
            // AIE put -> reference get, and reference put -> AIE get
            g_aie_partial_wire.clear();
            ak::conv2dk1_partial_put_i8(in.data(), w1.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0, c.oc);
            REQUIRE(g_aie_partial_wire.size() == ref_words.size());
            for (std::size_t i = 0; i < ref_words.size(); i += 2) // lanes 0-7 (lanes 8-15 are undefined upstream)
                CHECK(g_aie_partial_wire[i] == ref_words[i]);
            std::vector<std::uint8_t> got1(want.size(), 0x33), got2(want.size(), 0x33);
            rk::conv2dk1_partial_get_relu_i8(in.data(), w2.data(), got1.data(), c.width, c.ci, c.co, scale, c.split,
                                             c.out_split, c.weight_index, 0, c.oc, &aie_partial_get);
            g_aie_partial_wire = ref_words;
            ak::conv2dk1_partial_get_relu_i8(in.data(), w2.data(), got2.data(), c.width, c.ci, c.co, scale, c.split,
                                             c.out_split, c.weight_index, 0, c.oc);
            CHECK(g_aie_partial_wire.empty());
            INFO("width " << c.width << " ci " << c.ci << " scale " << scale);
            CHECK(got1 == want);
            CHECK(got2 == want);
        }
    npusim::aie_api::set_cascade_hooks(nullptr, nullptr);
}

TEST_CASE("aie conv2dk1_partial_put_ui8 / _get_skip_i8 equal the reference halves", "[aie_kernels][conv2d][cascade]") {
    namespace ak = npusim::aie_kernels;
    namespace rk = npusim::kernels;
    std::mt19937 rng(62);
    npusim::aie_api::set_cascade_hooks(&aie_partial_put, &aie_partial_get);
    struct C {
        int width, ci, split, co, out_split, weight_index, oc, hi;
    };
    for (const C c : {C{7, 960, 2, 80, 2, 1, 4, 255}, C{8, 32, 2, 16, 1, 0, 1, 2}, C{7, 48, 3, 24, 3, 2, 0, 255},
                      C{7, 16, 1, 8, 1, 0, 0, 255}})
        for (const int scale : {1, 3, 8, 12})
            for (const int skip_scale : {0, 1, 3}) {
                const int chunk = c.ci / c.split;
                std::vector<std::uint8_t> in1(static_cast<std::size_t>(c.width * chunk)), in2(in1.size());
                for (auto* in : {&in1, &in2})
                    for (auto& v : *in) v = static_cast<std::uint8_t>(rng() % static_cast<unsigned>(c.hi + 1));
                std::vector<std::int8_t> w1(static_cast<std::size_t>((c.oc + 1) * chunk * 8)), w2(w1.size());
                for (auto* w : {&w1, &w2})
                    for (auto& v : *w) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
                std::vector<std::int8_t> skip(static_cast<std::size_t>(c.width * c.co));
                for (auto& v : skip) v = static_cast<std::int8_t>(static_cast<int>(rng() & 0xff) - 128);
                // the reference halves over a wire of their own
                g_aie_partial_wire.clear();
                std::vector<std::int8_t> want(static_cast<std::size_t>(c.width * c.co), 0x33);
                rk::conv2dk1_partial_put_ui8(in1.data(), w1.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0,
                                             c.oc, &aie_partial_put);
                const auto ref_words = g_aie_partial_wire;
                rk::conv2dk1_partial_get_skip_i8(in2.data(), w2.data(), want.data(), skip.data(), c.width, c.ci, c.co,
                                                 scale, skip_scale, c.split, c.out_split, c.weight_index, 0, c.oc,
                                                 &aie_partial_get);
                // AIE put -> reference get, and reference put -> AIE get
                g_aie_partial_wire.clear();
                ak::conv2dk1_partial_put_ui8(in1.data(), w1.data(), c.width, c.ci, c.co, c.split, c.weight_index, 0,
                                             c.oc);
                REQUIRE(g_aie_partial_wire.size() == ref_words.size());
                for (std::size_t i = 0; i < ref_words.size(); i += 2) // lanes 0-7 (lanes 8-15 are undefined upstream)
                    CHECK(g_aie_partial_wire[i] == ref_words[i]);
                std::vector<std::int8_t> got1(want.size(), 0x33), got2(want.size(), 0x33);
                rk::conv2dk1_partial_get_skip_i8(in2.data(), w2.data(), got1.data(), skip.data(), c.width, c.ci, c.co,
                                                 scale, skip_scale, c.split, c.out_split, c.weight_index, 0, c.oc,
                                                 &aie_partial_get);
                g_aie_partial_wire = ref_words;
                ak::conv2dk1_partial_get_skip_i8(in2.data(), w2.data(), got2.data(), skip.data(), c.width, c.ci, c.co,
                                                 scale, skip_scale, c.split, c.out_split, c.weight_index, 0, c.oc);
                CHECK(g_aie_partial_wire.empty());
                INFO("width " << c.width << " ci " << c.ci << " scale " << scale << " skip_scale " << skip_scale);
                CHECK(got1 == want);
                CHECK(got2 == want);
            }
    npusim::aie_api::set_cascade_hooks(nullptr, nullptr);
}
