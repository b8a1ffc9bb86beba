// expect: aie::lut with separate slope and offset types
#include <aie_api/aie.hpp>
int main() {
    static bfloat16 ab[64], cd[64];
    aie::lut<4, float, bfloat16> l(32, ab, cd); // getTanhBf16's linear-approximation table
    (void)l;
    return 0;
}
