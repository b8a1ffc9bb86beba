#include <npusim/kernels/conv2d.hpp>

#include <algorithm>
#include <limits>
#include <string>

namespace npusim::kernels {

namespace {

void require_channels(std::int32_t c, const char* name, const char* arg) {
    if (c <= 0 || c % 8 != 0)
        detail::fail(name, std::string(arg) + " must be a positive multiple of 8 (got " + std::to_string(c) + ")");
}

} // namespace

namespace {

// sign(v) * (|v| rounded half up at `scale`): ties away from zero (symmetric_inf)
std::int64_t srs_ties_away(std::int64_t v, std::int32_t scale) {
    const std::int64_t mag = v < 0 ? -v : v;
    const std::int64_t r = scale > 0 ? (mag + (std::int64_t{1} << (scale - 1))) >> scale : mag;
    return v < 0 ? -r : r;
}

// floor(v / 2^scale + 1/2): ties toward +infinity (positive_inf)
std::int64_t srs_half_up(std::int64_t v, std::int32_t scale) {
    return scale > 0 ? (v + (std::int64_t{1} << (scale - 1))) >> scale : v;
}

void check_conv(const void* input, const void* weights, const void* output, std::int32_t width,
                std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale, const char* name) {
    detail::require_non_null(input, name, "input");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    if (width <= 0) detail::fail(name, "width must be positive (got " + std::to_string(width) + ")");
    require_channels(input_channels, name, "input_channels");
    require_channels(output_channels, name, "output_channels");
    if (scale < 0 || scale > 31) detail::fail(name, "scale must be in 0..31 (got " + std::to_string(scale) + ")");
}

// The 1x1 convolution of one row in the YCXC8 / OIYXI8O8 layouts; `finish(sum, index)` maps each sum to
// the output element at that index.
template <class TIn, class TOut, class F>
void conv1x1(const TIn* input, const std::int8_t* weights, TOut* output, std::int32_t width,
             std::int32_t input_channels, std::int32_t output_channels, F finish) {
    const std::int32_t ic8s = input_channels / 8;
    for (std::int32_t oc8 = 0; oc8 < output_channels / 8; ++oc8)
        for (std::int32_t x = 0; x < width; ++x)
            for (std::int32_t o = 0; o < 8; ++o) {
                std::int64_t sum = 0;
                for (std::int32_t ic8 = 0; ic8 < ic8s; ++ic8)
                    for (std::int32_t i = 0; i < 8; ++i)
                        sum += std::int64_t{input[(ic8 * width + x) * 8 + i]} *
                               weights[((oc8 * ic8s + ic8) * 8 + i) * 8 + o];
                const std::int64_t at = (oc8 * width + x) * 8 + o;
                output[at] = finish(sum, at);
            }
}

// (v + 2^(scale-1) - 1 + ((v >> scale) & 1)) >> scale, arithmetic shifts: ties to even
std::int64_t srs_half_even(std::int64_t v, std::int32_t scale) {
    const std::int64_t q = v >> scale, rem = v - (q << scale), half = std::int64_t{1} << (scale - 1);
    return rem > half || (rem == half && (q & 1) != 0) ? q + 1 : q;
}

template <class TIn, class TOut>
void conv_even(const TIn* input, const std::int8_t* weights, TOut* output, std::int32_t width, std::int32_t ci,
               std::int32_t co, std::int32_t scale) {
    constexpr const char* name = "conv2dk1_even";
    check_conv(input, weights, output, width, ci, co, scale, name);
    if (scale < 1) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    conv1x1(input, weights, output, width, ci, co, [scale](std::int64_t s, std::int64_t) {
        return static_cast<TOut>(std::clamp<std::int64_t>(srs_half_even(s, scale), std::numeric_limits<TOut>::min(),
                                                          std::numeric_limits<TOut>::max()));
    });
}

template <class TSkip>
void conv_skip_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, const TSkip* skip,
                    std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t scale, std::int32_t skip_scale) {
    constexpr const char* name = "conv2dk1_skip_even";
    check_conv(input, weights, output, width, ci, co, scale, name);
    detail::require_non_null(skip, name, "skip");
    if (scale < 1) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    if (skip_scale < 0 || skip_scale > 31)
        detail::fail(name, "skip_scale must be in 0..31 (got " + std::to_string(skip_scale) + ")");
    conv1x1(input, weights, output, width, ci, co, [&](std::int64_t s, std::int64_t at) {
        const std::int64_t conv = std::clamp<std::int64_t>(srs_half_even(s, scale), -128, 127);
        const std::int64_t sum = conv + skip[at]; // the skip input has the output's layout
        return static_cast<std::int8_t>(
            std::clamp<std::int64_t>(skip_scale > 0 ? srs_half_even(sum, skip_scale) : sum, -128, 127));
    });
}

template <class TIn>
void conv_u8(const TIn* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
             std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    check_conv(input, weights, output, width, input_channels, output_channels, scale, "conv2dk1_u8");
    conv1x1(input, weights, output, width, input_channels, output_channels, [scale](std::int64_t s, std::int64_t) {
        return static_cast<std::uint8_t>(std::clamp<std::int64_t>(srs_half_up(s, scale), 0, 255));
    });
}

// The sum of the two halves' 1x1 convolution for output (x, channel oc8 * 8 + o).
std::int64_t halves_sum(const std::uint8_t* in0, const std::uint8_t* in1, const std::int8_t* weights, std::int32_t width,
                        std::int32_t ci, std::int32_t oc8, std::int32_t x, std::int32_t o) {
    const std::int32_t half8 = ci / 16; // 8-channel groups per half
    std::int64_t sum = 0;
    for (std::int32_t ic8 = 0; ic8 < 2 * half8; ++ic8) {
        const std::uint8_t* in = ic8 < half8 ? in0 : in1;
        const std::int32_t g = ic8 % half8;
        for (std::int32_t i = 0; i < 8; ++i)
            sum += std::int64_t{in[(g * width + x) * 8 + i]} * weights[((oc8 * 2 * half8 + ic8) * 8 + i) * 8 + o];
    }
    return sum;
}

template <class TSkip>
void conv_skip(const std::uint8_t* in0, const std::uint8_t* in1, const std::int8_t* weights, std::uint8_t* output,
               const TSkip* skip, std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t scale,
               std::int32_t skip_scale) {
    constexpr const char* name = "conv2dk1_skip_u8";
    check_conv(in0, weights, output, width, ci, co, scale, name);
    detail::require_non_null(in1, name, "input1");
    detail::require_non_null(skip, name, "skip");
    detail::require_multiple(ci, 16, name, "input_channels", "two halves of 8-channel groups");
    if (skip_scale < 0 || skip_scale > 31)
        detail::fail(name, "skip_scale must be in 0..31 (got " + std::to_string(skip_scale) + ")");
    for (std::int32_t oc8 = 0; oc8 < co / 8; ++oc8)
        for (std::int32_t x = 0; x < width; ++x)
            for (std::int32_t o = 0; o < 8; ++o) {
                const std::int64_t sum = halves_sum(in0, in1, weights, width, ci, oc8, x, o);
                const auto at = (oc8 * width + x) * 8 + o;
                const std::int64_t conv = std::clamp<std::int64_t>(srs_half_up(sum, scale), -128, 127);
                output[at] = static_cast<std::uint8_t>(
                    std::clamp<std::int64_t>(srs_half_up(conv + std::int64_t{skip[at]}, skip_scale), 0, 255));
            }
}

} // namespace

void conv2dk1_skip_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    conv_skip(input0, input1, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
}

void conv2dk1_skip_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    conv_skip(input0, input1, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
}

void conv2dk1_skip_init_u8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                           std::uint8_t* output, const std::int8_t* skip, std::int32_t width, std::int32_t ci,
                           std::int32_t co, std::int32_t ci_skip, std::int32_t scale, std::int32_t skip_scale,
                           std::int32_t scale_skip_conv) {
    constexpr const char* name = "conv2dk1_skip_init_u8";
    check_conv(input0, weights, output, width, ci, co, scale, name);
    detail::require_non_null(input1, name, "input1");
    detail::require_non_null(skip, name, "skip");
    detail::require_multiple(ci, 16, name, "input_channels", "two halves of 8-channel groups");
    require_channels(ci_skip, name, "input_channels_skip");
    for (const std::int32_t s : {skip_scale, scale_skip_conv})
        if (s < 0 || s > 31) detail::fail(name, "skip_scale and scale_skip_conv must be in 0..31 (got " + std::to_string(s) + ")");
    const std::int8_t* wskip = weights + static_cast<std::ptrdiff_t>(ci) * co;
    const std::int32_t s8 = ci_skip / 8;
    for (std::int32_t oc8 = 0; oc8 < co / 8; ++oc8)
        for (std::int32_t x = 0; x < width; ++x)
            for (std::int32_t o = 0; o < 8; ++o) {
                const std::int64_t conv =
                    std::clamp<std::int64_t>(srs_half_up(halves_sum(input0, input1, weights, width, ci, oc8, x, o), scale),
                                             -128, 127);
                std::int64_t ssum = 0;
                for (std::int32_t ic8 = 0; ic8 < s8; ++ic8)
                    for (std::int32_t i = 0; i < 8; ++i)
                        ssum += std::int64_t{skip[(ic8 * width + x) * 8 + i]} * wskip[((oc8 * s8 + ic8) * 8 + i) * 8 + o];
                const std::int64_t proj = std::clamp<std::int64_t>(srs_half_up(ssum, scale_skip_conv), -128, 127);
                output[(oc8 * width + x) * 8 + o] =
                    static_cast<std::uint8_t>(std::clamp<std::int64_t>(srs_half_up(conv + proj, skip_scale), 0, 255));
            }
}

void conv2dk1_even(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                   std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    conv_even(input, weights, output, width, input_channels, output_channels, scale);
}

void conv2dk1_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                   std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    conv_even(input, weights, output, width, input_channels, output_channels, scale);
}

void conv2dk1_skip_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                        const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                        std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    conv_skip_even(input, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
}

void conv2dk1_skip_even(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                        const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                        std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    conv_skip_even(input, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
}

std::uint64_t conv2dk1_scalar_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    return v(width) * v(input_channels) * v(output_channels);
}

void conv2dk1_i8(const std::int8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    check_conv(input, weights, output, width, input_channels, output_channels, scale, "conv2dk1_i8");
    conv1x1(input, weights, output, width, input_channels, output_channels, [scale](std::int64_t s, std::int64_t) {
        return static_cast<std::int8_t>(std::clamp<std::int64_t>(srs_ties_away(s, scale), -128, 127));
    });
}

void conv2dk1_u8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    conv_u8(input, weights, output, width, input_channels, output_channels, scale);
}

void conv2dk1_u8(const std::uint8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    conv_u8(input, weights, output, width, input_channels, output_channels, scale);
}

std::uint64_t conv2dk1_i8_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels) {
    constexpr const char* name = "conv2dk1_i8_cycles";
    detail::require_non_negative(width, name, "width");
    detail::require_non_negative(input_channels, name, "input_channels");
    detail::require_non_negative(output_channels, name, "output_channels");
    const auto w = static_cast<std::uint64_t>(width), ci = static_cast<std::uint64_t>(input_channels),
               co = static_cast<std::uint64_t>(output_channels);
    return ceil_div(w * ci * co, 256) + ceil_div(w, 4) * ceil_div(co, 8);
}

std::uint64_t conv2dk1_skip_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels) {
    const auto w = static_cast<std::uint64_t>(width < 0 ? 0 : width), co = static_cast<std::uint64_t>(output_channels < 0 ? 0 : output_channels);
    return conv2dk1_i8_cycles(width, input_channels, output_channels) + ceil_div(w, 4) * ceil_div(co, 8);
}

} // namespace npusim::kernels
