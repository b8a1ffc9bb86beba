#pragma once
// conv2dk14_i8: 14x14 convolution with stride 14 of an RGBA image (mlir-aie aie_kernels/aie2p/
// conv2dk14.cc's vector conv2dk14_i8, :125-190, the kernel IRON's aie.iron.kernels.conv2dk14 builds;
// ml/conv2d_14x14). The image row of `width` pixels is cut into width / kernel_width tiles of
// kernel_width x kernel_width pixels, each pixel 4 uint8 values (RGBA); every tile gives one output
// pixel of `co` int8 channels. Layouts (conv2dk14.cc:108-121), with P = kernel_width^2 pixels a tile
// taken in pairs:
//   input   [tile/8][P/2][tile%8][pixel%2][rgba]
//   weights [co/8][P/2][pixel%2][rgba][co%8]
//   output  [co/8][tile/8][tile%8][co%8]
// out = sat_i8(sum over the tile's pixels and rgba of input * weight, shifted by `scale` rounding ties
// away from zero): the vector kernel sets symmetric_inf rounding and saturation (:131-134) and stores
// to_vector<int8>(scale). (The source's scalar variant, which IRON does not build, rounds ties up.)
// input_channels is not used: a pixel is 4 values, as upstream, whatever the argument says.
// Preconditions (std::invalid_argument): non-null pointers, kernel_width positive and even (pixel
// pairs), width a positive multiple of 8 * kernel_width (tiles in groups of 8), output_channels a
// positive multiple of 8, 0 <= scale <= 31. Upstream's vector kernel further needs kernel_width 14
// and tiles in pairs of groups (16); the kernel library's factory checks those.
#include <npusim/kernels/kernel_common.hpp>

#include <cstdint>

namespace npusim::kernels {

void conv2dk14_i8(const std::uint8_t* input, const std::int8_t* weights, std::int8_t* output, std::int32_t width,
                  std::int32_t input_channels, std::int32_t output_channels, std::int32_t kernel_width,
                  std::int32_t scale);

// [est] the vector walk: one aie::mmul<8, 8, 8, uint8, int8> (512 MACs: 8 tiles x one pixel pair x
// 8 channels) per pixel pair, tile group and 8 output channels, which AIE2P's int8 unit issues each
// cycle and AIE2's (256 MACs per cycle, model::matmul_mac_peak) in two; plus 1 cycle per 8-tile x
// 8-channel output block for the SRS and store. `mmul_cycles` is 1 (AIE2P) or 2 (AIE2).
std::uint64_t conv2dk14_cycles(std::int32_t width, std::int32_t output_channels, std::int32_t kernel_width,
                               std::uint64_t mmul_cycles);

} // namespace npusim::kernels
