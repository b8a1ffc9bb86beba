// conv2dk14_i8: 14x14 convolution with stride 14 of RGBA tiles (uint8) into int8 channels. In the
// input layout [tile/8][pixel pair][tile%8][pixel%2][rgba] the 8 tiles x 2 pixels x 4 values of one
// pixel pair are a 64-byte 8x8 row-major block, and the weights of that pair for 8 output channels
// ([co/8][pair][pixel%2][rgba][co%8]) an 8x8 block, so each pair is an aie::mmul<8, 8, 8, uint8, int8>
// (acc32) giving 8 tiles x 8 channels, the output layout's block [co/8][tile/8][tile%8][co%8]. Two
// tile groups share each weight block. The sums are shifted by `scale` rounding ties away from zero
// (symmetric_inf) and saturated to int8.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

using MM14 = aie::mmul<8, 8, 8, uint8, int8>;

template <int Groups>
void k14_groups(const uint8* input, const int8* weights, int8* output, int32_t tile_groups, int32_t pairs, int32_t oc8,
                int32_t g0, int32_t scale) {
    MM14 acc[Groups];
    for (int g = 0; g < Groups; ++g) acc[g] = aie::zeros<acc32, MM14::size_C>();
    const int8* w = weights + oc8 * pairs * MM14::size_B;
    for (int32_t p = 0; p < pairs; ++p) {
        const aie::vector<int8, MM14::size_B> wv = aie::load_v<MM14::size_B>(w + p * MM14::size_B);
        for (int g = 0; g < Groups; ++g)
            acc[g].mac(aie::load_v<MM14::size_A>(input + ((g0 + g) * pairs + p) * MM14::size_A), wv);
    }
    for (int g = 0; g < Groups; ++g)
        aie::store_v(output + (oc8 * tile_groups + g0 + g) * MM14::size_C, acc[g].template to_vector<int8>(scale));
}

} // namespace

namespace npusim::aie_kernels {

void conv2dk14_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                  std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                  std::int32_t scale) {
    (void)input_channels; // 4 values (RGBA) a pixel
    event0();
    aie::set_rounding(aie::rounding_mode::symmetric_inf);
    aie::set_saturation(aie::saturation_mode::saturate);
    const int32_t tile_groups = width / kernel_width / 8;
    const int32_t pairs = kernel_width * kernel_width / 2;
    for (int32_t oc8 = 0; oc8 < output_channels / 8; ++oc8) {
        int32_t g = 0;
        for (; g + 2 <= tile_groups; g += 2) k14_groups<2>(input, weights, output, tile_groups, pairs, oc8, g, scale);
        for (; g < tile_groups; ++g) k14_groups<1>(input, weights, output, tile_groups, pairs, oc8, g, scale);
    }
    event1();
}

} // namespace npusim::aie_kernels
