// expect: mixes floating-point and integer operands
#include <aie_api/aie.hpp>
int main() {
    auto a = aie::mul(aie::zeros<bfloat16, 16>(), aie::zeros<int16, 16>());
    (void)a;
    return 0;
}
