// Drivers of mlir-aie aie_kernels at 3ca0193: aie2/scale_shift.cc, aie2p/layer_norm.cc, aie2p/rope.cc,
// aie2p/mm_activation_epilogue.cc and aie2/bf16_softmax.cc (a scalar float softmax exporting the same
// softmax_bf16 as softmax.cc; driven only for its own source). Each reference states the source's steps
// with AIE-API's semantics as npusim's host layer models them (kernels_ref/aie_api/README.md), at the
// core's reset modes (none of these sources sets one):
//   - a bf16 vector add, sub or mul runs in float (IEEE single, nearest even) and is rounded back to bf16
//     with the core's rounding mode, floor at reset: the magnitude is truncated (trunc16 below);
//   - float vector adds and multiplies are IEEE single; reduce_add of 16 float lanes adds pairwise
//     (lanes l and l + 8, then l + 4, ...);
//   - scalar bfloat16 casts and arithmetic round float to nearest even (bf16(float));
//   - aie::invsqrt and aie::tanh return the exact value rounded once to nearest even [est: AMD does not
//     publish these units], computed here in long double.
#include "KernelDrivers.hpp"

#include "npusim/kernels/bfloat16.hpp"
#include "npusim/kernels/scale_shift.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <tuple>

namespace npusim::kernel_check {

namespace {

using bf16 = npusim::bfloat16;

bf16 trunc16(float f) { return bf16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16)); }
float f32(bf16 x) { return static_cast<float>(x); }

// v rounded once to bf16 (8 significant bits), ties to even; |v| in the normal range or 0.
bf16 bf16_once(long double v) {
    if (v == 0) return bf16::from_bits(std::signbit(v) ? 0x8000 : 0);
    int e = 0;
    std::frexp(v, &e);
    const long double r = std::nearbyint(std::ldexp(v, 8 - e)); // the default mode: ties to even
    return bf16::from_bits(
        static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(r, e - 8))) >> 16));
}
float float_once(long double v) { return static_cast<float>(v); } // x87 extended -> float, nearest even

// bf16 values: sign, an exponent in [elo, ehi] and a mantissa from a linear congruential stream, every
// ninth value one of `special` in turn.
std::vector<bf16> norm_bf16s(std::size_t n, std::uint32_t seed, unsigned elo, unsigned ehi,
                             const std::vector<float>& special) {
    std::vector<bf16> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const std::uint32_t w = seed >> 8;
        v[i] = bf16::from_bits(static_cast<std::uint16_t>(((w & 1u) << 15) | ((elo + (w >> 1) % (ehi - elo + 1)) << 7) |
                                                          ((w >> 9) & 0x7fu)));
        if (i % 9 == 4 && !special.empty()) v[i] = bf16(special[(i / 9) % special.size()]);
    }
    return v;
}

std::string bits_compare(const std::vector<bf16>& got, const std::vector<bf16>& want, const std::string& what) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i].bits != want[i].bits)
            return fmt::format("{}element {}: got {} (0x{:04x}), want {} (0x{:04x})", what, i, f32(got[i]), got[i].bits,
                               f32(want[i]), want[i].bits);
    return {};
}
std::string bits_compare(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(want[i]))
            return fmt::format("{}element {}: got {} (0x{:08x}), want {} (0x{:08x})", what, i, got[i],
                               std::bit_cast<std::uint32_t>(got[i]), want[i], std::bit_cast<std::uint32_t>(want[i]));
    return {};
}

// reduce_add of 16 float lanes: pairwise halving.
float reduce16(std::array<float, 16> b) {
    for (unsigned w = 8; w >= 1; w /= 2)
        for (unsigned i = 0; i < w; ++i) b[i] = b[i] + b[i + w];
    return b[0];
}

// ---- scale_shift.cc:15-90 -----------------------------------------------------------------------------
// scalar (:16-26): c = a * b or a + b on scalar bfloat16, rounded to nearest even; vector (:28-69):
// aie::mul / aie::add of 16-lane bf16 vectors, truncated at the reset rounding mode. Inputs: exponents
// over a wide range (sums of far-apart values round in float first), sums that tie between two bf16,
// signed zeros, values whose sum or product passes bf16's largest.
void add_scale_shift(std::vector<Entry>& out) {
    for (const bool vec : {false, true})
        out.push_back({vec ? "eltwise_mul_add_bf16_vector" : "eltwise_mul_add_bf16_scalar", [vec](void* fn) {
                           const std::vector<float> sp = {0.0f,    -0.0f,    1.0f,      0x1.0p-8f, -0x1.0p-8f,
                                                          3.0e38f, -3.0e38f, 0x1.02p0f, 1.5f};
                           const auto a = norm_bf16s(1024, 71, 100, 160, sp), b = norm_bf16s(1024, 72, 110, 150, sp);
                           for (const std::int32_t is_mul : {0, 1}) {
                               std::vector<bf16> c(1024), want(1024), npu(1024);
                               reinterpret_cast<void (*)(bf16*, bf16*, bf16*, std::int32_t)>(fn)(
                                   const_cast<bf16*>(a.data()), const_cast<bf16*>(b.data()), c.data(), is_mul);
                               for (int i = 0; i < 1024; ++i) {
                                   const float r = is_mul ? f32(a[i]) * f32(b[i]) : f32(a[i]) + f32(b[i]);
                                   want[i] = vec ? trunc16(r) : bf16(r);
                               }
                               const std::string what = is_mul ? "mul: " : "add: ";
                               if (auto d = bits_compare(c, want, what); !d.empty()) return d;
                               // npusim's references of the two entries (scale_shift.hpp)
                               (vec ? kernels::eltwise_mul_add_bf16 : kernels::eltwise_mul_add_bf16_nearest)(
                                   a.data(), b.data(), npu.data(), is_mul, 1024);
                               if (auto d = bits_compare(c, npu, what + "against npusim's reference: "); !d.empty())
                                   return d;
                           }
                           return std::string{};
                       }});
}

// ---- layer_norm.cc:13-56 (bf16) and :65-106 (f32) -----------------------------------------------------
// Only the cols / 16 whole vectors are read and written (:23, :32, :47); the mean and variance divide
// by cols. Drives rows of whole vectors and one with a 7-element tail (left as it was).
float invsqrt_once(float x) { return float_once(1.0L / std::sqrt(static_cast<long double>(x))); }

std::vector<bf16> layer_norm_bf16_ref(const std::vector<bf16>& in, std::vector<bf16> out, int cols) {
    const int chunks = cols / 16;
    std::array<float, 16> sum{}, sq{};
    for (int c = 0; c < chunks; ++c)
        for (int l = 0; l < 16; ++l) {
            const float x = f32(in[16 * c + l]);
            sum[l] = sum[l] + x;
            sq[l] = sq[l] + x * x;
        }
    const float mean = reduce16(sum) / float(cols);
    const float variance = reduce16(sq) / float(cols) - mean * mean;
    const float inv_std = invsqrt_once(variance + 1e-5f);
    const bf16 mean_b = bf16(mean), inv_b = bf16(inv_std); // the scalar casts (T)mean, (T)inv_std (:44-45)
    for (int i = 0; i < 16 * chunks; ++i) {
        const bf16 diff = trunc16(f32(in[i]) - f32(mean_b));
        const bf16 norm = trunc16(f32(diff) * f32(inv_b));
        const bf16 scaled = trunc16(f32(norm) * 1.0f);
        out[i] = trunc16(f32(scaled) + 0.0f);
    }
    return out;
}

std::vector<float> layer_norm_f32_ref(const std::vector<float>& in, std::vector<float> out, int cols) {
    const int chunks = cols / 16;
    std::array<float, 16> sum{}, var{};
    for (int c = 0; c < chunks; ++c)
        for (int l = 0; l < 16; ++l) sum[l] = sum[l] + in[16 * c + l];
    const float mean = reduce16(sum) / float(cols);
    for (int c = 0; c < chunks; ++c)
        for (int l = 0; l < 16; ++l) {
            const float d = in[16 * c + l] - mean;
            var[l] = var[l] + d * d;
        }
    const float inv_std = invsqrt_once(reduce16(var) / float(cols) + 1e-5f);
    for (int i = 0; i < 16 * chunks; ++i) out[i] = ((in[i] - mean) * inv_std) * 1.0f + 0.0f;
    return out;
}

void add_layer_norm(std::vector<Entry>& out) {
    out.push_back({"layer_norm", [](void* fn) {
                       // a row around 0, a row with a large mean (its values truncate far from it), a tail
                       const std::vector<float> sp = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f};
                       for (const auto& [cols, elo, ehi, shift] :
                            {std::tuple{1024, 118u, 129u, 0.0f}, std::tuple{256, 120u, 126u, 48.0f},
                             std::tuple{135, 110u, 131u, 0.0f}}) {
                           auto in = norm_bf16s(static_cast<std::size_t>(cols), 73 + cols, elo, ehi, sp);
                           for (auto& x : in) x = bf16(f32(x) + shift);
                           const std::vector<bf16> init(in.size(), bf16::from_bits(0x7fc1));
                           auto got = init;
                           reinterpret_cast<void (*)(bf16*, bf16*, std::int32_t)>(fn)(const_cast<bf16*>(in.data()),
                                                                                      got.data(), cols);
                           const auto want = layer_norm_bf16_ref(in, init, cols);
                           if (auto d = bits_compare(got, want, fmt::format("cols {}: ", cols)); !d.empty()) return d;
                       }
                       return std::string{};
                   }});
    out.push_back({"layer_norm_f32", [](void* fn) {
                       for (const auto& [cols, mean] :
                            {std::tuple{1024, 0.0f}, std::tuple{512, 3000.0f}, std::tuple{100, -7.0f}}) {
                           std::vector<float> in(static_cast<std::size_t>(cols));
                           std::uint32_t s = 74u + static_cast<std::uint32_t>(cols);
                           for (auto& x : in) {
                               s = s * 1664525u + 1013904223u;
                               x = mean + std::ldexp(static_cast<float>(static_cast<std::int32_t>(s) >> 8), -20);
                           }
                           in[5] = mean; // a zero difference
                           const std::vector<float> init(in.size(), -123.0f);
                           auto got = init;
                           reinterpret_cast<void (*)(float*, float*, std::int32_t)>(fn)(in.data(), got.data(), cols);
                           const auto want = layer_norm_f32_ref(in, init, cols);
                           if (auto d = bits_compare(got, want, fmt::format("cols {}: ", cols)); !d.empty()) return d;
                       }
                       return std::string{};
                   }});
}

// ---- rope.cc:13-42 --------------------------------------------------------------------------------------
// For each pair (x[2i], x[2i+1]) and lut (cos, sin) = (lut[2i], lut[2i+1]): the four products truncated
// to bf16, then out[2i] = even*cos - odd*sin and out[2i+1] = even*sin + odd*cos, each truncated (the
// filter_even/odd and interleave_zip + concat restore the pair order).
void add_rope(std::vector<Entry>& out) {
    out.push_back({"rope", [](void* fn) {
                       const int dims = 512;
                       const auto x = norm_bf16s(dims, 75, 105, 150, {0.0f, -0.0f, 1.0f, -1.5f, 3.0e38f});
                       auto lut = norm_bf16s(dims, 76, 110, 126, {0.0f, -0.0f, 1.0f, -1.0f, 0.70710678f});
                       std::vector<bf16> got(dims), want(dims);
                       reinterpret_cast<void (*)(bf16*, bf16*, bf16*, std::int32_t)>(fn)(const_cast<bf16*>(x.data()),
                                                                                         lut.data(), got.data(), dims);
                       for (int i = 0; i < dims; i += 2) {
                           const float e = f32(x[i]), o = f32(x[i + 1]), c = f32(lut[i]), s = f32(lut[i + 1]);
                           const bf16 ec = trunc16(e * c), es = trunc16(e * s), oc = trunc16(o * c),
                                      os = trunc16(o * s);
                           want[i] = trunc16(f32(ec) - f32(os));
                           want[i + 1] = trunc16(f32(es) + f32(oc));
                       }
                       return bits_compare(got, want, "");
                   }});
}

// ---- mm_activation_epilogue.cc:9-73 ---------------------------------------------------------------------
// mode 0 copies; mode 1 (SiLU, :22-41): x * float(trunc16(trunc16(tanh(x * 0.5) + 1) * 0.5)) with the tanh
// rounded to bf16 and the final product in float; mode 2 (GELU, :45-71): x = trunc16(acc), then the bf16
// chain x^2, x^3, 0.044715 x^3, x + .., sqrt(2/pi) * .. (exact in float), tanh to bf16, + 1, x * .., 0.5 * ..
// (the constants are scalar bf16 broadcasts, rounded to nearest).
float silu_epilogue_ref(float x) {
    const float half_x = x * 0.5f;
    const bf16 t = bf16_once(std::tanh(static_cast<long double>(half_x)));
    const bf16 tp1 = trunc16(f32(t) + 1.0f);
    const bf16 sig = trunc16(f32(tp1) * 0.5f);
    return x * f32(sig);
}
float gelu_epilogue_ref(float xf) {
    const bf16 c0 = bf16(0.7978845608f), c1 = bf16(0.044715f);
    const bf16 x = trunc16(xf);
    const bf16 x2 = trunc16(f32(x) * f32(x));
    const bf16 x3 = trunc16(f32(x2) * f32(x));
    const bf16 c1x3 = trunc16(f32(c1) * f32(x3));
    const bf16 inner_b = trunc16(f32(x) + f32(c1x3));
    const float inner = f32(c0) * f32(inner_b);
    const bf16 t = bf16_once(std::tanh(static_cast<long double>(inner)));
    const bf16 tp1 = trunc16(f32(t) + 1.0f);
    const bf16 xt = trunc16(f32(x) * f32(tp1));
    return f32(trunc16(0.5f * f32(xt)));
}

void add_mm_epilogue(std::vector<Entry>& out) {
    out.push_back(
        {"mm_activation_epilogue_row", [](void* fn) {
             const int n = 256;
             std::vector<float> in(n);
             std::uint32_t s = 77;
             for (int i = 0; i < n; ++i) {
                 s = s * 1664525u + 1013904223u;
                 // magnitudes 2^-12 .. 2^6, any sign; some zeros, large values, ties of bf16
                 in[i] = std::ldexp(1.0f + static_cast<float>(s >> 9) * 0x1.0p-23f, static_cast<int>(s % 19) - 12);
                 if (s & 0x100) in[i] = -in[i];
             }
             in[3] = 0.0f, in[4] = -0.0f, in[5] = 1.0e6f, in[6] = -1.0e6f, in[7] = 0x1.018p0f, in[8] = -0x1.008p1f;
             for (const std::int32_t mode : {0, 1, 2}) {
                 std::vector<float> got(n, -5.0f), want(n);
                 reinterpret_cast<void (*)(const float*, float*, std::int32_t, std::int32_t)>(fn)(in.data(), got.data(),
                                                                                                  n, mode);
                 for (int i = 0; i < n; ++i)
                     want[i] = mode == 0 ? in[i] : mode == 1 ? silu_epilogue_ref(in[i]) : gelu_epilogue_ref(in[i]);
                 if (auto d = bits_compare(got, want, fmt::format("mode {}: ", mode)); !d.empty()) return d;
             }
             return std::string{};
         }});
}

// ---- bf16_softmax.cc:6-53 (softmax_simple_bf16) -----------------------------------------------------
// The max in float; per element x = in - max, ix = (int)(x * log2e) (truncating), fx = x * log2e - ix,
// 2^ix built in the exponent field ((ix + 127) << 23, wrapping in 32 bits for ix < -127), times
// 1 + ln2 fx + 0.2401598148889220 fx^2, stored as bf16 (nearest) and summed in float; then each stored
// bf16 times 1 / (sum + 1e-7), to bf16 (nearest).
std::vector<bf16> softmax_simple_ref(const std::vector<bf16>& in) {
    float mx = f32(in[0]);
    for (std::size_t i = 1; i < in.size(); ++i) mx = f32(in[i]) > mx ? f32(in[i]) : mx;
    std::vector<bf16> out(in.size());
    float sum = 0.0f;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const float x = f32(in[i]) - mx;
        const std::int32_t ix = static_cast<std::int32_t>(x * 1.442695040888963f);
        const float fx = x * 1.442695040888963f - static_cast<float>(ix);
        const float pow2_ix = std::bit_cast<float>(static_cast<std::uint32_t>(ix + 127) << 23);
        const float pow2_fx = 1.0f + 0.6931471805599453f * fx + 0.2401598148889220f * fx * fx;
        const float r = pow2_ix * pow2_fx;
        out[i] = bf16(r);
        sum += r;
    }
    const float inv = 1.0f / (sum + 1e-7f);
    for (auto& o : out) o = bf16(f32(o) * inv);
    return out;
}

void add_bf16_softmax(std::vector<Entry>& out) {
    out.push_back(
        {"softmax_bf16", [](void* fn) {
             // a wide row, a short odd one, and one reaching x - max < -127 log(2)
             for (const auto& [n, elo, ehi] :
                  {std::tuple{1024, 115u, 130u}, std::tuple{37, 120u, 129u}, std::tuple{64, 126u, 133u}}) {
                 const auto in = norm_bf16s(static_cast<std::size_t>(n), 78 + n, elo, ehi, {0.0f, -0.0f, 1.0f});
                 std::vector<bf16> got(in.size());
                 reinterpret_cast<void (*)(bf16*, bf16*, std::int32_t)>(fn)(const_cast<bf16*>(in.data()), got.data(),
                                                                            n);
                 if (auto d = bits_compare(got, softmax_simple_ref(in), fmt::format("n {}: ", n)); !d.empty()) return d;
             }
             return std::string{};
         }});
}

} // namespace

void add_norm_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    add_scale_shift(out);
    if (facts.aie2p) {
        add_layer_norm(out);
        add_rope(out);
        add_mm_epilogue(out);
    }
    if (facts.source == "bf16_softmax.cc") add_bf16_softmax(out);
}

} // namespace npusim::kernel_check
