// expect: operand A must be aie::vector<TypeA, M\*K>
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<4, 4, 4, int16, int16> m;
    m.mac(aie::zeros<int16, 32>(), aie::zeros<int16, 16>());
    return 0;
}
