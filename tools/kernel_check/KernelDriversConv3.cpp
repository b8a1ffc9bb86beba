// Drivers of the 3x3 and 14x14 convolution kernels (mlir-aie aie_kernels at 3ca0193).
//
// conv2dk3.cc without flags (conv.py's conv2dk3(act_dtype=uint8)): the vector conv2dk3_ui8 (:838-1370)
// convolves three uint8 rows with int8 3x3 weights into one uint8 row, under positive_inf rounding
// and saturation (:850-853): each sum shifted by `scale` half up, clamped to [0, 255]. The border is
// zero (no BORDER_REPLICATE: :923-950, :1323-1328): the pixels left of x = 0 and right of x = w - 1
// are 0; `check` 0 (top) skips line0 and 2 (bottom) skips line2 (:937-948). channel_offset selects
// the weights of output channels offset.. (:882-892). The vector kernel computes 32 pixels whatever
// the width (iw = 32, :904), so it is driven at width 32. Layouts, from the scalar variant's indexing
// (:230-262): lines [ci/8][x][8], weights [co/8][ci/8][ky][kx][ci%8][co%8], output [co/8][x][8]. The
// reference is written here from that.
//
// aie2p/conv2dk14.cc without flags (conv.py's conv2dk14): the vector conv2dk14_i8 (:125-190) sums,
// for each 14x14 RGBA tile and output channel, the tile's 196 pixels x 4 values times the channel's
// weights in acc32 lanes (mmul<8, 8, 8, uint8, int8>), then to_vector<int8>(scale) under symmetric_inf
// rounding and saturation (:131-134): ties away from zero, clamped to [-128, 127]. Layouts, from the
// scalar variant's indexing (:63-79): input [tile/8][pixel/2][tile%8][pixel%2][rgba], weights
// [co/8][pixel/2][pixel%2][rgba][co%8], output [co/8][tile/8][tile%8][co%8]. Driven at conv.py's
// defaults (224 pixels: 16 tiles, 16 channels).
//
// bottleneck/bn_conv2dk3.cc without flags (conv.py's bn_conv2dk3): the plain C conv2dk3_stride2_i8
// (:32-145): conv2dk3.cc's layouts with int8 rows, output x centred on input 2x, to even, clamped to
// [0, 255].
//
// bottleneck/bn_conv2dk3_dw.cc -DREGULAR -DSCALAR -DSTRIDE1 / -DSTRIDE2 (conv.py's bn_conv2dk3_dw):
// plain C loops (:163-350): each channel c convolved alone with weights [c/8][ky][kx][c%8], the rows
// and zero border as conv2dk3's, stride 2 centring output x on input 2x (:199-233), the sum rounded
// to even ((sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >> scale) and clamped to [0, 255]; the
// -DSCALAR -DBN13|14 -DSTRIDE1_OUT_SPLIT build's bn13/bn14_conv2dk3_ui8_out_split splits that row's
// channel groups between two outputs (drive_conv2dk3_dw_out_split).
#include "KernelDrivers.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <tuple>
#include <vector>

namespace npusim::kernel_check {

namespace {

std::uint32_t k3d_next(std::uint32_t& seed) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

template <class T>
std::vector<T> k3d_ints(std::size_t n, std::uint32_t seed, int lo, int hi) {
    std::vector<T> v(n);
    for (auto& x : v)
        x = static_cast<T>(lo + static_cast<int>(k3d_next(seed) % static_cast<std::uint32_t>(hi - lo + 1)));
    return v;
}

std::string drive_conv2dk3_ui8(void* fn, int check, int scale, int offset, int in_hi, std::uint32_t seed) {
    const int w = 32, ci = 32, co = 16, wco = 32;
    std::vector<std::uint8_t> lines[3];
    for (int r = 0; r < 3; ++r)
        lines[r] =
            k3d_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci, seed + static_cast<std::uint32_t>(r), 0, in_hi);
    const auto wts = k3d_ints<std::int8_t>(static_cast<std::size_t>(9) * ci * wco, seed + 3, -128, 127);
    std::vector<std::uint8_t> got(static_cast<std::size_t>(w) * co, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, int, int)>(fn)(
        lines[0].data(), lines[1].data(), lines[2].data(), const_cast<std::int8_t*>(wts.data()), got.data(), w, ci, co,
        3, 3, check, scale, offset);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            const int oo = oc + offset;
            for (int ky = 0; ky < 3; ++ky) {
                if ((ky == 0 && check == 0) || (ky == 2 && check == 2)) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const int px = x + kx - 1;
                    if (px < 0 || px >= w) continue;
                    for (int ic = 0; ic < ci; ++ic)
                        sum += std::int64_t{lines[ky][static_cast<std::size_t>((ic / 8) * w * 8 + px * 8 + ic % 8)]} *
                               wts[static_cast<std::size_t>(ky * 3 * 64 + kx * 64 + (ic / 8) * 9 * 64 + (ic % 8) * 8 +
                                                            (oo / 8) * (ci / 8) * 9 * 64 + oo % 8)];
                }
            }
            std::int64_t want = scale > 0 ? (sum + (std::int64_t{1} << (scale - 1))) >> scale : sum;
            want = want < 0 ? 0 : want > 255 ? 255 : want;
            const auto at = static_cast<std::size_t>((oc / 8) * w * 8 + x * 8 + oc % 8);
            if (got[at] != want)
                return fmt::format("check {} scale {} offset {}: output {} (x {}, channel {}; sum {}): got {}, want {}",
                                   check, scale, offset, at, x, oc, sum, +got[at], want);
        }
    return {};
}

std::string drive_conv2dk14_i8(void* fn, int scale, int in_hi, std::uint32_t seed) {
    const int w = 224, co = 16, kw = 14, tiles = w / kw, pairs = kw * kw / 2;
    const auto in = k3d_ints<std::uint8_t>(static_cast<std::size_t>(tiles) * kw * kw * 4, seed, 0, in_hi);
    const auto wts = k3d_ints<std::int8_t>(static_cast<std::size_t>(co) * kw * kw * 4, seed + 1, -128, 127);
    std::vector<std::int8_t> got(static_cast<std::size_t>(co) * tiles * 8, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::int8_t*, std::int8_t*, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t, int)>(fn)(
        const_cast<std::uint8_t*>(in.data()), const_cast<std::int8_t*>(wts.data()), got.data(), w, 4, co, kw, scale);
    for (int oc = 0; oc < co; ++oc)
        for (int t = 0; t < tiles; ++t) {
            std::int64_t sum = 0;
            for (int pix = 0; pix < pairs; ++pix)
                for (int p2 = 0; p2 < 2; ++p2)
                    for (int c = 0; c < 4; ++c)
                        sum +=
                            std::int64_t{in[static_cast<std::size_t>(
                                ((t / 8) * pairs * 16 + pix * 16 + (t % 8) * 2 + p2) * 4 + c)]} *
                            wts[static_cast<std::size_t>((oc / 8) * pairs * 64 + pix * 64 + p2 * 32 + c * 8 + oc % 8)];
            const std::int64_t mag = sum < 0 ? -sum : sum;
            const std::int64_t r = scale > 0 ? (mag + (std::int64_t{1} << (scale - 1))) >> scale : mag;
            std::int64_t want = sum < 0 ? -r : r;
            want = want < -128 ? -128 : want > 127 ? 127 : want;
            const auto at = static_cast<std::size_t>((oc / 8) * (tiles / 8) * 64 + (t / 8) * 64 + (t % 8) * 8 + oc % 8);
            if (got[at] != want)
                return fmt::format("scale {}: output {} (tile {}, channel {}; sum {}): got {}, want {}", scale, at, t,
                                   oc, sum, +got[at], want);
        }
    for (std::size_t i = static_cast<std::size_t>(co) * tiles; i < got.size(); ++i)
        if (got[i] != 0x55) return fmt::format("wrote output byte {} past the {} it computes", i, co * tiles);
    return {};
}

std::string drive_conv2dk3_dw(void* fn, int stride, int check, int scale, int in_hi, std::uint32_t seed) {
    const int w = 32, c = 64, ow = w / stride; // conv.py's defaults
    std::vector<std::uint8_t> lines[3];
    for (int r = 0; r < 3; ++r)
        lines[r] =
            k3d_ints<std::uint8_t>(static_cast<std::size_t>(w) * c, seed + static_cast<std::uint32_t>(r), 0, in_hi);
    const auto wts = k3d_ints<std::int8_t>(static_cast<std::size_t>(9) * c, seed + 3, -128, 127);
    std::vector<std::uint8_t> got(static_cast<std::size_t>(ow) * c, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, int, int)>(fn)(
        lines[0].data(), lines[1].data(), lines[2].data(), const_cast<std::int8_t*>(wts.data()), got.data(), w, c, c, 3,
        3, check, scale, 0);
    for (int ch = 0; ch < c; ++ch)
        for (int x = 0; x < ow; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if ((ky == 0 && check == 0) || (ky == 2 && check == 2)) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const int px = stride * x + kx - 1;
                    if (px < 0 || px >= w) continue;
                    sum += std::int64_t{lines[ky][static_cast<std::size_t>((ch / 8) * w * 8 + px * 8 + ch % 8)]} *
                           wts[static_cast<std::size_t>((ch / 8) * 72 + ky * 24 + kx * 8 + ch % 8)];
                }
            }
            std::int64_t want = (sum + (std::int64_t{1} << (scale - 1)) - 1 + ((sum >> scale) & 1)) >> scale;
            want = want < 0 ? 0 : want > 255 ? 255 : want;
            const auto at = static_cast<std::size_t>((ch / 8) * ow * 8 + x * 8 + ch % 8);
            if (got[at] != want)
                return fmt::format("check {} scale {}: output {} (x {}, channel {}; sum {}): got {}, want {}", check,
                                   scale, at, x, ch, sum, +got[at], want);
        }
    return {};
}

// -DSCALAR -DBN13|14 -DSTRIDE1_OUT_SPLIT (conv2dk3_ui8_out_split_scalar, :29-156): the stride-1
// depthwise sums (each channel alone, zero border), to even, clamped to [0, 255], group g to output1
// at g when g < (co / 2) / 8, else to output2 at g - (co / 2) / 8. Driven at conv.py's defaults (7
// pixels, 480 channels, 240 a half) and, with 24 channels, uneven halves (8 and 16 channels).
std::string drive_conv2dk3_dw_out_split(void* fn, int c, int check, int scale, int in_hi, std::uint32_t seed) {
    const int w = 7, first = c / 2 / 8;
    std::vector<std::uint8_t> lines[3];
    for (int r = 0; r < 3; ++r)
        lines[r] =
            k3d_ints<std::uint8_t>(static_cast<std::size_t>(w) * c, seed + static_cast<std::uint32_t>(r), 0, in_hi);
    const auto wts = k3d_ints<std::int8_t>(static_cast<std::size_t>(9) * c, seed + 3, -128, 127);
    std::vector<std::uint8_t> out1(static_cast<std::size_t>(w) * c, 0x55), out2(out1.size(), 0x66);
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, std::uint8_t*,
                              std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, int,
                              int)>(fn)(lines[0].data(), lines[1].data(), lines[2].data(),
                                        const_cast<std::int8_t*>(wts.data()), out1.data(), out2.data(), w, 1, c, 3, 3,
                                        check, scale, 0);
    for (int ch = 0; ch < c; ++ch)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if ((ky == 0 && check == 0) || (ky == 2 && check == 2)) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const int px = x + kx - 1;
                    if (px < 0 || px >= w) continue;
                    sum += std::int64_t{lines[ky][static_cast<std::size_t>((ch / 8) * w * 8 + px * 8 + ch % 8)]} *
                           wts[static_cast<std::size_t>((ch / 8) * 72 + ky * 24 + kx * 8 + ch % 8)];
                }
            }
            std::int64_t want = (sum + (std::int64_t{1} << (scale - 1)) - 1 + ((sum >> scale) & 1)) >> scale;
            want = want < 0 ? 0 : want > 255 ? 255 : want;
            const int g = ch / 8;
            const auto& dst = g < first ? out1 : out2;
            const auto at = static_cast<std::size_t>((g < first ? g : g - first) * w * 8 + x * 8 + ch % 8);
            if (dst[at] != want)
                return fmt::format("{} channels, check {} scale {}: output{} byte {} (x {}, channel {}; sum {}): got "
                                   "{}, want {}",
                                   c, check, scale, g < first ? 1 : 2, at, x, ch, sum, +dst[at], want);
        }
    for (std::size_t i = static_cast<std::size_t>(first) * w * 8; i < out1.size(); ++i)
        if (out1[i] != 0x55) return fmt::format("{} channels: output1 byte {} written past its half", c, i);
    for (std::size_t i = static_cast<std::size_t>(c / 8 - first) * w * 8; i < out2.size(); ++i)
        if (out2[i] != 0x66) return fmt::format("{} channels: output2 byte {} written past its half", c, i);
    return {};
}

std::string drive_conv2dk3_stride2(void* fn, int check, int scale, int lo, int hi, std::uint32_t seed) {
    const int w = 32, ci = 64, co = 64, ow = w / 2; // conv.py's defaults
    std::vector<std::int8_t> lines[3];
    for (int r = 0; r < 3; ++r)
        lines[r] =
            k3d_ints<std::int8_t>(static_cast<std::size_t>(w) * ci, seed + static_cast<std::uint32_t>(r), lo, hi);
    const auto wts = k3d_ints<std::int8_t>(static_cast<std::size_t>(9) * ci * co, seed + 3, -128, 127);
    std::vector<std::uint8_t> got(static_cast<std::size_t>(ow) * co, 0x55);
    reinterpret_cast<void (*)(std::int8_t*, std::int8_t*, std::int8_t*, std::int8_t*, std::uint8_t*, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, int, int)>(fn)(
        lines[0].data(), lines[1].data(), lines[2].data(), const_cast<std::int8_t*>(wts.data()), got.data(), w, ci, co,
        3, 3, check, scale, 0);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < ow; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if ((ky == 0 && check == 0) || (ky == 2 && check == 2)) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const int px = 2 * x + kx - 1;
                    if (px < 0 || px >= w) continue;
                    for (int ic = 0; ic < ci; ++ic)
                        sum += std::int64_t{lines[ky][static_cast<std::size_t>((ic / 8) * w * 8 + px * 8 + ic % 8)]} *
                               wts[static_cast<std::size_t>(ky * 3 * 64 + kx * 64 + (ic / 8) * 9 * 64 + (ic % 8) * 8 +
                                                            (oc / 8) * (ci / 8) * 9 * 64 + oc % 8)];
                }
            }
            std::int64_t want = (sum + (std::int64_t{1} << (scale - 1)) - 1 + ((sum >> scale) & 1)) >> scale;
            want = want < 0 ? 0 : want > 255 ? 255 : want;
            const auto at = static_cast<std::size_t>((oc / 8) * ow * 8 + x * 8 + oc % 8);
            if (got[at] != want)
                return fmt::format("check {} scale {}: output {} (x {}, channel {}; sum {}): got {}, want {}", check,
                                   scale, at, x, oc, sum, +got[at], want);
        }
    return {};
}

} // namespace

void add_conv3_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    if (facts.source == "conv2dk3.cc" && !facts.aie2p)
        out.push_back({"conv2dk3_ui8", [](void* fn) {
                           // small inputs (sums near the shift's ties) and full-range ones (saturating both ways)
                           for (const auto& [check, scale, offset, hi, seed] :
                                {std::tuple{1, 11, 16, 255, 101u}, std::tuple{0, 9, 0, 255, 102u},
                                 std::tuple{2, 4, 16, 3, 103u}, std::tuple{1, 1, 0, 1, 104u}}) {
                               std::string e = drive_conv2dk3_ui8(fn, check, scale, offset, hi, seed);
                               if (!e.empty()) return e;
                           }
                           return std::string{};
                       }});
    if (facts.source == "bn_conv2dk3.cc")
        out.push_back({"conv2dk3_stride2_i8", [](void* fn) {
                           for (const auto& [check, scale, lo, hi, seed] :
                                {std::tuple{1, 11, -128, 127, 131u}, std::tuple{0, 2, -1, 1, 132u},
                                 std::tuple{2, 1, -1, 1, 133u}}) {
                               std::string e = drive_conv2dk3_stride2(fn, check, scale, lo, hi, seed);
                               if (!e.empty()) return e;
                           }
                           return std::string{};
                       }});
    if (facts.source == "bn_conv2dk3_dw.cc")
        for (const int stride : {1, 2})
            out.push_back(
                {fmt::format("conv2dk3_dw_stride{}_relu_ui8_ui8", stride), [stride](void* fn) {
                     for (const auto& [check, scale, hi, seed] :
                          {std::tuple{1, 8, 255, 121u}, std::tuple{0, 2, 3, 122u}, std::tuple{2, 1, 1, 123u}}) {
                         std::string e = drive_conv2dk3_dw(fn, stride, check, scale, hi, seed);
                         if (!e.empty()) return e;
                     }
                     return std::string{};
                 }});
    if (facts.source == "bn_conv2dk3_dw.cc")
        for (const int block : {13, 14})
            out.push_back({fmt::format("bn{}_conv2dk3_ui8_out_split", block), [](void* fn) {
                               for (const auto& [c, check, scale, hi, seed] :
                                    {std::tuple{480, 1, 8, 255, 131u}, std::tuple{24, 0, 2, 3, 132u},
                                     std::tuple{24, 2, 1, 1, 133u}, std::tuple{480, 2, 10, 255, 134u}}) {
                                   std::string e = drive_conv2dk3_dw_out_split(fn, c, check, scale, hi, seed);
                                   if (!e.empty()) return e;
                               }
                               return std::string{};
                           }});
    if (facts.source == "conv2dk14.cc")
        out.push_back({"conv2dk14_i8", [](void* fn) {
                           for (const auto& [scale, hi, seed] :
                                {std::tuple{14, 255, 111u}, std::tuple{6, 255, 112u}, std::tuple{3, 1, 113u}}) {
                               std::string e = drive_conv2dk14_i8(fn, scale, hi, seed);
                               if (!e.empty()) return e;
                           }
                           return std::string{};
                       }});
}

} // namespace npusim::kernel_check
