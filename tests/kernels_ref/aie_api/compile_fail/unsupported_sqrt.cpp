// expect: aie::sqrt is not supported by the host layer
#include <aie_api/aie.hpp>
int main() {
    auto v = aie::broadcast<float, 16>(2.0f);
    auto r = aie::sqrt(v);
    (void)r;
    return 0;
}
