// expect: aie::sliding_mul_sym_ops is not supported by the host layer
#include <aie_api/aie.hpp>
using mul_ops = aie::sliding_mul_sym_ops<16, 8, 1, 1, 1, int16, int16>;
int main() {
    aie::vector<int16, 16> k;
    aie::vector<int16, 32> d;
    auto acc = mul_ops::mul_sym(k, 0, d, 0);
    (void)acc;
    return 0;
}
