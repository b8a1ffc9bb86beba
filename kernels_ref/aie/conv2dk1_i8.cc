// conv2dk1_i8: 1x1 convolution of one image row, int8 activations and weights, int8 output.
// In the YCXC8 / OIYXI8O8 layouts the data for 4 consecutive pixels x 8 input channels is one 4x8
// row-major block, and the weights for 8 input x 8 output channels one 8x8 block, so each step is an
// aie::mmul<4, 8, 8, int8, int8> (acc32). Up to four pixel groups share every weight block. The result
// is shifted by `scale` rounding ties away from zero (symmetric_inf) and saturated to int8. conv2dk1
// (IRON's conv2dk1: int8 or uint8 activations, uint8 output) is the same walk, rounding half up
// (positive_inf) and saturating to [0, 255].
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <class TIn, class TOut, int Groups>
void conv_groups(const TIn* __restrict input, const int8* __restrict weights, TOut* __restrict output, int32_t width,
                 int32_t ic8_count, int32_t oc8, int32_t xg, int32_t scale) {
    using MM = aie::mmul<4, 8, 8, TIn, int8>;
    MM acc[Groups];
    for (int g = 0; g < Groups; ++g) acc[g] = aie::zeros<acc32, MM::size_C>();
    const int8* w = weights + oc8 * ic8_count * MM::size_B;
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(2)
    for (int32_t ic8 = 0; ic8 < ic8_count; ++ic8) {
        const aie::vector<int8, MM::size_B> wv = aie::load_v<MM::size_B>(w + ic8 * MM::size_B);
        const TIn* in_row = input + ic8 * width * 8;
        for (int g = 0; g < Groups; ++g) acc[g].mac(aie::load_v<MM::size_A>(in_row + (xg + g) * MM::size_A), wv);
    }
    for (int g = 0; g < Groups; ++g)
        aie::store_v(output + oc8 * width * 8 + (xg + g) * MM::size_C, acc[g].template to_vector<TOut>(scale));
}

// The last `rest` (1..3) pixels of a row whose width is no multiple of 4: their 8-channel rows go to
// the first lanes of a zeroed 4x8 block (element by element), the same mmul runs, and only their
// outputs are stored.
template <class TIn, class TOut>
void conv_tail(const TIn* __restrict input, const int8* __restrict weights, TOut* __restrict output, int32_t width,
               int32_t ic8_count, int32_t oc8, int32_t x0, int32_t rest, int32_t scale) {
    using MM = aie::mmul<4, 8, 8, TIn, int8>;
    MM acc;
    acc = aie::zeros<acc32, MM::size_C>();
    const int8* w = weights + oc8 * ic8_count * MM::size_B;
    for (int32_t ic8 = 0; ic8 < ic8_count; ++ic8) {
        aie::vector<TIn, MM::size_A> a = aie::zeros<TIn, MM::size_A>();
        const TIn* px = input + ic8 * width * 8 + x0 * 8;
        for (int32_t i = 0; i < rest * 8; ++i) a[i] = px[i]; // scalar moves: 8-byte vectors are no AIE type
        acc.mac(a, aie::load_v<MM::size_B>(w + ic8 * MM::size_B));
    }
    const aie::vector<TOut, MM::size_C> v = acc.template to_vector<TOut>(scale);
    TOut* o = output + oc8 * width * 8 + x0 * 8;
    for (int32_t i = 0; i < rest * 8; ++i) o[i] = v[i];
}

// `any_width`: the bottleneck builds, whose upstream scalar loops compute every pixel of any width,
// finish a row's last width % 4 pixels with conv_tail; the vector builds' factories take multiples of 4.
template <class TIn, class TOut>
void conv1x1(const TIn* input, const int8* weights, TOut* output, int32_t width, int32_t input_channels,
             int32_t output_channels, int32_t scale, bool any_width = false) {
    const int32_t ic8_count = input_channels / 8;
    const int32_t x_groups = width / 4;
    for (int32_t oc8 = 0; oc8 < output_channels / 8; ++oc8) {
        int32_t xg = 0;
        for (; xg + 4 <= x_groups; xg += 4)
            conv_groups<TIn, TOut, 4>(input, weights, output, width, ic8_count, oc8, xg, scale);
        for (; xg < x_groups; ++xg) conv_groups<TIn, TOut, 1>(input, weights, output, width, ic8_count, oc8, xg, scale);
        if (any_width && width % 4 != 0)
            conv_tail(input, weights, output, width, ic8_count, oc8, x_groups * 4, width % 4, scale);
    }
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk1_i8(const std::int8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                 std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::symmetric_inf); // ties away from zero, as the vector kernel IRON builds
    aie::set_saturation(aie::saturation_mode::saturate);
    conv1x1(input, weights, output, width, input_channels, output_channels, scale);
    event1();
}

// The bottleneck builds (bn_conv2dk1_relu / bn_conv2dk1_i8 with -DREGULAR): ties to even (conv_even),
// any width (conv_tail)
void conv2dk1_relu_i8_ui8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                          std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                          std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    conv1x1(input, weights, output, width, input_channels, output_channels, scale, true);
    event1();
}

void conv2dk1_ui8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                     std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    conv1x1(input, weights, output, width, input_channels, output_channels, scale, true);
    event1();
}

// conv2dk1 (uint8 output): half up, saturated to [0, 255]
void conv2dk1_i8_u8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                    std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    conv1x1(input, weights, output, width, input_channels, output_channels, scale);
    event1();
}

void conv2dk1_ui8_u8(const std::uint8_t* input, const std::int8_t* weights, std::uint8_t* output, std::int32_t width,
                     std::int32_t input_channels, std::int32_t output_channels, std::int32_t scale) {
    event0();
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    conv1x1(input, weights, output, width, input_channels, output_channels, scale);
    event1();
}

} // namespace npusim::aie_kernels
