// Drivers of the bottleneck's post-stage 1x1 kernels (mlir-aie aie_kernels/aie2/bottleneck/
// bn_conv2dk1_relu.cc at 3ca0193; IRON conv.py bn_conv2dk1_relu_xy_pool_padded / bn_fc_relu_ui16_pad):
//   -DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT: conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8
//     (:1486-1550, wrapper :1986-1997). Per call, for the output_channels / output_split channels of
//     chunk weight_index (written at that chunk's place, :1499-1500): the stored value (row 0: zero)
//     plus, over the row's pixels, the 1x1 sum over the input channels (int8 [ci/8][x][8] times the
//     chunk's [o/8][ci/8][ci%8][o%8]) rounded half to even at `scale` and clamped to [0, 255]
//     (:1511-1527); the last row (y_index == input_width - 1) stores that pool sum divided by 49 as
//     the source rounds it (:1531-1539: a tenths digit of 5 keeps an even integer part and raises an
//     odd one, else nearest), the other rows the sum's low 16 bits; then channels
//     [output_channels, output_channels_padd) are zeroed (:1547-1550). Driven over a whole 7x7 image
//     in 3 chunks (MobileNet's post_l1 uses 8 of 120 channels), and on preset outputs that put every
//     pool sum from 0 to 5880 through the last row's rounding (zero weights; then all-255 pixels).
//   -DSCALAR -DPOSTL2_PAD -DUINT16_ACT: post_L2_conv2dk1_relu_i16_ui16_pad (:1184-1230, wrapper
//     :1929-1940): out[o/8][x][o%8] = the sum over the first input_channels channels of uint16
//     [ci/8][x][8] times int8 weights whose output groups sit input_channels_pad * 8 apart, to even at
//     `scale`, clamped to [0, 255] (:1203-1224). Driven as post_l2 calls it (width 1, 960 of 1280
//     channels, 8 outputs) and at width 3 with full-range activations that keep the sums in int32.
// Every output element is compared, the ones a call must not write included. The references are
// written here from the sources; the last-row rounding in exact integers (acc = 49 q + r, tenths
// digit floor(10 r / 49)).
#include "KernelDrivers.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <tuple>
#include <vector>

namespace npusim::kernel_check {

namespace {

std::uint32_t post_next(std::uint32_t& seed) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

template <class T>
std::vector<T> post_ints(std::size_t n, std::uint32_t& seed, int lo, int hi) {
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(lo + static_cast<int>(post_next(seed) % static_cast<std::uint32_t>(hi - lo + 1)));
    return v;
}

std::int64_t post_relu_even(std::int64_t s, int scale) {
    const std::int64_t unit = std::int64_t{1} << scale;
    std::int64_t q = s >= 0 ? s / unit : -((-s + unit - 1) / unit);
    const std::int64_t r2 = 2 * (s - q * unit);
    if (r2 > unit || (r2 == unit && (q & 1) != 0)) ++q;
    return q < 0 ? 0 : q > 255 ? 255 : q;
}

std::uint32_t post_average49(std::uint32_t acc) {
    const std::uint32_t q = acc / 49, r = acc % 49;
    if (10 * r / 49 == 5) return q % 2 == 0 ? q : q + 1;
    return 2 * r > 49 ? q + 1 : q;
}

using PoolFn = void (*)(std::int8_t*, std::int8_t*, std::uint16_t*, std::int32_t, std::int32_t, std::int32_t,
                        std::int32_t, int, int, std::int32_t, std::int32_t);

// A 7x7 image of int8 rows in [lo, hi], 3 chunks of 16 channels, padded from 48 to 64 channels.
std::string drive_xy_pool_image(void* fn, int scale, int lo, int hi, std::uint32_t seed) {
    const int w = 7, ci = 32, co = 48, split = 3, padd = 64, tile = co / split, len = 72;
    const auto wts = post_ints<std::int8_t>(static_cast<std::size_t>(co) * ci, seed, -128, 127);
    std::vector<std::vector<std::int8_t>> rows;
    for (int y = 0; y < w; ++y) rows.push_back(post_ints<std::int8_t>(static_cast<std::size_t>(w) * ci, seed, lo, hi));
    std::vector<std::uint16_t> got(static_cast<std::size_t>(len), 0x5a5a);
    for (int y = 0; y < w; ++y)
        for (int wi = 0; wi < split; ++wi)
            reinterpret_cast<PoolFn>(fn)(rows[static_cast<std::size_t>(y)].data(),
                                         const_cast<std::int8_t*>(wts.data()) + wi * tile * ci, got.data(), w, ci, co,
                                         padd, scale, y, split, wi);
    for (int o = 0; o < len; ++o) {
        std::uint32_t want = 0x5a5a;
        if (o < co) {
            std::uint32_t acc = 0;
            for (int y = 0; y < w; ++y)
                for (int x = 0; x < w; ++x) {
                    std::int64_t s = 0;
                    for (int c = 0; c < ci; ++c)
                        s += std::int64_t{rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(
                                 (c / 8) * w * 8 + x * 8 + c % 8)]} *
                             wts[static_cast<std::size_t>((o / 8) * ci * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8)];
                    acc += static_cast<std::uint32_t>(post_relu_even(s, scale));
                }
            want = post_average49(acc);
        } else if (o < padd) {
            want = 0;
        }
        if (got[static_cast<std::size_t>(o)] != want)
            return fmt::format("scale {}: output channel {}: got {}, want {}", scale, o, got[static_cast<std::size_t>(o)],
                               want);
    }
    return {};
}

// One call on outputs preset to their channel numbers 0..4095: row `y` of a 7-pixel row whose pixels
// each add 0 (zero weights) or 255 (saturating weights: 8 * 127 * 127 >> 1, clamped).
std::string drive_xy_pool_preset(void* fn, int y, bool saturating) {
    const int w = 7, ci = 8, co = 4096, n = co;
    const std::vector<std::int8_t> in(static_cast<std::size_t>(w * ci), 127);
    std::vector<std::int8_t> wts(static_cast<std::size_t>(co * ci), static_cast<std::int8_t>(saturating ? 127 : 0));
    std::vector<std::uint16_t> got(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) got[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(c);
    reinterpret_cast<PoolFn>(fn)(const_cast<std::int8_t*>(in.data()), wts.data(), got.data(), w, ci, co, co, 1, y, 1,
                                 0);
    for (int c = 0; c < n; ++c) {
        const std::uint32_t acc = static_cast<std::uint32_t>(c + (saturating ? 7 * 255 : 0));
        const std::uint32_t want = y == w - 1 ? post_average49(acc) : acc & 0xffff;
        if (got[static_cast<std::size_t>(c)] != want)
            return fmt::format("row {} preset {}: pool sum {}: got {}, want {}", y, c, acc,
                               got[static_cast<std::size_t>(c)], want);
    }
    return {};
}

std::string drive_fc_pad(void* fn, int w, int ci, int pad, int co, int scale, int hi, std::uint32_t seed) {
    const auto in = post_ints<std::uint16_t>(static_cast<std::size_t>(w) * pad, seed, 0, hi);
    const auto wts = post_ints<std::int8_t>(static_cast<std::size_t>(co) * pad, seed, -128, 127);
    const int len = w * co + 8;
    std::vector<std::uint16_t> got(static_cast<std::size_t>(len), 0x5a5a);
    reinterpret_cast<void (*)(std::uint16_t*, std::int8_t*, std::uint16_t*, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t, int)>(fn)(const_cast<std::uint16_t*>(in.data()),
                                                      const_cast<std::int8_t*>(wts.data()), got.data(), w, ci, pad, co,
                                                      scale);
    for (int at = 0; at < len; ++at) {
        std::uint32_t want = 0x5a5a;
        if (at < w * co) {
            const int o = at / (w * 8) * 8 + at % 8, x = at / 8 % w;
            std::int64_t s = 0;
            for (int c = 0; c < ci; ++c)
                s += std::int64_t{in[static_cast<std::size_t>((c / 8) * w * 8 + x * 8 + c % 8)]} *
                     wts[static_cast<std::size_t>((o / 8) * pad * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8)];
            want = static_cast<std::uint32_t>(post_relu_even(s, scale));
        }
        if (got[static_cast<std::size_t>(at)] != want)
            return fmt::format("width {} scale {}: output {}: got {}, want {}", w, scale, at,
                               got[static_cast<std::size_t>(at)], want);
    }
    return {};
}

} // namespace

void add_post_bn_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    if (facts.source != "bn_conv2dk1_relu.cc") return;
    out.push_back({"conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8", [](void* fn) {
                       for (const auto& [scale, lo, hi, seed] :
                            {std::tuple{1, -2, 2, 141u}, std::tuple{9, -128, 127, 142u}, std::tuple{4, -3, 3, 143u}}) {
                           std::string e = drive_xy_pool_image(fn, scale, lo, hi, seed);
                           if (!e.empty()) return e;
                       }
                       for (const auto& [y, sat] : {std::tuple{6, false}, std::tuple{6, true}, std::tuple{2, true}}) {
                           std::string e = drive_xy_pool_preset(fn, y, sat);
                           if (!e.empty()) return e;
                       }
                       return std::string{};
                   }});
    out.push_back({"post_L2_conv2dk1_relu_i16_ui16_pad", [](void* fn) {
                       for (const auto& [w, ci, pad, co, scale, hi, seed] :
                            {std::tuple{1, 960, 1280, 8, 10, 255, 151u}, std::tuple{3, 64, 80, 16, 1, 2, 152u},
                             std::tuple{3, 64, 64, 16, 14, 65535, 153u}}) {
                           std::string e = drive_fc_pad(fn, w, ci, pad, co, scale, hi, seed);
                           if (!e.empty()) return e;
                       }
                       return std::string{};
                   }});
}

} // namespace npusim::kernel_check
