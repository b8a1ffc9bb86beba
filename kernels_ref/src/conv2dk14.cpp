#include <npusim/kernels/conv2dk14.hpp>

#include <algorithm>
#include <string>

namespace npusim::kernels {

void conv2dk14_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                  std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                  std::int32_t scale) {
    constexpr const char* name = "conv2dk14_i8";
    (void)input_channels; // a pixel is 4 values (RGBA), as upstream
    detail::require_non_null(input, name, "input");
    detail::require_non_null(weights, name, "weights");
    detail::require_non_null(output, name, "output");
    if (kernel_width <= 0 || kernel_width % 2 != 0)
        detail::fail(name, "kernel_width must be positive and even (got " + std::to_string(kernel_width) + ")");
    if (width <= 0 || width % (8 * kernel_width) != 0)
        detail::fail(name, "width must be a positive multiple of 8 * kernel_width (tiles in groups of 8; got " +
                               std::to_string(width) + ")");
    if (output_channels <= 0 || output_channels % 8 != 0)
        detail::fail(name,
                     "output_channels must be a positive multiple of 8 (got " + std::to_string(output_channels) + ")");
    if (scale < 0 || scale > 31) detail::fail(name, "scale must be in 0..31 (got " + std::to_string(scale) + ")");
    const std::int64_t tiles = width / kernel_width, pairs = std::int64_t{kernel_width} * kernel_width / 2;
    for (std::int64_t o = 0; o < output_channels; ++o)
        for (std::int64_t t = 0; t < tiles; ++t) {
            std::int64_t sum = 0;
            for (std::int64_t p = 0; p < 2 * pairs; ++p)
                for (std::int64_t c = 0; c < 4; ++c)
                    sum += std::int64_t{input[(((t / 8) * pairs + p / 2) * 16 + (t % 8) * 2 + p % 2) * 4 + c]} *
                           weights[((o / 8) * pairs + p / 2) * 64 + (p % 2) * 32 + c * 8 + o % 8];
            // ties away from zero: sign(sum) * floor(|sum| / 2^scale + 1/2)
            const std::int64_t mag = sum < 0 ? -sum : sum;
            const std::int64_t r = scale > 0 ? (mag + (std::int64_t{1} << (scale - 1))) >> scale : mag;
            output[((o / 8) * (tiles / 8) + t / 8) * 64 + (t % 8) * 8 + o % 8] =
                static_cast<std::int8_t>(std::clamp<std::int64_t>(sum < 0 ? -r : r, -128, 127));
        }
}

std::uint64_t conv2dk14_cycles(std::int32_t width, std::int32_t output_channels, std::int32_t kernel_width,
                               std::uint64_t mmul_cycles) {
    const auto v = [](std::int32_t x) { return static_cast<std::uint64_t>(x < 0 ? 0 : x); };
    if (kernel_width <= 0) return 0;
    const std::uint64_t blocks = ceil_div(v(width) / v(kernel_width), 8) * ceil_div(v(output_channels), 8);
    const std::uint64_t pairs = ceil_div(v(kernel_width) * v(kernel_width), 2);
    return blocks * pairs * mmul_cycles + blocks;
}

} // namespace npusim::kernels
