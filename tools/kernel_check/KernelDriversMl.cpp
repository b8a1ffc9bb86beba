// Drivers of the ML kernels of mlir-aie aie_kernels at 3ca0193 against npusim's plain C++ reference
// kernels (kernels_ref/src: each states the source's steps, rounding and the generation's
// differences), for the build's generation:
//   aie2/bf16_exp.cc:24, aie2p/bf16_exp.cc:41   exp_bf16_1024(in, out)       exp_bf16_lut / exp_bf16_exp2
//   aie2/softmax.cc:67, aie2p/softmax.cc:100    softmax_bf16(in, out, n)     softmax_lut_bf16 / softmax_exp2_bf16
//   aie2{,p}/silu.cc, gelu.cc (extern "C" at the end)  silu_bf16 / gelu_bf16(in, out)   silu_bf16 / gelu_bf16
//   aie2{,p}/swiglu.cc                           swiglu_bf16(in, w1, w2, out) swiglu_bf16
//   aie2p/rms_norm.cc                            rms_norm(in, out, cols)      rms_norm_bf16
// The sources set no rounding mode: they run, and the references model, the core's reset mode.
#include "KernelDrivers.hpp"

#include "npusim/kernels/activation_tanh.hpp"
#include "npusim/kernels/exp_bf16.hpp"
#include "npusim/kernels/rms_norm.hpp"
#include "npusim/kernels/softmax_lut.hpp"

#include <cmath>
#include <cstdint>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

using bf16 = npusim::bfloat16;
constexpr int kTile = 1024;

// bf16 values uniform in [lo, hi) from a fixed linear congruential stream
std::vector<bf16> ml_values(std::size_t n, float lo, float hi, std::uint32_t seed) {
    std::vector<bf16> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = bf16(lo + (hi - lo) * static_cast<float>(seed >> 8) * 0x1.0p-24f);
    }
    return v;
}

std::string ml_compare(const std::vector<bf16>& got, const std::vector<bf16>& want) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        const bool both_nan = std::isnan(float(got[i])) && std::isnan(float(want[i]));
        if (!both_nan && got[i].bits != want[i].bits)
            return fmt::format("element {}: got {} (0x{:04x}), want {} (0x{:04x})", i, float(got[i]), got[i].bits,
                               float(want[i]), want[i].bits);
    }
    return {};
}

using Unary = void (*)(bf16*, bf16*);

} // namespace

void add_ml_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    const bool p = facts.aie2p;
    // entry names repeat: aie2/bf16_softmax.cc also defines softmax_bf16 (a scalar float softmax)
    if (facts.source == "bf16_exp.cc")
    out.push_back({"exp_bf16_1024", [p](void* fn) {
                       const auto a = ml_values(kTile, -10.0f, 10.0f, 21);
                       std::vector<bf16> c(kTile), want(kTile);
                       reinterpret_cast<Unary>(fn)(const_cast<bf16*>(a.data()), c.data());
                       (p ? kernels::exp_bf16_exp2 : kernels::exp_bf16_lut)(a.data(), want.data(), kTile);
                       return ml_compare(c, want);
                   }});
    if (facts.source == "softmax.cc")
    out.push_back({"softmax_bf16", [p](void* fn) {
                       const auto a = ml_values(kTile, -4.0f, 8.0f, 22);
                       std::vector<bf16> c(kTile), want(kTile);
                       reinterpret_cast<void (*)(bf16*, bf16*, std::int32_t)>(fn)(const_cast<bf16*>(a.data()), c.data(),
                                                                                 kTile);
                       (p ? kernels::softmax_exp2_bf16 : kernels::softmax_lut_bf16)(a.data(), want.data(), kTile);
                       return ml_compare(c, want);
                   }});
    for (const bool gelu : {false, true})
        out.push_back({gelu ? "gelu_bf16" : "silu_bf16", [p, gelu](void* fn) {
                           const auto a = ml_values(kTile, -8.0f, 8.0f, gelu ? 23 : 24);
                           std::vector<bf16> c(kTile), want(kTile);
                           reinterpret_cast<Unary>(fn)(const_cast<bf16*>(a.data()), c.data());
                           (gelu ? kernels::gelu_bf16 : kernels::silu_bf16)(a.data(), want.data(), kTile, p);
                           return ml_compare(c, want);
                       }});
    out.push_back({"swiglu_bf16", [p](void* fn) {
                       const auto a = ml_values(kTile, -4.0f, 4.0f, 25), w1 = ml_values(kTile, -2.0f, 2.0f, 26),
                                  w2 = ml_values(kTile, -2.0f, 2.0f, 27);
                       std::vector<bf16> c(kTile), want(kTile);
                       reinterpret_cast<void (*)(bf16*, bf16*, bf16*, bf16*)>(fn)(
                           const_cast<bf16*>(a.data()), const_cast<bf16*>(w1.data()), const_cast<bf16*>(w2.data()),
                           c.data());
                       kernels::swiglu_bf16(a.data(), w1.data(), w2.data(), want.data(), kTile, p);
                       return ml_compare(c, want);
                   }});
    if (p) // aie2p/rms_norm.cc only; a row of whole vectors and one with a scalar tail
        out.push_back({"rms_norm", [](void* fn) {
                           for (const std::int32_t cols : {kTile, 1000}) {
                               const auto a = ml_values(static_cast<std::size_t>(cols), -3.0f, 3.0f, 28);
                               std::vector<bf16> c(a.size()), want(a.size());
                               reinterpret_cast<void (*)(bf16*, bf16*, std::int32_t)>(fn)(const_cast<bf16*>(a.data()),
                                                                                         c.data(), cols);
                               kernels::rms_norm_bf16(a.data(), want.data(), cols);
                               if (auto d = ml_compare(c, want); !d.empty()) return fmt::format("cols {}: {}", cols, d);
                           }
                           return std::string{};
                       }});
}

} // namespace npusim::kernel_check
