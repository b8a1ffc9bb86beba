// expect: aie::mmul shape MxKxN not supported
// (compiled with -DNPUSIM_AIE_ARCH=21: int16 4x4x4 is an AIE2-only shape)
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<4, 4, 4, int16, int16> m;
    return static_cast<int>(m.size());
}
