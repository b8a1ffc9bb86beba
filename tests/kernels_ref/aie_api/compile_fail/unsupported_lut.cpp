// expect: the intrinsic getTanhBf16 is not supported by the host layer
#include <aie_api/aie.hpp>
int main() {
    auto v = aie::broadcast<bfloat16, 16>(bfloat16(1.0f));
    (void)getTanhBf16(v);
    return 0;
}
