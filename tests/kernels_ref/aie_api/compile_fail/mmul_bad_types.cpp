// expect: aie::mmul element types not supported
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<4, 4, 4, int32, int32> m;
    return static_cast<int>(m.size());
}
