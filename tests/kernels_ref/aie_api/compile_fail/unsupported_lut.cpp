// expect: the intrinsic getExpBf16 is not supported by the host layer
#include <aie_api/aie.hpp>
int main() {
    auto v = aie::broadcast<bfloat16, 16>(bfloat16(1.0f));
    (void)getExpBf16(v);
    return 0;
}
