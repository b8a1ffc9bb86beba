// The cascade halves of the input-split bottleneck 1x1 convolution (conv2dk1_partial.hpp).
#include <npusim/kernels/conv2dk1_partial.hpp>

#include <algorithm>
#include <string>

namespace npusim::kernels {

namespace {

void check_partial(const void* input, const std::int8_t* weights, std::int32_t width, std::int32_t ci,
                   std::int32_t split, std::int32_t oc, std::int32_t min_split, const char* name) {
    detail::require_non_null(input, name, "input");
    detail::require_non_null(weights, name, "weights");
    if (width < kPartialConvPixels)
        detail::fail(name, "width must be at least 7, the pixels the kernel computes (got " + std::to_string(width) +
                               ")");
    if (split < min_split)
        detail::fail(name, "input_split must be at least " + std::to_string(min_split) + " (got " +
                               std::to_string(split) + ")");
    if (ci <= 0 || ci % (8 * split) != 0)
        detail::fail(name, "input_channels must be a positive multiple of 8 * input_split (got " + std::to_string(ci) +
                               ")");
    if (oc < 0) detail::fail(name, "oc must be >= 0 (got " + std::to_string(oc) + ")");
}

// The sum over input channels [first, first + chunk) of pixel `px` times the weights of output
// channel o8 of group `oc` (the call's chunk, [oc][chunk/8][ci%8][co%8]).
template <class TIn>
std::int64_t partial_dot(const TIn* input, const std::int8_t* weights, std::int32_t width,
                         std::int32_t first, std::int32_t chunk, std::int32_t oc, std::int32_t px, std::int32_t o8) {
    std::int64_t s = 0;
    for (std::int32_t i = 0; i < chunk; ++i) {
        const std::int32_t c = first + i;
        const std::int64_t a = input[static_cast<std::int64_t>(c / 8) * width * 8 + px * 8 + c % 8];
        const std::int64_t w = weights[static_cast<std::int64_t>(oc) * chunk * 8 + (i / 8) * 64 + (i % 8) * 8 + o8];
        s += a * w;
    }
    return s;
}

// total / 2^scale to the nearest integer, ties to the even one (floor division first).
std::int64_t partial_round_even(std::int64_t total, std::int32_t scale) {
    const std::int64_t unit = std::int64_t{1} << scale;
    std::int64_t q = total >= 0 ? total / unit : -((-total + unit - 1) / unit);
    const std::int64_t rem2 = 2 * (total - q * unit);
    if (rem2 > unit || (rem2 == unit && (q & 1) != 0)) ++q;
    return q;
}

// The put half: lanes 0-7 of one v16acc64 per pixel, the sums over the first chunk.
template <class TIn>
void partial_put(const TIn* input, const std::int8_t* weights, std::int32_t width, std::int32_t ci, std::int32_t split,
                 std::int32_t oc, CascadePut put, const char* name) {
    check_partial(input, weights, width, ci, split, oc, 1, name);
    const std::int32_t chunk = ci / split;
    for (std::int32_t px = 0; px < kPartialConvPixels; ++px) {
        std::int64_t lanes[16] = {};
        for (std::int32_t o8 = 0; o8 < 8; ++o8)
            lanes[o8] = static_cast<std::int32_t>(partial_dot(input, weights, width, 0, chunk, oc, px, o8));
        put(lanes);
        put(lanes + 8);
    }
}

// The get halves' output group: oc + output_channels / (8 * output_split) * weight_index.
std::int64_t partial_out_group(std::int32_t co, std::int32_t output_split, std::int32_t weight_index,
                               std::int32_t oc, const char* name) {
    if (output_split < 1 || co <= 0 || co % 8 != 0)
        detail::fail(name, "output_channels must be a positive multiple of 8 and output_split at least 1 (got " +
                               std::to_string(co) + ", " + std::to_string(output_split) + ")");
    const std::int64_t group = oc + static_cast<std::int64_t>(co / (8 * output_split)) * weight_index;
    if (group < 0 || group >= co / 8)
        detail::fail(name, "output channel group " + std::to_string(group) + " (oc + output_channels / (8 * "
                               "output_split) * weight_index) is outside the output's " + std::to_string(co / 8));
    return group;
}

} // namespace

void conv2dk1_partial_put_i8(const std::int8_t* input, const std::int8_t* weights, std::int32_t width,
                             std::int32_t ci, std::int32_t, std::int32_t split, std::int32_t, std::int32_t,
                             std::int32_t oc, CascadePut put) {
    partial_put(input, weights, width, ci, split, oc, put, "conv2dk1_partial_put_i8");
}

void conv2dk1_partial_put_ui8(const std::uint8_t* input, const std::int8_t* weights, std::int32_t width,
                              std::int32_t ci, std::int32_t, std::int32_t split, std::int32_t, std::int32_t,
                              std::int32_t oc, CascadePut put) {
    partial_put(input, weights, width, ci, split, oc, put, "conv2dk1_partial_put_ui8");
}

void conv2dk1_partial_get_relu_i8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                                  std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t scale,
                                  std::int32_t split, std::int32_t output_split, std::int32_t weight_index,
                                  std::int32_t, std::int32_t oc, CascadeGet get) {
    constexpr const char* name = "conv2dk1_partial_get_relu_i8";
    check_partial(input, weights, width, ci, split, oc, 2, name);
    detail::require_non_null(output, name, "output");
    if (scale < 1 || scale > 31) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    const std::int64_t group = partial_out_group(co, output_split, weight_index, oc, name);
    const std::int32_t chunk = ci / split;
    for (std::int32_t px = 0; px < kPartialConvPixels; ++px) {
        std::int64_t lanes[16];
        get(lanes);
        get(lanes + 8);
        for (std::int32_t o8 = 0; o8 < 8; ++o8) {
            const std::int64_t mine = static_cast<std::int32_t>(partial_dot(input, weights, width, chunk, chunk, oc, px, o8));
            const std::int64_t total = mine + static_cast<std::int32_t>(static_cast<std::uint32_t>(lanes[o8]));
            output[group * width * 8 + px * 8 + o8] =
                static_cast<std::uint8_t>(std::clamp<std::int64_t>(partial_round_even(total, scale), 0, 255));
        }
    }
}

void conv2dk1_partial_get_skip_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                                  const std::int8_t* skip, std::int32_t width, std::int32_t ci, std::int32_t co,
                                  std::int32_t scale, std::int32_t skip_scale, std::int32_t split,
                                  std::int32_t output_split, std::int32_t weight_index, std::int32_t, std::int32_t oc,
                                  CascadeGet get) {
    constexpr const char* name = "conv2dk1_partial_get_skip_i8";
    check_partial(input, weights, width, ci, split, oc, 1, name);
    detail::require_non_null(output, name, "output");
    detail::require_non_null(skip, name, "skip");
    if (scale < 1 || scale > 31) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    if (skip_scale < 0 || skip_scale > 31)
        detail::fail(name, "skip_scale must be in 0..31 (got " + std::to_string(skip_scale) + ")");
    const std::int64_t group = partial_out_group(co, output_split, weight_index, oc, name);
    const std::int32_t chunk = ci / split;
    for (std::int32_t px = 0; px < kPartialConvPixels; ++px) {
        std::int64_t lanes[16];
        get(lanes);
        get(lanes + 8);
        for (std::int32_t o8 = 0; o8 < 8; ++o8) {
            // this half's sums are over the FIRST chunk of its own input, as the put half's
            const std::int64_t mine = static_cast<std::int32_t>(partial_dot(input, weights, width, 0, chunk, oc, px, o8));
            const std::int64_t total = mine + static_cast<std::int32_t>(static_cast<std::uint32_t>(lanes[o8]));
            const std::int64_t conv = std::clamp<std::int64_t>(partial_round_even(total, scale), -128, 127);
            const std::int64_t at = group * width * 8 + px * 8 + o8; // skip and output share the layout
            const std::int64_t with_skip = conv + skip[at];
            // skip_scale 0 leaves the sum as it is (the source's 1 << (0 - 1) there is undefined in C)
            const std::int64_t r = skip_scale > 0 ? partial_round_even(with_skip, skip_scale) : with_skip;
            output[at] = static_cast<std::int8_t>(std::clamp<std::int64_t>(r, -128, 127));
        }
    }
}

std::uint64_t conv2dk1_partial_cycles(std::int32_t ci, std::int32_t split, bool get) {
    const std::uint64_t chunk = ci <= 0 ? 0 : static_cast<std::uint64_t>(ci / std::max<std::int32_t>(split, 1));
    return kPartialConvPixels * 8 * chunk + (get ? kPartialConvPixels * 8 : 0);
}

std::uint64_t conv2dk1_partial_skip_cycles(std::int32_t ci, std::int32_t split) {
    return conv2dk1_partial_cycles(ci, split, true) + kPartialConvPixels * 8;
}

} // namespace npusim::kernels
