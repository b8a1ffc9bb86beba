#pragma once
// Cascade intrinsics of AIE2 / AIE2P kernels: put_mcd(x) writes one 512-bit word to the core's
// cascade output, get_scd_<type>() reads one from its cascade input (mlir-aie
// aie_kernels/aie2/cascade_mm.cc uses put_mcd(v16int32) and get_scd_v16int32()). The cascade
// carries 512 bits on both generations (AIETargetModel::getAccumulatorCascadeSize; the
// put/get_cascade verifiers, lib/Dialect/AIE/IR/AIEDialect.cpp l.1285-1317), so every form here
// moves exactly one 64-byte word: 512-bit vectors, and 16-lane acc32 / accfloat accumulators as
// 16 32-bit lanes [est: the accumulator's bits on the wire are not documented; a value survives
// a put/get pair].
//
// The host layer does not know the simulator: the words go through hooks the embedding program
// installs (npusim's harness routes them to the running core's model::CoreServices). Without
// hooks, a cascade intrinsic throws std::logic_error.
#include "accum.hpp"
#include "config.hpp"
#include "intrinsics.hpp"
#include "vector.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace npusim::aie_api {

inline constexpr std::size_t kCascadeWordBytes = 64;
using CascadePutHook = void (*)(const void* word64);
using CascadeGetHook = void (*)(void* word64);
namespace detail {
inline std::atomic<CascadePutHook> cascade_put_hook{nullptr};
inline std::atomic<CascadeGetHook> cascade_get_hook{nullptr};
} // namespace detail
inline void set_cascade_hooks(CascadePutHook put, CascadeGetHook get) {
    detail::cascade_put_hook.store(put, std::memory_order_relaxed);
    detail::cascade_get_hook.store(get, std::memory_order_relaxed);
}
inline void cascade_put_word(const void* word) {
    auto h = detail::cascade_put_hook.load(std::memory_order_relaxed);
    if (!h) throw std::logic_error("put_mcd: no cascade is connected (the kernel runs outside a simulated core)");
    h(word);
}
inline void cascade_get_word(void* word) {
    auto h = detail::cascade_get_hook.load(std::memory_order_relaxed);
    if (!h) throw std::logic_error("get_scd: no cascade is connected (the kernel runs outside a simulated core)");
    h(word);
}

namespace detail {
template <typename T, unsigned N>
std::array<std::byte, kCascadeWordBytes> to_word(const aie::vector<T, N>& v) {
    static_assert(sizeof(T) * N == kCascadeWordBytes,
                  "npusim aie_api: put_mcd takes one 512-bit register (e.g. v16int32, v32int16, v64int8)");
    std::array<std::byte, kCascadeWordBytes> w{};
    for (unsigned i = 0; i < N; ++i) {
        const T x = v[i];
        std::memcpy(w.data() + i * sizeof(T), &x, sizeof(T));
    }
    return w;
}
template <typename T, unsigned N>
aie::vector<T, N> from_word(const std::array<std::byte, kCascadeWordBytes>& w) {
    aie::vector<T, N> v;
    for (unsigned i = 0; i < N; ++i) {
        T x;
        std::memcpy(&x, w.data() + i * sizeof(T), sizeof(T));
        v[i] = x;
    }
    return v;
}
template <typename T, unsigned N>
aie::vector<T, N> get_word() {
    std::array<std::byte, kCascadeWordBytes> w{};
    cascade_get_word(w.data());
    return from_word<T, N>(w);
}
} // namespace detail

} // namespace npusim::aie_api

template <typename T, unsigned N>
inline void put_mcd(const aie::vector<T, N>& v) {
    const auto w = npusim::aie_api::detail::to_word(v);
    npusim::aie_api::cascade_put_word(w.data());
}
inline void put_mcd(const v16acc32& a) { put_mcd(a.template to_vector<int32>(0)); }
inline void put_mcd(const v16accfloat& a) { put_mcd(a.template to_vector<float>(0)); }

inline v16int32 get_scd_v16int32() { return npusim::aie_api::detail::get_word<int32, 16>(); }
inline v16uint32 get_scd_v16uint32() { return npusim::aie_api::detail::get_word<uint32, 16>(); }
inline v32int16 get_scd_v32int16() { return npusim::aie_api::detail::get_word<int16, 32>(); }
inline v64int8 get_scd_v64int8() { return npusim::aie_api::detail::get_word<int8, 64>(); }
inline v16float get_scd_v16float() { return npusim::aie_api::detail::get_word<float, 16>(); }
inline v32bfloat16 get_scd_v32bfloat16() { return npusim::aie_api::detail::get_word<bfloat16, 32>(); }
inline v16acc32 get_scd_v16acc32() { return v16acc32(get_scd_v16int32()); }
inline v16accfloat get_scd_v16accfloat() { return v16accfloat(get_scd_v16float()); }

// v16acc64 (1024 bits) crosses as two words, lanes 0-7 then 8-15, each lane's 64 bits little-endian
// [est: the bottleneck kernels of mlir-aie (aie2/bottleneck/bn_conv2dk1_*.cc) put and get whole
// v16acc64 registers; how the hardware splits them is not documented, a value survives a put/get].
inline void put_mcd(const v16acc64& a) {
    std::int64_t lanes[16];
    for (unsigned i = 0; i < 16; ++i) lanes[i] = a.lane(i);
    npusim::aie_api::cascade_put_word(lanes);
    npusim::aie_api::cascade_put_word(lanes + 8);
}
inline v16acc64 get_scd_v16acc64() {
    std::int64_t lanes[16];
    npusim::aie_api::cascade_get_word(lanes);
    npusim::aie_api::cascade_get_word(lanes + 8);
    v16acc64 r;
    for (unsigned i = 0; i < 16; ++i) r.lane(i) = lanes[i];
    return r;
}
