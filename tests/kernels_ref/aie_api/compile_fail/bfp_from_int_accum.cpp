// expect: only a float accumulator converts to bfp16ebs8
#include <aie_api/aie.hpp>
int main() {
    aie::accum<aie::acc32, 64> acc;
    auto b = acc.to_vector<bfp16ebs8>();
    (void)b;
    return 0;
}
