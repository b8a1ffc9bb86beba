// expect: aie::vector element type must be
#include <aie_api/aie.hpp>
int main() {
    aie::vector<double, 8> v;
    return static_cast<int>(v[0]);
}
