// Drivers of the vision kernels of mlir-aie aie_kernels/aie2 at 3ca0193 (their extern "C" entry points;
// IRON's vision factories bind the Line ones). Each reference is written out from the vectorized code
// the entry point runs, at the core modes it leaves or sets (floor rounding and no saturation at reset):
//   addWeighted.cc:41-71   gamma goes into the accumulator unshifted (from_vector(gamma, 0), :55),
//                          alpha * a + beta * b are added (aie::accumulate, :65), one SRS by 14 at floor
//                          rounding, saturated to T (set_saturation(saturate), :46)
//   filter2d.cc:85-192     the int16 Q12 kernel truncated to int8 (>> 8, :100), a 3-point sliding
//                          multiply per row over the line shifted up by one (the left border replicated,
//                          :115), SRS by 12 - 8 = 4 at floor, saturated (set_sat(), :89)
//   gray2rgba.cc:19-45     (g, g, g, 255) via two T8_2x64_lo shuffles and an OR with the alpha lanes
//   rgba2gray.cc:45-72     9798 R + 19235 G + 3736 B + 16384 * 1 (the Q15 weights round(w * 2^15), :51-55),
//                          SRS by 15 at floor
//   rgba2hue.cc:68-129     (Line, AIE2 vector path) and :131-165 (Tile: the scalar code)
// Each entry point is also compared with npusim's plain C++ reference of it (kernels_ref/src/vision.cpp:
// add_weighted_line for the uint8 build, filter2d_line, gray2rgba_line, rgba2gray_line, and rgba2hue_line,
// the scalar code rgba2hueTile runs).
#include "KernelDrivers.hpp"

#include "npusim/kernels/vision.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <type_traits>

namespace npusim::kernel_check {

namespace {

// A linear congruential stream of bytes, with the values 0, 1, 254, 255 every few elements.
std::vector<std::uint8_t> vision_bytes(std::size_t n, std::uint32_t seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = static_cast<std::uint8_t>(seed >> 24);
        if (i % 7 == 3) v[i] = static_cast<std::uint8_t>(std::array<int, 4>{0, 1, 254, 255}[(i / 7) % 4]);
    }
    return v;
}

template <class T>
std::string vision_compare(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i]) return fmt::format("{} element {}: got {}, want {}", what, i, +got[i], +want[i]);
    return {};
}

// ---- addWeighted ---------------------------------------------------------------------------------------

template <class T>
T add_weighted_ref(T a, T b, std::int16_t alpha, std::int16_t beta, T gamma) {
    const std::int64_t acc = std::int64_t{gamma} + std::int64_t{alpha} * a + std::int64_t{beta} * b;
    const std::int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return static_cast<T>(std::clamp<std::int64_t>(acc >> 14, lo, hi)); // floor, then saturate
}

// Inputs of T: uint8 and int16 over their full range; int32 within +-(2^16 - 1), so that with
// |alpha|, |beta| <= 2^14 and |gamma| <= 2^17 the sum stays inside the 32 bits of the accum<acc32>
// the kernel declares (AIE-API documents acc32 as at least 32 bits; an int32 x int16 product is
// native to 64-bit lanes, so a wider sum's wrap is not a documented result).
template <class T>
std::vector<T> weighted_inputs(std::size_t n, std::uint32_t seed) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        if constexpr (sizeof(T) == 4)
            v[i] = static_cast<T>(static_cast<std::int32_t>((seed >> 8) % 131071u) - 65535);
        else
            v[i] = static_cast<T>(seed >> 16);
        if (i % 5 == 2) v[i] = i % 2 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
        if constexpr (sizeof(T) == 4)
            if (i % 5 == 2) v[i] = i % 2 ? 65535 : -65535;
    }
    return v;
}

struct WeightedCase {
    std::int16_t alpha, beta;
    std::int32_t gamma;
};

template <class T>
void add_add_weighted(std::vector<Entry>& out) {
    // u8: 1 / 2 each with gamma; a weight over 1 (saturates at 255); a negative weight (saturates at 0)
    // int16: both weights 1 (saturates both ways), extreme weights, a floor of negative sums
    std::vector<WeightedCase> cases = {{8192, 8192, 3}, {16384, 12000, 100}, {-9000, 20000, 0}, {5, -3, 1}};
    if constexpr (sizeof(T) == 2) cases.push_back({32767, -32768, 40000 - 65536});
    if constexpr (sizeof(T) == 4) cases = {{16384, 16384, -16384}, {-16384, 9999, 70000}, {7, -5, -1}};
    const auto run = [cases](void* fn, bool tile) {
        const std::size_t n = 256;
        const auto a = weighted_inputs<T>(n, 41), b = weighted_inputs<T>(n, 42);
        for (const auto& c : cases) {
            const T gamma = static_cast<T>(c.gamma);
            std::vector<T> got(n), want(n);
            if (tile)
                reinterpret_cast<void (*)(T*, T*, T*, std::int32_t, std::int32_t, std::int16_t, std::int16_t, T)>(fn)(
                    const_cast<T*>(a.data()), const_cast<T*>(b.data()), got.data(), 4, 64, c.alpha, c.beta, gamma);
            else
                reinterpret_cast<void (*)(T*, T*, T*, std::int32_t, std::int16_t, std::int16_t, T)>(fn)(
                    const_cast<T*>(a.data()), const_cast<T*>(b.data()), got.data(), 256, c.alpha, c.beta, gamma);
            for (std::size_t i = 0; i < n; ++i) want[i] = add_weighted_ref<T>(a[i], b[i], c.alpha, c.beta, gamma);
            const auto what = fmt::format("alpha {} beta {} gamma {}:", c.alpha, c.beta, +gamma);
            if (auto d = vision_compare(got, want, what.c_str()); !d.empty()) return d;
            if constexpr (std::is_same_v<T, std::uint8_t>) { // npusim's reference (IRON's add_weighted: u8)
                std::vector<T> npu(n);
                kernels::add_weighted_line(a.data(), b.data(), npu.data(), static_cast<std::int32_t>(n), c.alpha,
                                           c.beta, gamma);
                const auto vs = what + " against npusim's add_weighted_line:";
                if (auto d = vision_compare(got, npu, vs.c_str()); !d.empty()) return d;
            }
        }
        return std::string{};
    };
    out.push_back({"addWeightedLine", [run](void* fn) { return run(fn, false); }});
    out.push_back({"addWeightedTile", [run](void* fn) { return run(fn, true); }});
}

// ---- filter2d ------------------------------------------------------------------------------------------

// The window the vector code multiplies for output block b (pixels 32b .. 32b + 31) of a line:
// X[k] = line[32b + k - 1], clamped to the last pixel (the right block's shuffle_down_replicate, :172),
// with X[0] the element the code carries over from the previous block in prev_buf: line[0] for the
// first block (shuffle_up_replicate, :115); line[31] for block 1 (prev_buf is filled before the shuffle
// in the first block, :114); for later blocks the middle loop fills prev_buf after its shuffle (:144-145),
// so its top element is line[32b - 2], not line[32b - 1].
std::uint8_t filter2d_window(const std::uint8_t* line, int width, int b, int k) {
    if (k == 0) return b == 0 ? line[0] : b == 1 ? line[31] : line[32 * b - 2];
    return line[std::min(32 * b + k - 1, width - 1)];
}

void add_filter2d(std::vector<Entry>& out) {
    out.push_back({"filter2dLine", [](void* fn) {
                       // kernels: a blur, an edge filter with negative taps (saturates at 0 and 255), and
                       // taps whose low 8 bits the kernel drops (:100)
                       const std::int16_t kernels[][9] = {{256, 512, 256, 512, 1024, 512, 256, 512, 256},
                                                          {0, -4096, 0, -4096, 20480, -4096, 0, -4096, 0},
                                                          {300, -1, 511, -257, 4095, 255, -32768, 32767, 128}};
                       for (const int width : {64, 96, 192}) {
                           const auto l0 = vision_bytes(width, 51), l1 = vision_bytes(width, 52),
                                      l2 = vision_bytes(width, 53);
                           const std::uint8_t* lines[3] = {l0.data(), l1.data(), l2.data()};
                           for (const auto& kern : kernels) {
                               std::vector<std::int16_t> kv(kern, kern + 9);
                               std::vector<std::uint8_t> got(width), want(width);
                               reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::uint8_t*, std::uint8_t*,
                                                         std::int32_t, std::int16_t*)>(fn)(
                                   const_cast<std::uint8_t*>(l0.data()), const_cast<std::uint8_t*>(l1.data()),
                                   const_cast<std::uint8_t*>(l2.data()), got.data(), width, kv.data());
                               for (int x = 0; x < width; ++x) {
                                   std::int64_t acc = 0;
                                   for (int r = 0; r < 3; ++r)
                                       for (int c = 0; c < 3; ++c)
                                           acc += std::int64_t{static_cast<std::int8_t>(kern[3 * r + c] >> 8)} *
                                                  filter2d_window(lines[r], width, x / 32, x % 32 + c);
                                   want[x] = static_cast<std::uint8_t>(std::clamp<std::int64_t>(acc >> 4, 0, 255));
                               }
                               const auto what = fmt::format("width {} kernel [{}]:", width, fmt::join(kv, " "));
                               if (auto d = vision_compare(got, want, what.c_str()); !d.empty()) return d;
                               std::vector<std::uint8_t> npu(width);
                               kernels::filter2d_line(l0.data(), l1.data(), l2.data(), npu.data(), width, kv.data());
                               const auto vs = what + " against npusim's filter2d_line:";
                               if (auto d = vision_compare(got, npu, vs.c_str()); !d.empty()) return d;
                           }
                       }
                       return std::string{};
                   }});
}

// ---- colour conversions --------------------------------------------------------------------------------

using LineFn = void (*)(std::uint8_t*, std::uint8_t*, std::int32_t);
using TileFn = void (*)(std::uint8_t*, std::uint8_t*, std::int32_t, std::int32_t);

// Runs a Line entry (width w) or a Tile entry (height h, width w / h) over the same pixels.
std::vector<std::uint8_t> run_pixels(void* fn, bool tile, const std::vector<std::uint8_t>& in, std::size_t out_n, int w,
                                     int h) {
    std::vector<std::uint8_t> got(out_n);
    if (tile)
        reinterpret_cast<TileFn>(fn)(const_cast<std::uint8_t*>(in.data()), got.data(), h, w / h);
    else
        reinterpret_cast<LineFn>(fn)(const_cast<std::uint8_t*>(in.data()), got.data(), w);
    return got;
}

std::uint8_t rgba2gray_ref(const std::uint8_t* p) {
    const std::int64_t wr = std::lround(0.299 * 32768), wg = std::lround(0.587 * 32768),
                       wb = std::lround(0.114 * 32768);
    return static_cast<std::uint8_t>((wr * p[0] + wg * p[1] + wb * p[2] + 16384) >> 15);
}

// rgba2hue.cc:68-129: d = max - min; inv = lut_inv_16b[d], whose entry d is floor(85 * 2^9 / d) (d = 0:
// 85 * 2^9; lut_inv_8b.h:223-360, each 8-entry chunk stored for both banks); three candidates
// (1 << 9) + inv * (g - b), (171 << 9) + inv * (b - r), (341 << 9) + inv * (r - g), each SRS by 10 at
// floor and kept in its low 8 bits (no saturation); then hg where g is the max, else hr where r is
// the max, else hb (the selects, :118-121: g wins a tie with r), and 0 where d == 0.
std::uint8_t rgba2hue_vector_ref(const std::uint8_t* p) {
    const int r = p[0], g = p[1], b = p[2];
    const int mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
    const std::int64_t inv = d == 0 ? 85 * 512 : 85 * 512 / d;
    const auto srs = [](std::int64_t acc) { return static_cast<std::uint8_t>(acc >> 10); };
    const std::uint8_t hr = srs((1 << 9) + inv * (g - b)), hg = srs((171 << 9) + inv * (b - r)),
                       hb = srs((341 << 9) + inv * (r - g));
    if (d == 0) return 0;
    return g == mx ? hg : r == mx ? hr : hb;
}

// rgba2hue.cc:131-165 (the scalar code rgba2hueTile runs): C's truncating division, r wins ties.
std::uint8_t rgba2hue_scalar_ref(const std::uint8_t* p) {
    const int r = p[0], g = p[1], b = p[2];
    const int mx = std::max({r, g, b}), mn = std::min({r, g, b});
    int h = 0;
    if (mx == 0 || mx == mn)
        h = 0;
    else if (mx == r)
        h = 85 * (g - b) / (mx - mn);
    else if (mx == g)
        h = 170 + 85 * (b - r) / (mx - mn);
    else
        h = 340 + 85 * (r - g) / (mx - mn);
    return static_cast<std::uint8_t>((h + 1) >> 1);
}

// RGBA pixels: random, then grey (d = 0), black, white, ties of two channels at the max.
std::vector<std::uint8_t> rgba_pixels(int n) {
    auto v = vision_bytes(4 * static_cast<std::size_t>(n), 61);
    const std::uint8_t special[][3] = {{7, 7, 7},      {0, 0, 0},      {255, 255, 255}, {200, 200, 10},
                                       {10, 200, 200}, {200, 10, 200}, {255, 0, 0},     {0, 255, 0},
                                       {0, 0, 255},    {255, 254, 0},  {1, 0, 0},       {128, 0, 255}};
    for (std::size_t i = 0; i < std::size(special); ++i) std::memcpy(&v[4 * (5 * i + 1)], special[i], 3);
    return v;
}

void add_colour(std::vector<Entry>& out) {
    constexpr int kW = 128, kH = 2; // 128 pixels: a Line of 128, a Tile of 2 x 64
    for (const bool tile : {false, true}) {
        const std::string sfx = tile ? "Tile" : "Line";
        out.push_back({"gray2rgba" + sfx, [tile](void* fn) {
                           const auto in = vision_bytes(kW, 62);
                           const auto got = run_pixels(fn, tile, in, 4 * kW, kW, kH);
                           std::vector<std::uint8_t> want(4 * kW), npu(4 * kW);
                           for (int i = 0; i < kW; ++i)
                               for (int c = 0; c < 4; ++c) want[4 * i + c] = c == 3 ? 255 : in[i];
                           kernels::gray2rgba_line(in.data(), npu.data(), kW);
                           if (auto d = vision_compare(got, want, "gray2rgba:"); !d.empty()) return d;
                           return vision_compare(got, npu, "against npusim's gray2rgba_line:");
                       }});
        out.push_back({"rgba2gray" + sfx, [tile](void* fn) {
                           const auto in = rgba_pixels(kW);
                           const auto got = run_pixels(fn, tile, in, kW, kW, kH);
                           std::vector<std::uint8_t> want(kW), npu(kW);
                           for (int i = 0; i < kW; ++i) want[i] = rgba2gray_ref(&in[4 * i]);
                           kernels::rgba2gray_line(in.data(), npu.data(), kW);
                           if (auto d = vision_compare(got, want, "rgba2gray:"); !d.empty()) return d;
                           return vision_compare(got, npu, "against npusim's rgba2gray_line:");
                       }});
        out.push_back({"rgba2hue" + sfx, [tile](void* fn) {
                           const auto in = rgba_pixels(kW);
                           const auto got = run_pixels(fn, tile, in, kW, kW, kH);
                           std::vector<std::uint8_t> want(kW), npu(kW);
                           for (int i = 0; i < kW; ++i)
                               want[i] = tile ? rgba2hue_scalar_ref(&in[4 * i]) : rgba2hue_vector_ref(&in[4 * i]);
                           if (auto d = vision_compare(got, want, "rgba2hue:"); !d.empty() || !tile) return d;
                           kernels::rgba2hue_line(in.data(), npu.data(), kW); // the scalar code's formula
                           return vision_compare(got, npu, "against npusim's rgba2hue_line:");
                       }});
    }
}

} // namespace

void add_vision_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    if (facts.source == "addWeighted.cc") {
        if (facts.bit_width == 8)
            add_add_weighted<std::uint8_t>(out);
        else if (facts.bit_width == 16)
            add_add_weighted<std::int16_t>(out);
        else
            add_add_weighted<std::int32_t>(out);
    }
    add_filter2d(out);
    add_colour(out);
}

} // namespace npusim::kernel_check
