// The two cascade halves of the bottleneck 1x1 convolution split by input channels (IRON
// bn_conv2dk1_partial_put_i8 / bn_conv2dk1_partial_get_relu_i8; semantics in
// kernels_ref/conv2dk1_partial.hpp). Each pixel's 8 output-channel sums are gathered into a v16int32
// with upd_elem; the put half moves them into a v16acc64 (lups, shift 0) and puts it on the cascade;
// the get half takes the v16acc64 its neighbour put, brings it back to int32 lanes (lsrs, shift 0,
// signed: the lanes are int32 sums, so no mode changes them), adds its own sums, and rounds the
// total half to even at `scale` with a clamp to [0, 255].
//
// The input-split pair (bn_conv2dk1_input_split_partial_put_ui8 / _skip_get): both halves sum the
// first chunk of their own uint8 input. The get brings its neighbour's v16acc64 back to int32 lanes
// (lsrs, shift 0, under the core's modes: saturation off), adds its own sums into an acc32 and
// converts it to int8 at `scale` (to even, saturated), adds the int8 skip and converts again at
// `skip_scale` (shift 0 leaves the sum as it is), the modes swapped in for the two conversions only.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

constexpr int kPartialPixels = 7;

// Lanes 0-7: the sums of pixel px over `chunk` channels from `first`, for the 8 output channels of
// weight group oc.
template <class TIn>
v16int32 partial_sums(const TIn* input, const int8* weights, int width, int first, int chunk, int oc, int px) {
    v16int32 v = broadcast_zero_to_v16int32();
    const int8* wg = weights + oc * chunk * 8;
    for (int o8 = 0; o8 < 8; ++o8) {
        int32 s = 0;
        for (int g = 0; g < chunk / 8; ++g) {
            const TIn* a = input + ((first / 8 + g) * width + px) * 8;
            const int8* w = wg + g * 64 + o8;
            for (int i = 0; i < 8; ++i) s += int32{a[i]} * int32{w[i * 8]};
        }
        v = upd_elem(v, o8, s);
    }
    return v;
}

uint8 relu_round_even(int64_t total, int scale) {
    const int64_t floor_q = total >> scale; // arithmetic: floor division by 2^scale
    const int64_t rest = total - (floor_q << scale);
    const int64_t half = int64_t{1} << (scale - 1);
    const int64_t q = floor_q + ((rest > half || (rest == half && (floor_q & 1))) ? 1 : 0);
    return static_cast<uint8>(q < 0 ? 0 : q > 255 ? 255 : q);
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk1_partial_put_i8(const std::int8_t* input, const std::int8_t* weights, std::int32_t width,
                             std::int32_t input_channels, std::int32_t, std::int32_t input_split, std::int32_t,
                             std::int32_t, std::int32_t oc) {
    event0();
    const int chunk = input_channels / input_split;
    for (int px = 0; px < kPartialPixels; ++px) put_mcd(lups(partial_sums(input, weights, width, 0, chunk, oc, px), 0));
    event1();
}

void conv2dk1_partial_get_relu_i8(const std::int8_t* input, const std::int8_t* weights, std::uint8_t* output,
                                  std::int32_t width, std::int32_t input_channels, std::int32_t output_channels,
                                  std::int32_t scale, std::int32_t input_split, std::int32_t output_split,
                                  std::int32_t weight_index, std::int32_t, std::int32_t oc) {
    event0();
    const int chunk = input_channels / input_split;
    const int group = oc + output_channels / (8 * output_split) * weight_index;
    for (int px = 0; px < kPartialPixels; ++px) {
        const v16int32 mine = partial_sums(input, weights, width, chunk, chunk, oc, px);
        const v16int32 theirs = lsrs(get_scd_v16acc64(), 0, 1);
        for (int o8 = 0; o8 < 8; ++o8)
            output[(group * width + px) * 8 + o8] =
                relu_round_even(int64_t{ext_elem(mine, o8)} + int64_t{ext_elem(theirs, o8)}, scale);
    }
    event1();
}

void conv2dk1_partial_put_ui8(const std::uint8_t* input, const std::int8_t* weights, std::int32_t width,
                              std::int32_t input_channels, std::int32_t, std::int32_t input_split, std::int32_t,
                              std::int32_t, std::int32_t oc) {
    event0();
    const int chunk = input_channels / input_split;
    for (int px = 0; px < kPartialPixels; ++px) put_mcd(lups(partial_sums(input, weights, width, 0, chunk, oc, px), 0));
    event1();
}

void conv2dk1_partial_get_skip_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output,
                                  const std::int8_t* skip, std::int32_t width, std::int32_t input_channels,
                                  std::int32_t output_channels, std::int32_t scale, std::int32_t skip_scale,
                                  std::int32_t input_split, std::int32_t output_split, std::int32_t weight_index,
                                  std::int32_t, std::int32_t oc) {
    event0();
    const int chunk = input_channels / input_split;
    const int group = oc + output_channels / (8 * output_split) * weight_index;
    for (int px = 0; px < kPartialPixels; ++px) {
        const v16int32 mine = partial_sums(input, weights, width, 0, chunk, oc, px);
        // the neighbour's sums, read under the core's modes as the put left them (saturation off)
        const v16int32 theirs = lsrs(get_scd_v16acc64(), 0, 0);
        // the two roundings: to even, saturated to int8; the core's modes are restored afterwards
        const aie::rounding_mode old_rounding = aie::swap_rounding(aie::rounding_mode::conv_even);
        const aie::saturation_mode old_saturation = aie::swap_saturation(aie::saturation_mode::saturate);
        aie::accum<acc32, 16> acc;
        acc.from_vector(aie::add(mine, theirs), 0);
        const aie::vector<int8, 16> conv = acc.template to_vector<int8>(scale);
        aie::vector<int32, 16> with_skip = aie::zeros<int32, 16>();
        const int8* sk = skip + (group * width + px) * 8;
        for (unsigned o8 = 0; o8 < 8; ++o8) with_skip[o8] = int32{conv[o8]} + int32{sk[o8]};
        acc.from_vector(with_skip, 0);
        const aie::vector<int8, 16> res = acc.template to_vector<int8>(skip_scale);
        aie::set_rounding(old_rounding);
        aie::set_saturation(old_saturation);
        int8* out = output + (group * width + px) * 8;
        for (unsigned o8 = 0; o8 < 8; ++o8) out[o8] = res[o8];
    }
    event1();
}

} // namespace npusim::aie_kernels
