// The built-in library's split bottleneck stage (KernelLibraryConvSplit.hpp): mlir-aie
// python/iron/kernels/conv.py bn_conv2dk3_dw_out_split, bn_conv2dk1_input_split_partial_put_ui8 and
// bn_conv2dk1_input_split_partial_skip_get (:542-668 at 3ca0193). The cascade halves' words go to the
// calling worker's cascade output and come from its cascade input (frontend/Worker.hpp cascade_put /
// cascade_get for the references; the AIE-API builds' put_mcd / get_scd_v16acc64 reach the same
// through the hooks AieKernel.hpp installs). The buffers are sized by the factory, so every call
// checks what it reads and writes lies in them before the kernel runs.
#include "npusim/harness/KernelLibraryConvSplit.hpp"

#include "CheckedKernel.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/kernels/conv2dk1_partial.hpp"
#include "npusim/kernels/conv2dk3.hpp"
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
void ref_split_put(const std::uint8_t* in, const std::int8_t* w, std::int32_t width, std::int32_t ci, std::int32_t co,
                   std::int32_t split, std::int32_t wi, std::int32_t x, std::int32_t oc) {
    kernels::conv2dk1_partial_put_ui8(in, w, width, ci, co, split, wi, x, oc, &iron::cascade_put);
}
void ref_split_get(const std::uint8_t* in, const std::int8_t* w, std::int8_t* out, const std::int8_t* skip,
                   std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t scale, std::int32_t skip_scale,
                   std::int32_t split, std::int32_t out_split, std::int32_t wi, std::int32_t x, std::int32_t oc) {
    kernels::conv2dk1_partial_get_skip_i8(in, w, out, skip, width, ci, co, scale, skip_scale, split, out_split, wi, x,
                                          oc, &iron::cascade_get);
}

void require_split_block(const char* factory, std::int64_t block) {
    if (block != 13 && block != 14) // conv.py:446-451
        throw DesignError(fmt::format("{}(): block_index must be 13 or 14 (the only per-block symbols defined in "
                                      "the .cc), got {}.",
                                      factory, block));
}

void require_split_channels(const char* factory, const char* what, std::int64_t c) {
    if (c <= 0 || c % 8 != 0 || c > 4096)
        throw DesignError(fmt::format("{}(): {}={} must be a positive multiple of 8 up to 4096", factory, what, c));
}

void require_split_factory(const char* factory, std::int64_t w, std::int64_t ci, std::int64_t wc,
                           std::int64_t block) {
    require_split_block(factory, block);
    if (w < 7 || w > 4096)
        throw DesignError(fmt::format("{}(): input_width={} must be in 7..4096: the kernel computes pixels 0..6 "
                                      "(pixel_limit = 7)",
                                      factory, w));
    require_split_channels(factory, "input_channels", ci);
    if (wc <= 0) throw DesignError(fmt::format("{}(): weight_count={} must be positive", factory, wc));
}

// width, the call's input_channels, input_split and oc of a cascade half's call
struct SplitCall {
    std::int64_t width, ci, split, oc;
};

// The call reads input_channels / input_split channels of its own input (the factory's
// input_channels hold them) and (oc + 1) groups of 8 x chunk weights.
void check_split_call(const std::string& name, const SplitCall& c, std::int64_t w, std::int64_t ci, std::int64_t wc) {
    if (c.width != w)
        throw std::invalid_argument(fmt::format("{}: input_width={} must be the factory's {}", name, c.width, w));
    if (c.split < 1 || c.ci <= 0 || c.ci % (8 * c.split) != 0 || c.ci / c.split > ci)
        throw std::invalid_argument(fmt::format("{}: input_channels={} / input_split={} must be a positive multiple "
                                                "of 8 of at most the factory's {} input channels (the channels the "
                                                "call reads from its input)",
                                                name, c.ci, c.split, ci));
    const std::int64_t chunk = c.ci / c.split, need = (c.oc + 1) * 8 * chunk;
    if (c.oc < 0 || need > wc)
        throw std::invalid_argument(fmt::format("{}: oc={} needs {} weights (8 output channels x {} input channels "
                                                "per group), the factory's weight_count is {}",
                                                name, c.oc, need, chunk, wc));
}

} // namespace

Kernel bn_conv2dk3_dw_out_split(std::int64_t w, std::int64_t ci, std::int64_t split_c, std::int64_t block,
                                KernelSet ks) {
    constexpr const char* factory = "bn_conv2dk3_dw_out_split";
    require_split_block(factory, block);
    if (w < 2 || w > 256)
        throw DesignError(fmt::format("{}(): input_width={} must be in 2..256 (the kernel's borders read two "
                                      "pixels; npusim's build holds 256)",
                                      factory, w));
    require_split_channels(factory, "input_channels", ci);
    require_split_channels(factory, "output_split_channels", split_c);
    const auto i32 = iron::scalar<std::int32_t>();
    const auto line = iron::tensor<std::uint8_t>({w * ci});
    const auto out = iron::tensor<std::uint8_t>({w * split_c});
    std::vector<ArgType> types{line, line, line, iron::tensor<std::int8_t>({9 * ci}), out, out, i32, i32, i32, i32,
                               i32, i32, i32, i32};
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk3_dw_cycles(static_cast<std::int32_t>(a[6].ivalue),
                                           static_cast<std::int32_t>(a[8].ivalue),
                                           static_cast<std::int32_t>(a[11].ivalue));
    };
    const std::string name = fmt::format("bn{}_conv2dk3_ui8_out_split", block);
    auto check = [name, w, ci, split_c](std::span<const KernelArg> a) {
        const std::int64_t co = a[8].ivalue;
        if (a[6].ivalue != w)
            throw std::invalid_argument(fmt::format("{}: input_width={} must be the factory's {}", name, a[6].ivalue, w));
        // output1 takes the first (co / 2) / 8 groups, output2 the rest (bn_conv2dk3_dw.cc:73-80)
        const std::int64_t first = co / 2 / 8 * 8, second = co - first;
        if (co <= 0 || co % 8 != 0 || co > ci || first > split_c || second > split_c)
            throw std::invalid_argument(fmt::format("{}: output_channels={} must be a positive multiple of 8 of at "
                                                    "most the factory's input_channels {}, each half ({} and {} "
                                                    "channels) at most its output_split_channels {}",
                                                    name, co, ci, first, second, split_c));
        if (a[9].ivalue != 3 || a[10].ivalue != 3 || a[11].ivalue < 0 || a[11].ivalue > 2 || a[12].ivalue < 1 ||
            a[12].ivalue > 31)
            throw std::invalid_argument(fmt::format("{}: kernel {} x {}, check {} and scale {} must be 3 x 3, 0..2 "
                                                    "and 1..31",
                                                    name, a[9].ivalue, a[10].ivalue, a[11].ivalue, a[12].ivalue));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk3_dw_out_split_ui8, true, std::move(types), cost,
                                      check);
    return detail::checked_kernel(name, &kernels::conv2dk3_dw_out_split_u8, false, std::move(types), cost, check);
}

Kernel bn_conv2dk1_input_split_partial_put_ui8(std::int64_t w, std::int64_t ci, std::int64_t wc, std::int64_t block,
                                               KernelSet ks) {
    require_split_factory("bn_conv2dk1_input_split_partial_put_ui8", w, ci, wc, block);
    const auto i32 = iron::scalar<std::int32_t>();
    std::vector<ArgType> types{iron::tensor<std::uint8_t>({w * ci}), iron::tensor<std::int8_t>({wc}), i32, i32, i32,
                               i32, i32, i32, i32};
    const std::string name = fmt::format("bn{}_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new", block);
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_partial_cycles(static_cast<std::int32_t>(a[3].ivalue),
                                                static_cast<std::int32_t>(a[5].ivalue), false);
    };
    auto check = [name, w, ci, wc](std::span<const KernelArg> a) {
        check_split_call(name, {a[2].ivalue, a[3].ivalue, a[5].ivalue, a[8].ivalue}, w, ci, wc);
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk1_partial_put_ui8, true, std::move(types), cost,
                                      check);
    return detail::checked_kernel(name, &ref_split_put, false, std::move(types), cost, check);
}

Kernel bn_conv2dk1_input_split_partial_skip_get(std::int64_t w, std::int64_t ci, std::int64_t co, std::int64_t wc,
                                                std::int64_t block, KernelSet ks) {
    constexpr const char* factory = "bn_conv2dk1_input_split_partial_skip_get";
    require_split_factory(factory, w, ci, wc, block);
    require_split_channels(factory, "output_channels", co);
    const auto i32 = iron::scalar<std::int32_t>();
    const auto act = iron::tensor<std::int8_t>({w * co});
    std::vector<ArgType> types{iron::tensor<std::uint8_t>({w * ci}), iron::tensor<std::int8_t>({wc}), act, act, i32,
                               i32, i32, i32, i32, i32, i32, i32, i32, i32};
    const std::string name = fmt::format("bn_{}_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new", block);
    auto cost = [](std::span<const KernelArg> a) {
        return kernels::conv2dk1_partial_skip_cycles(static_cast<std::int32_t>(a[5].ivalue),
                                                     static_cast<std::int32_t>(a[9].ivalue));
    };
    auto check = [name, w, ci, co, wc](std::span<const KernelArg> a) {
        check_split_call(name, {a[4].ivalue, a[5].ivalue, a[9].ivalue, a[13].ivalue}, w, ci, wc);
        if (a[6].ivalue != co)
            throw std::invalid_argument(
                fmt::format("{}: output_channels={} must be the factory's {}", name, a[6].ivalue, co));
        if (a[7].ivalue < 1 || a[7].ivalue > 31 || a[8].ivalue < 0 || a[8].ivalue > 31)
            throw std::invalid_argument(fmt::format("{}: scale={} and skip_scale={} must be in 1..31 and 0..31 (the "
                                                    "source rounds with 1 << (scale - 1))",
                                                    name, a[7].ivalue, a[8].ivalue));
        const std::int64_t out_split = a[10].ivalue, wi = a[11].ivalue;
        if (out_split < 1 || out_split > co / 8)
            throw std::invalid_argument(
                fmt::format("{}: output_split={} must be in 1..{} (output_channels / 8)", name, out_split, co / 8));
        const std::int64_t group = a[13].ivalue + co / (8 * out_split) * wi;
        if (group < 0 || group >= co / 8)
            throw std::invalid_argument(fmt::format("{}: output channel group {} (oc + output_channels / (8 * "
                                                    "output_split) * weight_index) is outside the output's {}",
                                                    name, group, co / 8));
    };
    if (ks == KernelSet::aie)
        return detail::checked_kernel(name, &aie_kernels::conv2dk1_partial_get_skip_i8, true, std::move(types), cost,
                                      check);
    return detail::checked_kernel(name, &ref_split_get, false, std::move(types), cost, check);
}

} // namespace npusim::harness::iron_kernels
