// expect: the intrinsic put_mcd is not supported by the host layer
#include <aie_api/aie.hpp>
int main() {
    auto v = aie::broadcast<int, 16>(1);
    put_mcd(v);
    return 0;
}
