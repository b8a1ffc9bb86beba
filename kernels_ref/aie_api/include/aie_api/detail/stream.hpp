#pragma once
// Core stream-port intrinsics of AIE2 / AIE2P kernels: put_ms(value, tlast) writes one 32-bit word
// to the core's output stream (master stream port), get_ss() reads one from its input stream
// (slave stream port). Upstream kernels use them on an ObjectFifo end given `aie_stream`
// (mlir-aie programming_examples/ml/magika/kernels/group2.cc: `put_ms(px[i], (i == 213))`).
// A core stream port moves 32 bits per word (AM020: "32-bit stream interfaces" of the core).
// `tlast` marks the end of a packet; on the circuit-switched flow an aie_stream end gets it has
// no effect on the data (an S2MM channel finishes its BD on its length, AM020 "DMA" S2MM), so it
// is accepted and passed on without changing anything [est].
//
// The host layer does not know the simulator: the words go through hooks the embedding program
// installs (npusim's harness routes them to the running core's model::CoreServices). Without
// hooks, a stream intrinsic throws std::logic_error.
#include <atomic>
#include <bit>
#include <cstdint>
#include <stdexcept>

namespace npusim::aie_api {

using StreamPutHook = void (*)(std::uint32_t word);
using StreamGetHook = std::uint32_t (*)();
namespace detail {
inline std::atomic<StreamPutHook> stream_put_hook{nullptr};
inline std::atomic<StreamGetHook> stream_get_hook{nullptr};
} // namespace detail
inline void set_stream_hooks(StreamPutHook put, StreamGetHook get) {
    detail::stream_put_hook.store(put, std::memory_order_relaxed);
    detail::stream_get_hook.store(get, std::memory_order_relaxed);
}
inline void stream_put_word(std::uint32_t word) {
    auto h = detail::stream_put_hook.load(std::memory_order_relaxed);
    if (!h) throw std::logic_error("put_ms: no stream port is connected (the kernel runs outside a simulated core)");
    h(word);
}
inline std::uint32_t stream_get_word() {
    auto h = detail::stream_get_hook.load(std::memory_order_relaxed);
    if (!h) throw std::logic_error("get_ss: no stream port is connected (the kernel runs outside a simulated core)");
    return h();
}

} // namespace npusim::aie_api

inline void put_ms(int value, int tlast = 0) {
    (void)tlast; // see the header comment: no effect on a circuit-switched flow
    npusim::aie_api::stream_put_word(static_cast<std::uint32_t>(value));
}
inline void put_ms(unsigned value, int tlast = 0) {
    (void)tlast;
    npusim::aie_api::stream_put_word(value);
}
inline void put_ms(float value, int tlast = 0) {
    (void)tlast;
    npusim::aie_api::stream_put_word(std::bit_cast<std::uint32_t>(value));
}
inline int get_ss() { return static_cast<int>(npusim::aie_api::stream_get_word()); }
inline unsigned get_ss_uint() { return npusim::aie_api::stream_get_word(); }
inline float get_ss_float() { return std::bit_cast<float>(npusim::aie_api::stream_get_word()); }
