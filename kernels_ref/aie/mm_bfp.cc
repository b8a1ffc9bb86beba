// bfp16 matmul on AIE2P: C (bfp16) += A (bfp16) * B^T (bfp16), 8x8x8 block MACs. The loop follows
// mlir-aie's aie_kernels/aie2p/mm_bfp.cc at 3ca0193 (matmul_vectorized_2x2_bfp16, l.76-151): two rows
// of A subtiles against two columns of B^T subtiles per step, four accumulators loaded from C, one
// mac_8x8_8x8T per subtile pair along K, the sums quantized back into C. Sizes are run-time arguments
// here (upstream fixes them with -DDIM_M/K/N).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace npusim::aie_kernels {

namespace {
using bfp_in = aie::block_vector_input_buffer_stream<bfp16ebs8, 64>;
using bfp_out = aie::block_vector_output_buffer_stream<bfp16ebs8, 64>;
} // namespace

void matmul_bfp16(const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* c, int m, int k, int n) {
    const auto* pA = reinterpret_cast<const bfp16ebs8*>(a);
    const auto* pB = reinterpret_cast<const bfp16ebs8*>(b);
    auto* pC = reinterpret_cast<bfp16ebs8*>(c);
    const int rowA = m / 8, colA = k / 8, colB = n / 8; // in 8x8 subtiles
    event0();
    for (int z = 0; z < rowA; z += 2) {
        bfp_in c1_in(pC), c2_in(pC);
        c1_in.seek(z * colB);
        c2_in.seek((z + 1) * colB);
        bfp_out c1_out(pC), c2_out(pC);
        c1_out.seek(z * colB);
        c2_out.seek((z + 1) * colB);
        for (int j = 0; j < colB; j += 2) {
            bfp_in a1(pA), a2(pA), b1(pB), b2(pB);
            a1.seek(z * colA);
            a2.seek((z + 1) * colA);
            b1.seek(j * colA);
            b2.seek((j + 1) * colA);
            aie::accum<accfloat, 64> c00(c1_in.pop()), c01(c1_in.pop()), c10(c2_in.pop()), c11(c2_in.pop());
            for (int i = 0; i < colA; ++i) {
                const v64bfp16ebs8 A0 = a1.pop(), A1 = a2.pop(), B0 = b1.pop(), B1 = b2.pop();
                c00 = mac_8x8_8x8T(A0, B0, c00);
                c01 = mac_8x8_8x8T(A0, B1, c01);
                c10 = mac_8x8_8x8T(A1, B0, c10);
                c11 = mac_8x8_8x8T(A1, B1, c11);
            }
            c1_out.push(c00.to_vector<bfp16ebs8>());
            c1_out.push(c01.to_vector<bfp16ebs8>());
            c2_out.push(c10.to_vector<bfp16ebs8>());
            c2_out.push(c11.to_vector<bfp16ebs8>());
        }
    }
    event1();
}

void zero_bfp16(std::uint8_t* c, int m, int n) {
    bfp_out out(reinterpret_cast<bfp16ebs8*>(c));
    const aie::accum<accfloat, 64> zero = aie::zeros<accfloat, 64>();
    for (int i = 0; i < m * n / 64; ++i) out << zero.to_vector<bfp16ebs8>();
}

} // namespace npusim::aie_kernels
