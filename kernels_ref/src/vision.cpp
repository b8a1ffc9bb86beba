#include <npusim/kernels/vision.hpp>

#include <algorithm>
#include <string>

namespace npusim::kernels {

namespace {

std::uint8_t sat_u8(std::int64_t v) { return static_cast<std::uint8_t>(std::clamp<std::int64_t>(v, 0, 255)); }

// Arithmetic shift right (floor, C++20), as the SRS unit shifts a signed accumulator.
std::int64_t shr(std::int64_t v, int s) { return v >> s; }

void require_line(const void* in, const void* out, std::int32_t width, const char* name) {
    detail::require_non_null(in, name, "in");
    detail::require_non_null(out, name, "out");
    detail::require_non_negative(width, name, "width");
}

} // namespace

void rgba2gray_line(const std::uint8_t* rgba, std::uint8_t* gray, std::int32_t width) {
    require_line(rgba, gray, width, "rgba2gray_line");
    for (std::int32_t x = 0; x < width; ++x) {
        const std::uint8_t* p = rgba + 4 * x;
        const std::int64_t acc = 9798 * std::int64_t{p[0]} + 19235 * std::int64_t{p[1]} + 3736 * std::int64_t{p[2]};
        gray[x] = sat_u8((acc + (1 << 14)) >> 15);
    }
}

void gray2rgba_line(const std::uint8_t* gray, std::uint8_t* rgba, std::int32_t width) {
    require_line(gray, rgba, width, "gray2rgba_line");
    for (std::int32_t x = 0; x < width; ++x) {
        rgba[4 * x] = rgba[4 * x + 1] = rgba[4 * x + 2] = gray[x];
        rgba[4 * x + 3] = 255;
    }
}

void threshold_line(const std::uint8_t* in, std::uint8_t* out, std::int32_t width, std::uint8_t threshold,
                    std::uint8_t maxval, std::uint8_t type) {
    require_line(in, out, width, "threshold_line");
    for (std::int32_t x = 0; x < width; ++x) {
        const std::uint8_t v = in[x];
        const bool above = v > threshold;
        switch (type) {
        case kThreshBinary: out[x] = above ? maxval : 0; break;
        case kThreshBinaryInv: out[x] = above ? 0 : maxval; break;
        case kThreshToZero: out[x] = above ? v : 0; break;
        case kThreshToZeroInv: out[x] = above ? 0 : v; break;
        default: out[x] = above ? threshold : v; break;
        }
    }
}

void filter2d_line(const std::uint8_t* line0, const std::uint8_t* line1, const std::uint8_t* line2, std::uint8_t* out,
                   std::int32_t width, const std::int16_t* kernel) {
    constexpr const char* name = "filter2d_line";
    detail::require_non_null(line0, name, "line0");
    detail::require_non_null(line1, name, "line1");
    detail::require_non_null(line2, name, "line2");
    detail::require_non_null(out, name, "out");
    detail::require_non_null(kernel, name, "kernel");
    if (width < kFilter2dMinWidth || width % kFilter2dLanes != 0)
        detail::fail(name, "width must be a multiple of 32 and at least 64 (got " + std::to_string(width) + ")");
    const std::uint8_t* lines[3] = {line0, line1, line2};
    // the taps the kernel multiplies: the int16 Q12 coefficient's high byte, an int8 in Q4
    std::int64_t taps[9];
    for (int i = 0; i < 9; ++i) taps[i] = static_cast<std::int8_t>(kernel[i] >> 8);
    for (std::int32_t x = 0; x < width; ++x) {
        const std::int32_t block = x / kFilter2dLanes;
        // the left neighbour: replicated at the line's start; two pixels back for the first pixel of
        // the third and later blocks (the carried register holds the previous block shifted by one)
        const std::int32_t left = x == 0 ? 0 : (x % kFilter2dLanes == 0 && block >= 2) ? x - 2 : x - 1;
        const std::int32_t cols[3] = {left, x, std::min(x + 1, width - 1)};
        std::int64_t sum = 0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) sum += taps[3 * r + c] * lines[r][cols[c]];
        out[x] = sat_u8(shr(sum, 4));
    }
}

void add_weighted_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n,
                       std::int16_t alpha, std::int16_t beta, std::uint8_t gamma) {
    require_line(a, out, n, "add_weighted_line");
    detail::require_non_null(b, "add_weighted_line", "b");
    for (std::int32_t i = 0; i < n; ++i) {
        const std::int64_t s = std::int64_t{gamma} + std::int64_t{a[i]} * alpha + std::int64_t{b[i]} * beta;
        out[i] = sat_u8(shr(s, 14));
    }
}

void rgba2hue_line(const std::uint8_t* rgba, std::uint8_t* hue, std::int32_t width) {
    require_line(rgba, hue, width, "rgba2hue_line");
    for (std::int32_t x = 0; x < width; ++x) {
        const int r = rgba[4 * x], g = rgba[4 * x + 1], b = rgba[4 * x + 2];
        const int mx = std::max({r, g, b}), mn = std::min({r, g, b});
        int h = 0;
        if (mx == 0 || mx == mn)
            h = 0;
        else if (mx == r)
            h = 85 * (g - b) / (mx - mn);
        else if (mx == g)
            h = 170 + 85 * (b - r) / (mx - mn);
        else
            h = 340 + 85 * (r - g) / (mx - mn);
        hue[x] = static_cast<std::uint8_t>((h + 1) >> 1);
    }
}

void bitwise_or_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n) {
    require_line(a, out, n, "bitwise_or_line");
    detail::require_non_null(b, "bitwise_or_line", "b");
    for (std::int32_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(a[i] | b[i]);
}

void bitwise_and_line(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::int32_t n) {
    require_line(a, out, n, "bitwise_and_line");
    detail::require_non_null(b, "bitwise_and_line", "b");
    for (std::int32_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(a[i] & b[i]);
}

std::uint64_t rgba2hue_line_cycles(std::int32_t width) {
    detail::require_non_negative(width, "rgba2hue_line_cycles", "width");
    return 8 * ceil_div(static_cast<std::uint64_t>(width), 32);
}

std::uint64_t bitwise_line_cycles(std::int32_t n) {
    detail::require_non_negative(n, "bitwise_line_cycles", "n");
    return 2 * ceil_div(static_cast<std::uint64_t>(n), 64);
}

std::uint64_t rgba2gray_line_cycles(std::int32_t width) {
    detail::require_non_negative(width, "rgba2gray_line_cycles", "width");
    return 4 * ceil_div(static_cast<std::uint64_t>(width), 32);
}

std::uint64_t gray2rgba_line_cycles(std::int32_t width) {
    detail::require_non_negative(width, "gray2rgba_line_cycles", "width");
    return 4 * ceil_div(static_cast<std::uint64_t>(width), 32);
}

std::uint64_t threshold_line_cycles(std::int32_t width) {
    detail::require_non_negative(width, "threshold_line_cycles", "width");
    return 2 * ceil_div(static_cast<std::uint64_t>(width), 64);
}

std::uint64_t filter2d_line_cycles(std::int32_t width) {
    detail::require_non_negative(width, "filter2d_line_cycles", "width");
    return 9 * ceil_div(static_cast<std::uint64_t>(width), 32);
}

std::uint64_t add_weighted_line_cycles(std::int32_t n) {
    detail::require_non_negative(n, "add_weighted_line_cycles", "n");
    return 2 * ceil_div(static_cast<std::uint64_t>(n), 32);
}

} // namespace npusim::kernels
