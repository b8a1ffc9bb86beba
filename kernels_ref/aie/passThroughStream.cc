// passThroughStream: read a line from L1 and put each 32-bit word on the core's output stream
// port with put_ms, as upstream kernels feeding an `aie_stream` producer end do
// (mlir-aie programming_examples/ml/magika/kernels/group2.cc: `put_ms(px[i], (i == 213))`); the
// last word carries tlast.
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

void passThroughStream(const std::int32_t* in, std::int32_t n) {
    event0();
    for (std::int32_t i = 0; i < n; ++i) put_ms(in[i], i == n - 1);
    event1();
}

} // namespace npusim::aie_kernels
