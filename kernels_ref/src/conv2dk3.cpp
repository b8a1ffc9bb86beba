#include <npusim/kernels/conv2dk3.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace npusim::kernels {

namespace {

void require_k3_channels(std::int32_t c, const char* name, const char* arg) {
    if (c <= 0 || c % 8 != 0)
        detail::fail(name, std::string(arg) + " must be a positive multiple of 8 (got " + std::to_string(c) + ")");
}

// The 3x3 kernels' window arguments: a 3 x 3 kernel, and which of the three rows are real (0: the
// top row of the image, line0 is the border; 2: the bottom row, line2 is).
void require_k3_window(std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check, const char* name) {
    if (kernel_width != 3 || kernel_height != 3)
        detail::fail(name, "kernel_width and kernel_height must be 3 (got " + std::to_string(kernel_width) + " x " +
                               std::to_string(kernel_height) + ")");
    if (check < 0 || check > 2)
        detail::fail(name, "check must be 0 (top), 1 (middle) or 2 (bottom) (got " + std::to_string(check) + ")");
}

// Where the output channels start in the shared weights: a whole group of 8.
void require_k3_channel_offset(std::int32_t channel_offset, const char* name) {
    if (channel_offset < 0 || channel_offset % 8 != 0)
        detail::fail(name, "channel_offset must be a non-negative multiple of 8 (got " +
                               std::to_string(channel_offset) + ")");
}

} // namespace

void conv2dk3_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                 const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t ci, std::int32_t co,
                 std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check, std::int32_t scale,
                 std::int32_t channel_offset) {
    constexpr const char* name = "conv2dk3_u8";
    detail::require_non_null(line0, name, "line0");
    detail::require_non_null(line1, name, "line1");
    detail::require_non_null(line2, name, "line2");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    detail::require_positive(width, name, "width");
    require_k3_channels(ci, name, "input_channels");
    require_k3_channels(co, name, "output_channels");
    require_k3_window(kernel_width, kernel_height, check, name);
    if (scale < 0 || scale > 31) detail::fail(name, "scale must be in 0..31 (got " + std::to_string(scale) + ")");
    require_k3_channel_offset(channel_offset, name);
    const std::uint8_t* rows[3] = {check == 0 ? nullptr : line0, line1, check == 2 ? nullptr : line2};
    const std::int64_t groups = ci / 8;
    for (std::int32_t o = 0; o < co; ++o) {
        const std::int64_t wo = o + channel_offset; // the output channel's place in the weights
        for (std::int32_t x = 0; x < width; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if (rows[ky] == nullptr) continue; // the zero row outside the image
                for (int kx = 0; kx < 3; ++kx) {
                    const std::int32_t px = x - 1 + kx;
                    if (px < 0 || px >= width) continue; // the zero border
                    for (std::int32_t i = 0; i < ci; ++i) {
                        const std::int64_t w_at =
                            ((((wo / 8) * groups + i / 8) * 3 + ky) * 3 + kx) * 64 + (i % 8) * 8 + wo % 8;
                        sum += std::int64_t{rows[ky][(static_cast<std::int64_t>(i / 8) * width + px) * 8 + i % 8]} *
                               weights[w_at];
                    }
                }
            }
            // half up: floor(sum / 2^scale + 1/2)
            const std::int64_t shifted = scale > 0 ? (sum + (std::int64_t{1} << (scale - 1))) >> scale : sum;
            output[(static_cast<std::int64_t>(o / 8) * width + x) * 8 + o % 8] =
                static_cast<std::uint8_t>(std::clamp<std::int64_t>(shifted, 0, 255));
        }
    }
}

namespace {

void conv_dw(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
             const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t co,
             std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check, std::int32_t scale, int stride,
             const char* name) {
    detail::require_non_null(line0, name, "line0");
    detail::require_non_null(line1, name, "line1");
    detail::require_non_null(line2, name, "line2");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    detail::require_positive(width, name, "width");
    if (stride == 2 && width % 2 != 0) detail::fail(name, "width must be even (got " + std::to_string(width) + ")");
    require_k3_channels(co, name, "output_channels");
    require_k3_window(kernel_width, kernel_height, check, name);
    if (scale < 1 || scale > 31) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    const std::uint8_t* rows[3] = {check == 0 ? nullptr : line0, line1, check == 2 ? nullptr : line2};
    const std::int32_t out_w = width / stride;
    for (std::int32_t c = 0; c < co; ++c)
        for (std::int32_t x = 0; x < out_w; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if (rows[ky] == nullptr) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const std::int32_t px = stride * x - 1 + kx;
                    if (px < 0 || px >= width) continue;
                    sum += std::int64_t{rows[ky][(static_cast<std::int64_t>(c / 8) * width + px) * 8 + c % 8]} *
                           weights[((c / 8) * 9 + ky * 3 + kx) * 8 + c % 8];
                }
            }
            // half to even: floor(sum / 2^scale), plus one above the half and at the half when odd
            const std::int64_t d = std::int64_t{1} << scale, q = sum >= 0 ? sum / d : -((-sum + d - 1) / d);
            const std::int64_t rem = sum - q * d, half = d / 2;
            const std::int64_t r = q + ((rem > half || (rem == half && (q & 1) != 0)) ? 1 : 0);
            output[(static_cast<std::int64_t>(c / 8) * out_w + x) * 8 + c % 8] =
                static_cast<std::uint8_t>(std::clamp<std::int64_t>(r, 0, 255));
        }
}

} // namespace

void conv2dk3_dw_stride1_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                            const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t,
                            std::int32_t co, std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                            std::int32_t scale, std::int32_t) {
    conv_dw(line0, line1, line2, weights, output, width, co, kernel_width, kernel_height, check, scale, 1,
            "conv2dk3_dw_stride1_u8");
}

void conv2dk3_dw_stride2_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                            const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t,
                            std::int32_t co, std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                            std::int32_t scale, std::int32_t) {
    conv_dw(line0, line1, line2, weights, output, width, co, kernel_width, kernel_height, check, scale, 2,
            "conv2dk3_dw_stride2_u8");
}

void conv2dk3_dw_out_split_u8(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2,
                              const std::int8_t* weights, std::uint8_t* output1, std::uint8_t* output2,
                              std::int32_t width, std::int32_t, std::int32_t co, std::int32_t kernel_width,
                              std::int32_t kernel_height, std::int32_t check, std::int32_t scale, std::int32_t) {
    constexpr const char* name = "conv2dk3_dw_out_split_u8";
    detail::require_non_null(output1, name, "output1");
    detail::require_non_null(output2, name, "output2");
    if (width < 2) detail::fail(name, "width must be at least 2 (got " + std::to_string(width) + ")");
    require_k3_channels(co, name, "output_channels");
    // the whole stride-1 row, then each 8-channel group to its half
    std::vector<std::uint8_t> full(static_cast<std::size_t>(width) * static_cast<std::size_t>(co));
    conv_dw(line0, line1, line2, weights, full.data(), width, co, kernel_width, kernel_height, check, scale, 1, name);
    const std::int32_t first_groups = co / 2 / 8; // the groups output1 takes
    const std::size_t group_bytes = static_cast<std::size_t>(width) * 8;
    for (std::int32_t g = 0; g < co / 8; ++g) {
        std::uint8_t* dst = g < first_groups ? output1 + static_cast<std::size_t>(g) * group_bytes
                                             : output2 + static_cast<std::size_t>(g - first_groups) * group_bytes;
        std::copy_n(full.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(g) * group_bytes),
                    group_bytes, dst);
    }
}

void conv2dk3_stride2_even(const std::int8_t* line0, const std::int8_t* line1, const std::int8_t* line2,
                           const std::int8_t* weights, std::uint8_t* output, std::int32_t width, std::int32_t ci,
                           std::int32_t co, std::int32_t kernel_width, std::int32_t kernel_height, std::int32_t check,
                           std::int32_t scale, std::int32_t channel_offset) {
    constexpr const char* name = "conv2dk3_stride2_even";
    for (const void* p :
         {static_cast<const void*>(line0), static_cast<const void*>(line1), static_cast<const void*>(line2),
          static_cast<const void*>(weights), static_cast<const void*>(output)})
        detail::require_non_null(p, name, "a pointer argument");
    if (width <= 0 || width % 2 != 0)
        detail::fail(name, "width must be positive and even (got " + std::to_string(width) + ")");
    require_k3_channels(ci, name, "input_channels");
    require_k3_channels(co, name, "output_channels");
    require_k3_window(kernel_width, kernel_height, check, name);
    if (scale < 1 || scale > 31) detail::fail(name, "scale must be in 1..31 (got " + std::to_string(scale) + ")");
    require_k3_channel_offset(channel_offset, name);
    const std::int8_t* rows[3] = {check == 0 ? nullptr : line0, line1, check == 2 ? nullptr : line2};
    const std::int64_t groups = ci / 8;
    const std::int32_t out_w = width / 2;
    for (std::int32_t o = 0; o < co; ++o) {
        const std::int64_t wo = o + channel_offset;
        for (std::int32_t x = 0; x < out_w; ++x) {
            std::int64_t sum = 0;
            for (int ky = 0; ky < 3; ++ky) {
                if (rows[ky] == nullptr) continue;
                for (int kx = 0; kx < 3; ++kx) {
                    const std::int32_t px = 2 * x - 1 + kx;
                    if (px < 0 || px >= width) continue;
                    for (std::int32_t i = 0; i < ci; ++i)
                        sum += std::int64_t{rows[ky][(static_cast<std::int64_t>(i / 8) * width + px) * 8 + i % 8]} *
                               weights[((((wo / 8) * groups + i / 8) * 3 + ky) * 3 + kx) * 64 + (i % 8) * 8 + wo % 8];
                }
            }
            const std::int64_t d = std::int64_t{1} << scale, q = sum >= 0 ? sum / d : -((-sum + d - 1) / d);
            const std::int64_t rem = sum - q * d;
            const std::int64_t r = q + ((rem > d / 2 || (rem == d / 2 && (q & 1) != 0)) ? 1 : 0);
            output[(static_cast<std::int64_t>(o / 8) * out_w + x) * 8 + o % 8] =
                static_cast<std::uint8_t>(std::clamp<std::int64_t>(r, 0, 255));
        }
    }
}

std::uint64_t conv2dk3_stride2_cycles(std::int32_t output_width, std::int32_t input_channels,
                                      std::int32_t output_channels, std::int32_t check) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    return v(output_width) * v(input_channels) * v(output_channels) * (check == 1 ? 9u : 6u);
}

std::uint64_t conv2dk3_dw_cycles(std::int32_t output_width, std::int32_t channels, std::int32_t check) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    return v(output_width) * v(channels) * (check == 1 ? 9u : 6u);
}

std::uint64_t conv2dk3_cycles(std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                              std::int32_t check) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    const std::uint64_t rows = check == 1 ? 3 : 2;
    const std::uint64_t blocks = ceil_div(v(width), 4) * ceil_div(v(output_channels), 8);
    return blocks * ceil_div(v(input_channels), 8) * rows * 3 + blocks;
}

} // namespace npusim::kernels
