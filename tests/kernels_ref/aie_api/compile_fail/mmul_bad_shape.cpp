// expect: aie::mmul shape MxKxN not supported
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<3, 4, 4, int16, int16> m;
    return static_cast<int>(m.size());
}
