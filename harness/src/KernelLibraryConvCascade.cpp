// The built-in library's cascade halves of the bottleneck 1x1 convolution split by input channels
// (KernelLibraryConv.hpp): mlir-aie python/iron/kernels/conv.py bn_conv2dk1_partial_put_i8 and
// bn_conv2dk1_partial_get_relu_i8 (:454-539 at 3ca0193). The put half's words go to the calling
// worker's cascade output and the get half reads its cascade input (frontend/Worker.hpp
// cascade_put / cascade_get for the references; the AIE-API builds' put_mcd / get_scd_v16acc64 reach
// the same through the hooks AieKernel.hpp installs). The buffers are sized by the factory, so every
// call checks its width, channels, split and weight group before the kernel runs.
#include "CheckedKernel.hpp"
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/kernels/conv2dk1_partial.hpp"
#include "npusim/model/Error.hpp"

#include <npusim/aie_kernels.hpp>

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace npusim::harness::iron_kernels {

using iron::ArgType;
using iron::Kernel;
using iron::KernelArg;

namespace {

// The reference halves with the worker's cascade as their wire (the kernel signatures IRON declares).
void ref_partial_put(const std::int8_t* in, const std::int8_t* w, std::int32_t width, std::int32_t ci,
                     std::int32_t co, std::int32_t split, std::int32_t wi, std::int32_t x, std::int32_t oc) {
    kernels::conv2dk1_partial_put_i8(in, w, width, ci, co, split, wi, x, oc, &iron::cascade_put);
}
void ref_partial_get(const std::int8_t* in, const std::int8_t* w, std::uint8_t* out, std::int32_t width,
                     std::int32_t ci, std::int32_t co, std::int32_t scale, std::int32_t split, std::int32_t out_split,
                     std::int32_t wi, std::int32_t x, std::int32_t oc) {
    kernels::conv2dk1_partial_get_relu_i8(in, w, out, width, ci, co, scale, split, out_split, wi, x, oc,
                                          &iron::cascade_get);
}

void require_partial_factory(const char* factory, std::int64_t w, std::int64_t ci, std::int64_t wc,
                             std::int64_t block) {
    if (block != 13 && block != 14) // conv.py:445-451
        throw DesignError(fmt::format("{}(): block_index must be 13 or 14 (the only per-block symbols defined in "
                                      "the .cc), got {}.",
                                      factory, block));
    if (w < 7 || w > 4096)
        throw DesignError(fmt::format("{}(): input_width={} must be in 7..4096: the kernel computes pixels 0..6 "
                                      "(pixel_limit = 7)",
                                      factory, w));
    if (ci < 16 || ci % 8 != 0 || ci > 4096)
        throw DesignError(fmt::format("{}(): input_channels={} must be a multiple of 8 in 16..4096 (two chunks "
                                      "of 8-channel groups at least)",
                                      factory, ci));
    if (wc <= 0) throw DesignError(fmt::format("{}(): weight_count={} must be positive", factory, wc));
}

// a[2..7] of the put half / a[3..] of the get half: width, ci, co, (scale,) split, ..., oc
struct PartialCall {
    std::int64_t width, ci, co, split, oc;
};

void check_partial_call(const std::string& name, const PartialCall& c, std::int64_t w, std::int64_t ci,
                        std::int64_t co, std::int64_t wc, std::int64_t min_split) {
    if (c.width != w || c.ci != ci || (co > 0 && c.co != co))
        throw std::invalid_argument(fmt::format("{}: input_width={}, input_channels={} must be the factory's {}, {}{}",
                                                name, c.width, c.ci, w, ci,
                                                co > 0 ? fmt::format(" (output_channels={}, the factory's {})", c.co, co)
                                                       : std::string()));
    if (c.split < min_split || c.split > ci / 8 || ci % (8 * c.split) != 0)
        throw std::invalid_argument(fmt::format("{}: input_split={} must be at least {} and split the {} input "
                                                "channels into multiples of 8",
                                                name, c.split, min_split, ci));
    const std::int64_t need = (c.oc + 1) * 8 * (ci / c.split);
    if (c.oc < 0 || need > wc)
        throw std::invalid_argument(fmt::format("{}: oc={} needs {} weights (8 output channels x {} input channels "
                                                "per group), the factory's weight_count is {}",
                                                name, c.oc, need, ci / c.split, wc));
}

} // namespace

Kernel bn_conv2dk1_partial_put_i8(std::int64_t w, std::int64_t ci, std::int64_t wc, std::int64_t block,
                                  KernelSet ks) {
    require_partial_factory("bn_conv2dk1_partial_put_i8", w, ci, wc, block);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::int8_t>({w * ci}), iron::tensor<std::int8_t>({wc}), i32, i32, i32,
                               i32, i32, i32, i32};
    const std::string name = fmt::format("bn{}_1_conv2dk1_i8_ui8_partial_width_put_new", block);
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_partial_cycles(static_cast<std::int32_t>(a[3].ivalue),
                                                static_cast<std::int32_t>(a[5].ivalue), false);
    };
    auto check = [name, w, ci, wc](std::span<const KernelArg> a) {
        check_partial_call(name, {a[2].ivalue, a[3].ivalue, a[4].ivalue, a[5].ivalue, a[8].ivalue}, w, ci, 0, wc, 1);
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk1_partial_put_i8, true, std::move(types), cost, check);
    return detail::checked_kernel(name, &ref_partial_put, false, std::move(types), cost, check);
}

Kernel bn_conv2dk1_partial_get_relu_i8(std::int64_t w, std::int64_t ci, std::int64_t co, std::int64_t wc,
                                       std::int64_t block, KernelSet ks) {
    require_partial_factory("bn_conv2dk1_partial_get_relu_i8", w, ci, wc, block);
    if (co <= 0 || co % 8 != 0 || co > 4096)
        throw DesignError(fmt::format("bn_conv2dk1_partial_get_relu_i8(): output_channels={} must be a positive "
                                      "multiple of 8 up to 4096",
                                      co));
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::int8_t>({w * ci}),
                               iron::tensor<std::int8_t>({wc}),
                               iron::tensor<std::uint8_t>({w * co}),
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32,
                               i32};
    const std::string name = fmt::format("bn{}_1_conv2dk1_i8_ui8_partial_width_get_new", block);
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_partial_cycles(static_cast<std::int32_t>(a[4].ivalue),
                                                static_cast<std::int32_t>(a[7].ivalue), true);
    };
    auto check = [name, w, ci, co, wc](std::span<const KernelArg> a) {
        check_partial_call(name, {a[3].ivalue, a[4].ivalue, a[5].ivalue, a[7].ivalue, a[11].ivalue}, w, ci, co, wc, 2);
        if (a[6].ivalue < 1 || a[6].ivalue > 31)
            throw std::invalid_argument(fmt::format("{}: scale={} must be in 1..31 (the source rounds with "
                                                    "1 << (scale - 1))",
                                                    name, a[6].ivalue));
        const std::int64_t out_split = a[8].ivalue, wi = a[9].ivalue;
        if (out_split < 1 || out_split > co / 8)
            throw std::invalid_argument(
                fmt::format("{}: output_split={} must be in 1..{} (output_channels / 8)", name, out_split, co / 8));
        const std::int64_t group = a[11].ivalue + co / (8 * out_split) * wi;
        if (group < 0 || group >= co / 8)
            throw std::invalid_argument(fmt::format("{}: output channel group {} (oc + output_channels / (8 * "
                                                    "output_split) * weight_index) is outside the output's {}",
                                                    name, group, co / 8));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk1_partial_get_relu_i8, true, std::move(types), cost,
                                      check);
    return detail::checked_kernel(name, &ref_partial_get, false, std::move(types), cost, check);
}

} // namespace npusim::harness::iron_kernels
