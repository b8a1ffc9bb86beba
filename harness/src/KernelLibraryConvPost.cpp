// The built-in library's post-stage 1x1 kernels of the bottleneck (KernelLibraryConv.hpp): mlir-aie
// python/iron/kernels/conv.py bn_conv2dk1_relu_xy_pool_padded (:402-443) and bn_fc_relu_ui16_pad
// (:669-706) at 3ca0193, MobileNet V3's head (ml/mobilenet/bottleneck/post_l1.py, post_l2.py). The
// buffers are sized by the factory while the kernels take their extents as run-time arguments (a
// weight chunk of output_channels / output_split channels, padding up to output_channels_padd, a
// row of input_width x input_channels), so every call checks what it would read or write lies in
// them before the kernel runs.
#include "CheckedKernel.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/kernels/conv2dk1_pool.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

#include <climits>
#include <stdexcept>
#include <string>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

void require_post_channels(const char* factory, const char* in_name, std::int64_t ci, std::int64_t co) {
    if (ci <= 0 || ci % 8 != 0 || ci > 4096 || co <= 0 || co % 8 != 0 || co > 4096)
        throw DesignError(fmt::format("{}(): {}={} and output_channels={} must be positive multiples of 8 up to 4096",
                                      factory, in_name, ci, co));
}

std::int64_t post_weight_count(const char* factory, std::optional<std::int64_t> chunk, std::int64_t full) {
    if (!chunk) return full; // conv.py:431-435, :694-698: the whole input_channels * output_channels tile
    if (*chunk <= 0) throw DesignError(fmt::format("{}(): weight_chunk_count={} must be positive", factory, *chunk));
    return *chunk;
}

void check_post_scale(const std::string& name, std::int64_t scale) {
    if (scale < 1 || scale > 31)
        throw std::invalid_argument(
            fmt::format("{}: scale={} must be in 1..31 (the source rounds with 1 << (scale - 1))", name, scale));
}

// The scalar arguments a[3..] reach the kernel as int32 (its parameters): a value outside int32 would
// be cut to its low bits there, and the checks below multiply them, so they come first.
void check_post_int32(const std::string& name, std::span<const KernelArg> a) {
    for (std::size_t i = 3; i < a.size(); ++i)
        if (a[i].ivalue < INT32_MIN || a[i].ivalue > INT32_MAX)
            throw std::invalid_argument(
                fmt::format("{}: argument {} = {} does not fit the kernel's int32 parameter", name, i, a[i].ivalue));
}

// a[3..10]: width, ci, output_channels, output_channels_padd, scale, y_index, output_split, weight_index
void check_pool_call(const std::string& name, std::span<const KernelArg> a, std::int64_t w, std::int64_t ci,
                     std::int64_t co, std::int64_t wc) {
    check_post_int32(name, a);
    if (a[3].ivalue != w || a[4].ivalue != ci)
        throw std::invalid_argument(fmt::format("{}: input_width={} and input_channels={} must be the factory's {} "
                                                "and {}",
                                                name, a[3].ivalue, a[4].ivalue, w, ci));
    const std::int64_t co_k = a[5].ivalue, padd = a[6].ivalue, split = a[9].ivalue, wi = a[10].ivalue;
    if (split < 1 || co_k <= 0 || co_k % (8 * split) != 0)
        throw std::invalid_argument(fmt::format("{}: output_channels={} must be a positive multiple of 8 * "
                                                "output_split={} (each chunk is whole 8-channel groups)",
                                                name, co_k, split));
    const std::int64_t tile = co_k / split;
    if (wi < 0 || tile * (wi + 1) > co)
        throw std::invalid_argument(fmt::format("{}: weight_index={} writes output channels [{}, {}), outside the "
                                                "factory's output_channels={}",
                                                name, wi, tile * wi, tile * (wi + 1), co));
    if (padd > co)
        throw std::invalid_argument(fmt::format("{}: output_channels_padd={} exceeds the factory's output_channels={} "
                                                "(the padding writes up to it)",
                                                name, padd, co));
    if (tile * ci > wc)
        throw std::invalid_argument(fmt::format("{}: a chunk of {} output channels (output_channels / output_split) "
                                                "needs {} weights, the factory's weight chunk holds {}",
                                                name, tile, tile * ci, wc));
    check_post_scale(name, a[7].ivalue);
}

// a[3..7]: width, input_channels, input_channels_pad, output_channels, scale
void check_fc_call(const std::string& name, std::span<const KernelArg> a, std::int64_t ci, std::int64_t co,
                   std::int64_t wc) {
    check_post_int32(name, a);
    const std::int64_t w = a[3].ivalue, ci_k = a[4].ivalue, pad = a[5].ivalue, co_k = a[6].ivalue;
    if (w < 1 || ci_k <= 0 || ci_k % 8 != 0 || w * ci_k > ci)
        throw std::invalid_argument(fmt::format("{}: input_width={} x input_channels={} must be positive, "
                                                "input_channels a multiple of 8, and read at most the factory's {} "
                                                "activations",
                                                name, w, ci_k, ci));
    if (pad < ci_k || pad % 8 != 0)
        throw std::invalid_argument(fmt::format("{}: input_channels_pad={} must be a multiple of 8 at least "
                                                "input_channels={}",
                                                name, pad, ci_k));
    if (co_k <= 0 || co_k % 8 != 0 || w * co_k > co)
        throw std::invalid_argument(fmt::format("{}: input_width={} x output_channels={} must be positive, "
                                                "output_channels a multiple of 8, and write at most the factory's {} "
                                                "outputs",
                                                name, w, co_k, co));
    const std::int64_t need = (co_k / 8 - 1) * pad * 8 + ci_k * 8; // the last group's row ends at ci_k
    if (need > wc)
        throw std::invalid_argument(fmt::format("{}: output_channels={} over weight rows of input_channels_pad={} "
                                                "read {} weights, the factory's weight chunk holds {}",
                                                name, co_k, pad, need, wc));
    check_post_scale(name, a[7].ivalue);
}

} // namespace

Kernel bn_conv2dk1_relu_xy_pool_padded(std::int64_t w, std::int64_t ci, std::int64_t co,
                                       std::optional<std::int64_t> weight_chunk_count, KernelSet ks) {
    constexpr const char* factory = "bn_conv2dk1_relu_xy_pool_padded";
    if (w < 1 || w > 1024)
        throw DesignError(fmt::format("{}(): input_width={} must be in 1..1024 (npusim's build)", factory, w));
    require_post_channels(factory, "input_channels", ci, co);
    const std::int64_t wc = post_weight_count(factory, weight_chunk_count, ci * co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::int8_t>({w * ci}),
                               iron::tensor<std::int8_t>({wc}),
                               iron::tensor<std::uint16_t>({co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    const std::string name = "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8";
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_xy_pool_cycles(
            static_cast<std::int32_t>(a[3].ivalue), static_cast<std::int32_t>(a[4].ivalue),
            static_cast<std::int32_t>(a[5].ivalue), static_cast<std::int32_t>(a[6].ivalue),
            static_cast<std::int32_t>(a[9].ivalue));
    };
    auto check = [name, w, ci, co, wc](std::span<const KernelArg> a) { check_pool_call(name, a, w, ci, co, wc); };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8, true,
                                      std::move(types), cost, check);
    return detail::checked_kernel(name, &kernels::conv2dk1_xy_pool_padded_u16, false, std::move(types), cost, check);
}

Kernel bn_fc_relu_ui16_pad(std::int64_t ci, std::int64_t co, std::optional<std::int64_t> weight_chunk_count,
                           KernelSet ks) {
    constexpr const char* factory = "bn_fc_relu_ui16_pad";
    require_post_channels(factory, "input_channels", ci, co);
    const std::int64_t wc = post_weight_count(factory, weight_chunk_count, ci * co);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::uint16_t>({ci}),
                               iron::tensor<std::int8_t>({wc}),
                               iron::tensor<std::uint16_t>({co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    const std::string name = "post_L2_conv2dk1_relu_i16_ui16_pad";
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_fc_cycles(static_cast<std::int32_t>(a[3].ivalue),
                                           static_cast<std::int32_t>(a[4].ivalue),
                                           static_cast<std::int32_t>(a[6].ivalue));
    };
    auto check = [name, ci, co, wc](std::span<const KernelArg> a) { check_fc_call(name, a, ci, co, wc); };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::post_L2_conv2dk1_relu_i16_ui16_pad, true, std::move(types),
                                      cost, check);
    return detail::checked_kernel(name, &kernels::conv2dk1_fc_relu_pad_u16, false, std::move(types), cost, check);
}

} // namespace npusim::harness::iron_kernels
