// A user's AIE-API kernel source, as written for the NPU: <aie_api/aie.hpp> and <lut_based_ops.h>
// resolve to npusim's host layer (installed in include/npusim/aie_api/, on npusim::aie_api's include
// path), so the same file compiles natively. npusim_add_external_function (CMakeLists.txt) builds it
// and binds scale_i32 for iron::ExternalFunction("scale_i32", ...).
#include <aie_api/aie.hpp>
#include <lut_based_ops.h>

#include <cstdint>

extern "C" {

// out[i] = in[i] * factor over n int32 elements (n a multiple of 16), 16 lanes at a time.
void scale_i32(const int32_t* in, int32_t* out, int32_t factor, int32_t n) {
    for (int32_t i = 0; i < n; i += 16) {
        const aie::vector<int32, 16> x = aie::load_v<16>(in + i);
        aie::store_v(out + i, aie::mul(x, factor).template to_vector<int32>(0));
    }
}
}
