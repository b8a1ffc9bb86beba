#pragma once
// Multiplication variants: aie::mul_square / mac_square and the sliding multiplications
// (aie::sliding_mul_ops and its _x / _y / _xy aliases).
#include "accum.hpp"
#include "ops_logic.hpp" // and ops.hpp
#include "vector.hpp"

namespace aie {

// mul_square(v): v[i] * v[i] in the default accumulator of the element type (accfloat for bfloat16
// and float, acc32 / acc64 for integers), as aie::mul(v, v). mac_square(acc, v): acc + v[i] * v[i].
template <typename AccTag = accauto, typename T, unsigned N>
inline auto mul_square(const vector<T, N>& v) {
    return mul<AccTag>(v, v);
}
template <typename Tag, typename T, unsigned N>
inline accum<Tag, N> mac_square(const accum<Tag, N>& acc, const vector<T, N>& v) {
    return mac(acc, v, v);
}

// sliding_mul_ops: the AIE API's sliding multiplication (UG1079/UG1603 "Sliding Multiplication"):
//   out[l] = sum_{p < Points} coeff[cs + p * CoeffStep] * data[ds + l * DataStepY + p * DataStepX]
// for l < Lanes, products summed exactly in the accumulator (integer lanes wrap, as aie::mac).
// Coefficient and data indices wrap modulo the vector sizes [est: the hardware reads a register
// window; kernels keep their indices in range]. The accumulator class follows aie::mul's default for
// the two element types unless AccumTag names one.
template <unsigned Lanes, unsigned Points, int CoeffStep = 1, int DataStepX = 1, int DataStepY = DataStepX,
          typename CoeffType = int16, typename DataType = int16, typename AccumTag = accauto>
struct sliding_mul_ops {
    static_assert(Lanes > 0 && Points > 0, "npusim aie_api: sliding_mul_ops needs at least one lane and one point");
    using accum_tag = detail::mul_result_tag_t<AccumTag, CoeffType, DataType>;
    using accum_type = accum<accum_tag, Lanes>;

    template <unsigned NC, unsigned ND>
    static accum_type mul(const vector<CoeffType, NC>& coeff, unsigned coeff_start, const vector<DataType, ND>& data,
                          unsigned data_start) {
        accum_type acc;
        accumulate_into<1>(acc, coeff, coeff_start, data, data_start);
        return acc;
    }
    template <unsigned NC, unsigned ND>
    static accum_type mac(const accum_type& acc, const vector<CoeffType, NC>& coeff, unsigned coeff_start,
                          const vector<DataType, ND>& data, unsigned data_start) {
        accum_type r = acc;
        accumulate_into<1>(r, coeff, coeff_start, data, data_start);
        return r;
    }
    template <unsigned NC, unsigned ND>
    static accum_type negmul(const vector<CoeffType, NC>& coeff, unsigned coeff_start,
                             const vector<DataType, ND>& data, unsigned data_start) {
        accum_type acc;
        accumulate_into<-1>(acc, coeff, coeff_start, data, data_start);
        return acc;
    }
    template <unsigned NC, unsigned ND>
    static accum_type msc(const accum_type& acc, const vector<CoeffType, NC>& coeff, unsigned coeff_start,
                          const vector<DataType, ND>& data, unsigned data_start) {
        accum_type r = acc;
        accumulate_into<-1>(r, coeff, coeff_start, data, data_start);
        return r;
    }

private:
    static long long wrap_index(long long i, unsigned n) {
        const long long m = static_cast<long long>(n);
        return ((i % m) + m) % m;
    }
    template <int Sign, unsigned NC, unsigned ND>
    static void accumulate_into(accum_type& acc, const vector<CoeffType, NC>& coeff, unsigned cs,
                                const vector<DataType, ND>& data, unsigned ds) {
        for (unsigned l = 0; l < Lanes; ++l) {
            for (long long p = 0; p < static_cast<long long>(Points); ++p) {
                const auto c = coeff[static_cast<unsigned>(wrap_index(static_cast<long long>(cs) + p * CoeffStep, NC))];
                const auto d = data[static_cast<unsigned>(wrap_index(
                    static_cast<long long>(ds) + static_cast<long long>(l) * DataStepY + p * DataStepX, ND))];
                if constexpr (detail::is_float_accum_tag<accum_tag>) {
                    const float prod = detail::to_f(c) * detail::to_f(d);
                    acc.lane(l) = Sign > 0 ? acc.lane(l) + prod : acc.lane(l) - prod;
                } else {
                    using S = detail::accum_storage_t<accum_tag>;
                    const S prod = detail::wrap_mul<S>(c, d);
                    acc.lane(l) = Sign > 0 ? detail::wrap_add(acc.lane(l), prod) : detail::wrap_sub(acc.lane(l), prod);
                }
            }
        }
    }
};

template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepX, typename CoeffType, typename DataType,
          typename AccumTag = accauto>
using sliding_mul_x_ops = sliding_mul_ops<Lanes, Points, CoeffStep, DataStepX, 1, CoeffType, DataType, AccumTag>;
template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepY, typename CoeffType, typename DataType,
          typename AccumTag = accauto>
using sliding_mul_y_ops = sliding_mul_ops<Lanes, Points, CoeffStep, 1, DataStepY, CoeffType, DataType, AccumTag>;
template <unsigned Lanes, unsigned Points, int CoeffStep, int DataStepXY, typename CoeffType, typename DataType,
          typename AccumTag = accauto>
using sliding_mul_xy_ops =
    sliding_mul_ops<Lanes, Points, CoeffStep, DataStepXY, DataStepXY, CoeffType, DataType, AccumTag>;

} // namespace aie
