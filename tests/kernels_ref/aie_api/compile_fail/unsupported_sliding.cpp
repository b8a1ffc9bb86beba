// expect: aie::sliding_mul_xy_ops is not supported by the host layer
#include <aie_api/aie.hpp>
using mul_ops = aie::sliding_mul_xy_ops<32, 8, 1, 1, int8, uint8>;
int main() {
    aie::vector<int8, 32> k;
    aie::vector<uint8, 64> d;
    auto acc = mul_ops::mul(k, 0, d, 0);
    (void)acc;
    return 0;
}
