// conv2dk1_skip (IRON kernels.conv2dk1_skip): a 1x1 convolution over two uint8 halves of the input
// channels plus a skip (residual) input, written against the AIE API. Each group of 4 pixels x 8
// output channels is one aie::mmul<4, 8, 8, uint8, int8> accumulated over input0's channel groups,
// then input1's (the weights hold all ci in order); the sums go to int8 with a shift of `scale`,
// the skip values are added in an acc32, and that goes to uint8 with a shift of `skip_scale`. Both
// conversions round half up (positive_inf) and saturate.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <class TSkip>
void conv_skip(const uint8* in0, const uint8* in1, const int8* weights, uint8* output, const TSkip* skip,
               int32_t width, int32_t ci, int32_t co, int32_t scale, int32_t skip_scale) {
    using MM = aie::mmul<4, 8, 8, uint8, int8>;
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int32_t half8 = ci / 16;
    for (int32_t oc8 = 0; oc8 < co / 8; ++oc8)
        for (int32_t xg = 0; xg < width / 4; ++xg) {
            MM acc;
            acc = aie::zeros<acc32, MM::size_C>();
            for (int32_t ic8 = 0; ic8 < 2 * half8; ++ic8) {
                const uint8* in = (ic8 < half8 ? in0 : in1) + (ic8 % half8) * width * 8 + xg * MM::size_A;
                acc.mac(aie::load_v<MM::size_A>(in),
                        aie::load_v<MM::size_B>(weights + (oc8 * 2 * half8 + ic8) * MM::size_B));
            }
            const int32_t at = oc8 * width * 8 + xg * MM::size_C;
            aie::accum<acc32, MM::size_C> sum;
            sum.from_vector(aie::load_v<MM::size_C>(skip + at), 0);
            sum = aie::add(sum, acc.template to_vector<int8>(scale));
            aie::store_v(output + at, sum.template to_vector<uint8>(skip_scale));
        }
}

// conv2dk1_skip_init: the halves' convolution to int8 (`scale`), the skip input's 1x1 projection (its
// weights after the main ones) to int8 (`scale_skip_conv`), their sum to uint8 (`skip_scale`).
void conv_skip_init(const uint8* in0, const uint8* in1, const int8* weights, uint8* output, const int8* skip,
                    int32_t width, int32_t ci, int32_t co, int32_t ci_skip, int32_t scale, int32_t skip_scale,
                    int32_t scale_skip_conv) {
    using MM = aie::mmul<4, 8, 8, uint8, int8>;
    using MMi = aie::mmul<4, 8, 8, int8, int8>;
    aie::set_rounding(aie::rounding_mode::positive_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int32_t half8 = ci / 16, s8 = ci_skip / 8;
    const int8* wskip = weights + ci * co;
    for (int32_t oc8 = 0; oc8 < co / 8; ++oc8)
        for (int32_t xg = 0; xg < width / 4; ++xg) {
            MM acc;
            acc = aie::zeros<acc32, MM::size_C>();
            for (int32_t ic8 = 0; ic8 < 2 * half8; ++ic8)
                acc.mac(aie::load_v<MM::size_A>((ic8 < half8 ? in0 : in1) + (ic8 % half8) * width * 8 + xg * MM::size_A),
                        aie::load_v<MM::size_B>(weights + (oc8 * 2 * half8 + ic8) * MM::size_B));
            MMi proj;
            proj = aie::zeros<acc32, MMi::size_C>();
            for (int32_t ic8 = 0; ic8 < s8; ++ic8)
                proj.mac(aie::load_v<MMi::size_A>(skip + ic8 * width * 8 + xg * MMi::size_A),
                         aie::load_v<MMi::size_B>(wskip + (oc8 * s8 + ic8) * MMi::size_B));
            aie::accum<acc32, MM::size_C> sum;
            sum.from_vector(acc.template to_vector<int8>(scale), 0);
            sum = aie::add(sum, proj.template to_vector<int8>(scale_skip_conv));
            aie::store_v(output + oc8 * width * 8 + xg * MM::size_C, sum.template to_vector<uint8>(skip_scale));
        }
}

// bn_conv2dk1_skip's -DREGULAR builds: one uint8 input, the sum to int8 (`scale`), plus the skip, to
// int8 (`skip_scale`), both conversions to even (conv_even) and saturated; any width.
template <class TSkip>
void conv_skip_even(const uint8* in, const int8* weights, int8* output, const TSkip* skip, int32_t width, int32_t ci,
                    int32_t co, int32_t scale, int32_t skip_scale) {
    using MM = aie::mmul<4, 8, 8, uint8, int8>;
    aie::set_rounding(aie::rounding_mode::conv_even);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int32_t c8 = ci / 8;
    // every pixel, as upstream's scalar loop: 4-pixel groups, then the last width % 4 pixels in the
    // first lanes of a zeroed block, only their outputs stored
    for (int32_t oc8 = 0; oc8 < co / 8; ++oc8)
        for (int32_t x0 = 0; x0 < width; x0 += 4) {
            const int32_t n = width - x0 < 4 ? width - x0 : 4;
            MM acc;
            acc = aie::zeros<acc32, MM::size_C>();
            for (int32_t ic8 = 0; ic8 < c8; ++ic8) {
                const uint8* px = in + ic8 * width * 8 + x0 * 8;
                aie::vector<uint8, MM::size_A> a = aie::zeros<uint8, MM::size_A>();
                if (n == 4)
                    a = aie::load_v<MM::size_A>(px);
                else
                    for (int32_t i = 0; i < n * 8; ++i) a[i] = px[i]; // scalar moves: 8-byte vectors are no AIE type
                acc.mac(a, aie::load_v<MM::size_B>(weights + (oc8 * c8 + ic8) * MM::size_B));
            }
            const int32_t at = oc8 * width * 8 + x0 * 8;
            aie::vector<TSkip, MM::size_C> sv = aie::zeros<TSkip, MM::size_C>();
            if (n == 4)
                sv = aie::load_v<MM::size_C>(skip + at);
            else
                for (int32_t i = 0; i < n * 8; ++i) sv[i] = skip[at + i];
            aie::accum<acc32, MM::size_C> sum;
            sum.from_vector(acc.template to_vector<int8>(scale), 0);
            sum = aie::add(sum, sv);
            const aie::vector<int8, MM::size_C> out = sum.template to_vector<int8>(skip_scale);
            if (n == 4)
                aie::store_v(output + at, out);
            else
                for (int32_t i = 0; i < n * 8; ++i) output[at + i] = out[i];
        }
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk1_skip_ui8_i8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                             const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                             std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    event0();
    conv_skip_even(input, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
    event1();
}

void conv2dk1_skip_ui8_ui8_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                              const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                              std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    event0();
    conv_skip_even(input, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
    event1();
}

void conv2dk1_skip_init_i8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                           std::uint8_t* output, const std::int8_t* skip, std::int32_t width,
                           std::int32_t input_channels, std::int32_t output_channels, std::int32_t input_channels_skip,
                           std::int32_t scale, std::int32_t skip_scale, std::int32_t scale_skip_conv) {
    event0();
    conv_skip_init(input0, input1, weights, output, skip, width, input_channels, output_channels, input_channels_skip,
                   scale, skip_scale, scale_skip_conv);
    event1();
}

void conv2dk1_skip_i8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                      std::uint8_t* output, const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                      std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    event0();
    conv_skip(input0, input1, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
    event1();
}

void conv2dk1_skip_ui8(const std::uint8_t* input0, const std::uint8_t* input1, const std::int8_t* weights,
                       std::uint8_t* output, const std::uint8_t* skip, std::int32_t width, std::int32_t input_channels,
                       std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale) {
    event0();
    conv_skip(input0, input1, weights, output, skip, width, input_channels, output_channels, scale, skip_scale);
    event1();
}

} // namespace npusim::aie_kernels
