// expect: illegal aie::vector size
#include <aie_api/aie.hpp>
int main() {
    aie::vector<int32, 12> v;
    return v[0];
}
