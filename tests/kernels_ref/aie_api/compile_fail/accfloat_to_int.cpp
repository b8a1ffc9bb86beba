// expect: accfloat::to_vector converts to bfloat16 or float only
#include <aie_api/aie.hpp>
int main() {
    aie::accum<accfloat, 16> a;
    return a.to_vector<int16>(0)[0];
}
