// A user's AIE-API kernel for the ExternalFunction tests, built twice by
// npusim_add_external_function (tests/harness/CMakeLists.txt) with -DDIM_M=64 and -DDIM_M=32, as
// IRON designs pass -DDIM_M to their kernel sources. EXT_OFFSET comes from a header found through
// INCLUDE_DIRS.
#include <aie_api/aie.hpp>

#include <cstdint>

#include "ext_affine_offset.h"

#ifndef DIM_M
#error "DIM_M is given by the build (-DDIM_M=...)"
#endif

extern "C" {

// out[i] = in[i] * factor + EXT_OFFSET over DIM_M int32 elements, 16 lanes at a time.
void ext_affine(const int32_t* in, int32_t* out, int32_t factor) {
    for (int i = 0; i < DIM_M; i += 16) {
        const aie::vector<int32, 16> x = aie::load_v<16>(in + i);
        const auto product = aie::mul(x, factor);
        aie::store_v(out + i, aie::add(product.template to_vector<int32>(0), int32(EXT_OFFSET)));
    }
}

// out[0] = DIM_M: which build runs.
void ext_dim(int32_t* out) { out[0] = DIM_M; }
}
