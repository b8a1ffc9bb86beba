// The post-stage 1x1 kernels of the bottleneck library: the fused 1x1 + ReLU + average pool with
// channel padding, and the uint16 fully connected layer (conv2dk1_pool.hpp).
#include <npusim/kernels/conv2dk1_pool.hpp>

#include <algorithm>
#include <limits>
#include <string>

namespace npusim::kernels {

namespace {

// sum / 2^scale to the nearest integer, ties to the even one, clamped to [0, 255] (the ReLU).
std::int64_t pool_relu_even(std::int64_t sum, std::int32_t scale) {
    const std::int64_t unit = std::int64_t{1} << scale;
    std::int64_t q = sum >= 0 ? sum / unit : -((-sum + unit - 1) / unit); // floor
    const std::int64_t rem2 = 2 * (sum - q * unit);
    if (rem2 > unit || (rem2 == unit && (q & 1) != 0)) ++q;
    return std::clamp<std::int64_t>(q, 0, 255);
}

void require_scale(std::int32_t scale, const char* name) {
    if (scale < 1 || scale > 31) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
}

void require_channels8(std::int32_t v, const char* name, const char* arg) {
    if (v <= 0 || v % 8 != 0)
        detail::fail(name, std::string(arg) + " must be a positive multiple of 8 (got " + std::to_string(v) + ")");
}

} // namespace

std::uint16_t xy_pool_average49(std::uint32_t acc) {
    // as written at bn_conv2dk1_relu.cc:1532-1538, in float
    const float avg = static_cast<float>(acc) / 49.0f;
    const int whole = static_cast<int>(avg);
    int rounded;
    if (static_cast<int>(avg * 10) % 10 == 5)
        rounded = whole % 2 == 0 ? whole : whole + 1;
    else
        rounded = static_cast<int>(avg + 0.5f);
    return static_cast<std::uint16_t>(rounded);
}

void conv2dk1_xy_pool_padded_u16(const std::int8_t* input, const std::int8_t* weights, std::uint16_t* output,
                                 std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t co_padd,
                                 std::int32_t scale, std::int32_t y_index, std::int32_t split,
                                 std::int32_t weight_index) {
    constexpr const char* name = "conv2dk1_xy_pool_padded_u16";
    detail::require_non_null(input, name, "input");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    if (width < 1 || width > 1024) detail::fail(name, "width must be in 1..1024 (got " + std::to_string(width) + ")");
    require_channels8(ci, name, "input_channels");
    if (ci > 32768) detail::fail(name, "input_channels must be at most 32768 (got " + std::to_string(ci) + ")");
    if (split < 1) detail::fail(name, "output_split must be at least 1 (got " + std::to_string(split) + ")");
    if (co <= 0 || co % (8 * split) != 0)
        detail::fail(name, "output_channels must be a positive multiple of 8 * output_split (got " +
                               std::to_string(co) + ", output_split " + std::to_string(split) + ")");
    detail::require_non_negative(weight_index, name, "weight_index");
    require_scale(scale, name);
    const std::int64_t tile = co / split, first = tile * weight_index;
    for (std::int64_t o = 0; o < tile; ++o) {
        std::uint32_t acc = y_index != 0 ? output[first + o] : 0u;
        for (std::int32_t x = 0; x < width; ++x) {
            std::int64_t sum = 0;
            for (std::int32_t c = 0; c < ci; ++c)
                sum += std::int64_t{input[(c / 8) * std::int64_t{width} * 8 + x * 8 + c % 8]} *
                       weights[(o / 8) * ci * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8];
            acc += static_cast<std::uint32_t>(pool_relu_even(sum, scale));
        }
        output[first + o] = y_index == width - 1 ? xy_pool_average49(acc) : static_cast<std::uint16_t>(acc);
    }
    for (std::int64_t c = co; c < co_padd; ++c) output[c] = 0;
}

void conv2dk1_fc_relu_pad_u16(const std::uint16_t* input, const std::int8_t* weights, std::uint16_t* output,
                              std::int32_t width, std::int32_t ci, std::int32_t ci_pad, std::int32_t co,
                              std::int32_t scale) {
    constexpr const char* name = "conv2dk1_fc_relu_pad_u16";
    detail::require_non_null(input, name, "input");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    detail::require_positive(width, name, "width");
    require_channels8(ci, name, "input_channels");
    if (ci_pad < ci || ci_pad % 8 != 0)
        detail::fail(name, "input_channels_pad must be a multiple of 8 at least input_channels (got " +
                               std::to_string(ci_pad) + ", input_channels " + std::to_string(ci) + ")");
    require_channels8(co, name, "output_channels");
    require_scale(scale, name);
    constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t o = 0; o < co; ++o)
        for (std::int32_t x = 0; x < width; ++x) {
            // the source's int32 sum (every partial sum), and the sum plus its rounding term
            // (2^(scale-1) at most), must fit
            std::int64_t sum = 0;
            bool fits = true;
            for (std::int32_t c = 0; c < ci; ++c) {
                sum += std::int64_t{input[(c / 8) * std::int64_t{width} * 8 + x * 8 + c % 8]} *
                       weights[(o / 8) * std::int64_t{ci_pad} * 8 + (c / 8) * 64 + (c % 8) * 8 + o % 8];
                fits = fits && sum >= -kMax - 1 && sum <= kMax;
            }
            if (!fits || sum + (std::int64_t{1} << (scale - 1)) > kMax)
                detail::fail(name, "the sum of output channel " + std::to_string(o) + " at pixel " + std::to_string(x) +
                                       " leaves the source's int32 accumulator (final sum " + std::to_string(sum) +
                                       ", with the rounding term up to 2^(scale-1))");
            output[(o / 8) * std::int64_t{width} * 8 + x * 8 + o % 8] =
                static_cast<std::uint16_t>(pool_relu_even(sum, scale));
        }
}

std::uint64_t conv2dk1_xy_pool_cycles(std::int32_t width, std::int32_t ci, std::int32_t co, std::int32_t co_padd,
                                      std::int32_t split) {
    const auto v = [](std::int64_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    const std::uint64_t tile = v(co) / v(std::max<std::int32_t>(split, 1));
    return tile * v(width) * v(ci) + tile + v(std::int64_t{co_padd} - co);
}

std::uint64_t conv2dk1_fc_cycles(std::int32_t width, std::int32_t ci, std::int32_t co) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    return v(width) * v(co) * (v(ci) + 1);
}

} // namespace npusim::kernels
