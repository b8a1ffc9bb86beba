// Control: a valid use compiles with the same command line.
#include <aie_api/aie.hpp>
int main() {
    aie::mmul<4, 4, 8, int16, int16> m;
    m.mac(aie::zeros<int16, 16>(), aie::zeros<int16, 32>());
    return m.to_vector<int32>()[0];
}
