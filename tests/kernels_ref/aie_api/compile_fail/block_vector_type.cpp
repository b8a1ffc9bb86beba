// expect: aie::block_vector supports bfp16ebs8 only
#include <aie_api/aie.hpp>
int main() {
    aie::block_vector<int8, 64> b;
    (void)b;
    return 0;
}
