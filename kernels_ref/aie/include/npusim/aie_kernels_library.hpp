#pragma once
// AIE-API builds of the built-in kernel library's reductions (kernels_ref/aie/library_reduce.cc),
// after mlir-aie aie_kernels/aie2/reduce_add.cc and reduce_min.cc, re-expressed with aie::vector:
// a lane-wise running add / min over 512-bit registers, then the shift_bytes butterfly and lane 0.
// int32 wraps modulo 2^32. The vector forms need n % 16 == 0 (not checked, as on the hardware).
#include <cstdint>

namespace npusim::aie_kernels {

void reduce_add_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_add_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_min_vector(const std::int32_t* in, std::int32_t* out, std::int32_t n);
void reduce_min_scalar(const std::int32_t* in, std::int32_t* out, std::int32_t n);

} // namespace npusim::aie_kernels
