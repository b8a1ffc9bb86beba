#include "MatmulCommon.hpp"

#include "GemmMod32.hpp"
#include "npusim/kernels/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace npusim::examples::matmul {

using namespace npusim::iron;

namespace {

std::int64_t index_of(const std::vector<std::string>& names, DType t) {
    const auto it = std::find(names.begin(), names.end(), std::string(dtype_name(t)));
    return it - names.begin();
}

DType dtype_named(const std::string& name) { // a name of kDtypeInNames / kDtypeOutNames
    for (DType t : {DType::i8, DType::i16, DType::i32, DType::bf16})
        if (dtype_name(t) == name) return t;
    return DType::f32;
}

// The combinations mm.cc builds (its combos(X) per arch; the same on AIE2 and AIE2P).
constexpr std::pair<DType, DType> kCombos[] = {
    {DType::i8, DType::i8},   {DType::i8, DType::i16},    {DType::i8, DType::i32},  {DType::i16, DType::i16},
    {DType::i16, DType::i32}, {DType::bf16, DType::bf16}, {DType::bf16, DType::f32}};

} // namespace

ParamSpec dtype_in_param(DType in) {
    return {"dtype_in", index_of(kDtypeInNames, in), "element type of A and B", kDtypeInNames};
}
ParamSpec dtype_out_param(DType out) {
    return {"dtype_out", index_of(kDtypeOutNames, out), "element type of C", kDtypeOutNames};
}

std::string dtype_note(DType in, DType out) {
    return fmt::format("{} {}; combinations i8->i8/i16/i32, i16->i16/i32, bf16->bf16/f32",
                       dtype_in_param(in).describe(), dtype_out_param(out).describe());
}

Types dtypes(const std::string& design, const Params& p) {
    const Types ty{dtype_named(kDtypeInNames.at(static_cast<std::size_t>(p.at("dtype_in")))),
                   dtype_named(kDtypeOutNames.at(static_cast<std::size_t>(p.at("dtype_out"))))};
    for (const auto& [in, out] : kCombos)
        if (in == ty.in && out == ty.out) return ty;
    std::vector<std::string> combos;
    for (const auto& [in, out] : kCombos) combos.push_back(fmt::format("{}->{}", dtype_name(in), dtype_name(out)));
    throw DesignError(
        fmt::format("design '{}': dtype_in={} dtype_out={} is not a combination the mm kernel builds ({})", design,
                    dtype_name(ty.in), dtype_name(ty.out), fmt::join(combos, ", ")));
}

StreamDims a_dims(std::int64_t m, std::int64_t k, MacDims d) {
    return {{m / d.r, d.r * k}, {k / d.s, d.s}, {d.r, k}, {d.s, 1}};
}
StreamDims b_dims(std::int64_t k, std::int64_t n, MacDims d) {
    return {{k / d.s, d.s * n}, {n / d.t, d.t}, {d.s, n}, {d.t, 1}};
}
StreamDims c_dims(std::int64_t m, std::int64_t n, MacDims d) {
    return {{m / d.r, d.r * n}, {d.r, d.t}, {n / d.t, d.r * d.t}, {d.t, 1}};
}

TensorType flat(DType t, std::int64_t count) { return TensorType{t, {count}}; }
TensorType matrix(DType t, std::int64_t rows, std::int64_t cols) { return TensorType{t, {rows, cols}}; }

std::vector<std::int16_t> random_i16(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::int16_t> v(n);
    for (auto& x : v) x = static_cast<std::int16_t>(static_cast<std::int64_t>(rng() % 16384) - 8192);
    return v;
}

Tensor random_input(DType t, std::int64_t count, std::uint64_t seed) {
    const auto n = static_cast<std::size_t>(count);
    if (t == DType::i16) return Tensor::from({count}, random_i16(n, seed));
    std::mt19937_64 rng(seed);
    if (t == DType::i8) {
        std::vector<std::int8_t> v(n);
        for (auto& x : v) x = static_cast<std::int8_t>(static_cast<std::int64_t>(rng() % 64) - 32);
        return Tensor::from({count}, v);
    }
    std::vector<bfloat16> v(n); // (rng.random() * 4.0).astype(bfloat16)
    for (auto& x : v) x = bfloat16(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53 * 4.0));
    return Tensor::from({count}, v);
}

Tensor reference(const Tensor& A, const Tensor& B, std::int64_t M, std::int64_t K, std::int64_t N, Types ty) {
    Tensor C;
    with_mm_types(ty, [&](auto a, auto c) {
        using TA = decltype(a);
        using TC = decltype(c);
        C = Tensor(ty.out, {M * N});
        auto* out = reinterpret_cast<TC*>(C.data.data());
        if constexpr (std::is_integral_v<TA>) {
            // Integer outputs are at most 32 bits and astype keeps the low bits, so accumulating mod
            // 2^32 gives exactly the bits the int64 sum would (gemm_mod32, GemmMod32.hpp). int16
            // inputs are read where they are; int8 ones widen to int16 (exactly) first.
            static_assert(sizeof(TC) <= 4);
            auto as_i16 = [](const Tensor& t, std::int64_t n, std::vector<std::int16_t>& wide) {
                if (t.dtype != dtype_of<TA>() || t.elements() != n)
                    throw std::invalid_argument(fmt::format("matmul::reference: an input is {}, not {}[{}]",
                                                            t.type_str(), dtype_name(dtype_of<TA>()), n));
                const auto* v = reinterpret_cast<const TA*>(t.data.data());
                if constexpr (std::is_same_v<TA, std::int16_t>) {
                    return v;
                } else {
                    wide.assign(v, v + n);
                    return static_cast<const std::int16_t*>(wide.data());
                }
            };
            std::vector<std::int16_t> wa, wb;
            const auto* a16 = as_i16(A, M * K, wa);
            const auto* b16 = as_i16(B, K * N, wb);
            if constexpr (sizeof(TC) == 4)
                gemm_mod32(a16, b16, reinterpret_cast<std::uint32_t*>(out), M, K, N);
            else
                gemm_mod32(a16, b16, out, M, K, N); // astype: the low bits, written in place
        } else {
            // Floats accumulate in double, then round to the output type.
            auto widen = [](TA v) { return static_cast<double>(static_cast<float>(v)); };
            const auto av = A.values<TA>(), bv = B.values<TA>();
            std::vector<double> acc(static_cast<std::size_t>(M * N), 0.0);
            for (std::int64_t i = 0; i < M; ++i) {
                auto* row = &acc[static_cast<std::size_t>(i * N)];
                for (std::int64_t q = 0; q < K; ++q) {
                    const double x = widen(av[static_cast<std::size_t>(i * K + q)]);
                    const TA* b = &bv[static_cast<std::size_t>(q * N)];
                    for (std::int64_t j = 0; j < N; ++j) row[j] += x * widen(b[j]);
                }
            }
            for (std::size_t i = 0; i < acc.size(); ++i) out[i] = TC(static_cast<float>(acc[i]));
        }
    });
    return C;
}

ArgSpec output_spec(const TensorType& C_ty, Types ty, std::int64_t K, std::int64_t k) {
    // Inputs in [0, 4): every product and partial sum is non-negative, so a rounding of a partial
    // sum errs by at most its relative unit roundoff u times the final value.
    //  - f32: the K fp32 additions (u = 2^-24) and the golden's one rounding, doubled for margin.
    //  - bf16 (8 significant bits, u = 2^-8): each of the K/k calls rounds its sum to bf16, the
    //    golden rounds once, plus the fp32 accumulation; bounded by (K/k + 2) * 2^-8.
    if (ty.out == DType::f32) return ArgSpec::output("C", C_ty, 2.0 * static_cast<double>(K + 1) * 0x1.0p-24, 0);
    if (ty.out == DType::bf16) return ArgSpec::output("C", C_ty, static_cast<double>(K / k + 2) * 0x1.0p-8, 0);
    return ArgSpec::output("C", C_ty);
}

GroupPlan plan_groups(const model::DeviceSpec& dev, const std::string& design, std::int64_t a, std::int64_t b,
                      std::int64_t c) {
    const std::int64_t queue = dev.task_queue_depth, bds = dev.shim.bds;
    for (const GroupPlan g : {GroupPlan{2, 2}, GroupPlan{1, 2}, GroupPlan{1, 1}})
        if (g.in_flight * g.rows * std::max(a, b) <= queue && g.in_flight * (g.rows * (a + b) + c) <= bds) return g;
    throw DesignError(fmt::format("design '{}': one row block's fills need {} (A) and {} (B) shim tasks on one "
                                  "channel, more than its {}-deep task queue (a repeat over 2^{} is split into "
                                  "several tasks); use a larger n or more columns",
                                  design, a, b, queue, dev.shim.iteration_bits));
}

} // namespace npusim::examples::matmul
