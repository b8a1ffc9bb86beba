// expect: has no 64-bit accumulator mode
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<4, 8, 8, int8, int8, acc64> m;
    return static_cast<int>(m.size());
}
