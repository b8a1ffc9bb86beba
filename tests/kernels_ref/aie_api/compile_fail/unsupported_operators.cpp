// expect: are not supported by the host layer; call aie::add
#include <aie_api/aie.hpp>
using namespace aie::operators;
int main() {
    auto a = aie::broadcast<int, 16>(1);
    auto b = aie::broadcast<int, 16>(2);
    auto c = a + b;
    (void)c;
    return 0;
}
