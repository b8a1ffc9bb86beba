#pragma once
// aie::accum<Tag, N>: integer accumulators (32 or 64 bits a lane, wrapping) and float accumulators.
#include "vector.hpp"

#include <bit>

// Block floating point (bfp.hpp): the element tag and the block vector, declared here so that
// accum<accfloat>::to_vector<bfp16ebs8>() can name them.
struct bfp16ebs8;

namespace aie {

template <typename Tag, unsigned N>
class accum;
template <typename T, unsigned N>
class block_vector;
namespace detail {
template <typename T>
inline constexpr bool is_block_elem = std::is_same_v<T, ::bfp16ebs8>;
template <typename T, typename Tag, unsigned N>
block_vector<T, N> accum_to_block(const accum<Tag, N>& acc);
} // namespace detail

namespace detail {
template <typename T>
inline constexpr bool is_accum_v = false;
template <typename Tag, unsigned N>
inline constexpr bool is_accum_v<accum<Tag, N>> = true;
} // namespace detail

template <typename Tag, unsigned N>
class accum {
    static_assert(detail::is_accum_tag<Tag>,
                  "npusim aie_api: aie::accum tag must be acc32, acc40, acc48, acc56, acc64 or accfloat "
                  "(complex accumulators are not supported by the host layer)");
    static_assert(detail::valid_accum_size<Tag, N>,
                  "npusim aie_api: illegal aie::accum lane count; it must be a power of two, at least 8 lanes "
                  "for acc32 and 4 for acc64/accfloat, at most 256");

public:
    using value_type = Tag;
    using storage_type = detail::accum_storage_t<Tag>;
    static constexpr unsigned size() { return N; }
    static constexpr unsigned accum_bits() { return detail::accum_tag_bits<Tag>; }
    static constexpr bool is_floating_point() { return detail::is_float_accum_tag<Tag>; }

    constexpr accum() = default;

    // From a vector, up-shifted by shift (integer accumulators). A float accumulator takes the values.
    template <typename T>
    explicit accum(const vector<T, N>& v, int shift = 0) {
        from_vector(v, shift);
    }

    // A float accumulator from a bfp16ebs8 block vector: each lane's value m * 2^(E - 133), exact.
    template <typename T>
    requires(detail::is_block_elem<T> && detail::is_float_accum_tag<Tag>) explicit accum(const block_vector<T, N>& v) {
        for (unsigned i = 0; i < N; ++i) data_[i] = v.get(i);
    }

    // Between accumulator tags of the same class: integer lanes are sign-extended or wrapped.
    template <typename Tag2>
    requires(!std::is_same_v<Tag2, Tag> && detail::is_float_accum_tag<Tag2> == detail::is_float_accum_tag<Tag>)
        accum(const accum<Tag2, N>& o) {
        for (unsigned i = 0; i < N; ++i) data_[i] = static_cast<storage_type>(o.lane(i));
    }

    // A float vector stored into a 32-bit integer accumulator keeps each lane's 32 bits (a register
    // move; no conversion). AIE API documents integer accumulators with integer vectors only, but
    // mlir-aie's aie2p/rms_norm.cc (lines 20-29 at 3ca0193) keeps a running float sum this way:
    // `accum<acc32, N> acc = aie::add(float_v, float_v); v = acc.to_vector<float>();`. [est] the
    // hardware moves the bits unchanged; to_vector<float>() below moves them back.
    template <typename T>
    requires(std::is_same_v<T, float> && !detail::is_float_accum_tag<Tag> && detail::accum_tag_bits<Tag> == 32)
        accum& operator=(const vector<T, N>& v) {
        for (unsigned i = 0; i < N; ++i) data_[i] = std::bit_cast<storage_type>(v[i]);
        return *this;
    }

    // A bfloat16 or float vector assigned to a float accumulator loads its values (as from_vector;
    // mlir-aie's aie2p/mm_bfp_mixed.cc l.81 at 3ca0193 writes `accum<accfloat, 64> acc; acc = bf16_vector;`).
    template <typename T>
    requires(detail::is_float_accum_tag<Tag> && detail::is_float_elem<T>) accum& operator=(const vector<T, N>& v) {
        return from_vector(v);
    }

    // A float accumulator converts implicitly to a bfloat16 or float vector, as to_vector<T>() (the
    // AIE API conversion that lets `aie::vector<bfloat16, 16> v = aie::mul(a, b);` compile; bfloat16
    // is rounded with the core's rounding mode, float is exact). Integer accumulators need an
    // explicit to_vector<T>(shift).
    template <typename T>
    requires(detail::is_float_accum_tag<Tag> && detail::is_float_elem<T>) operator vector<T, N>() const {
        return to_vector<T>();
    }

    // A 32-bit integer accumulator cast to a 32-bit integer vector of its lane count keeps each lane's
    // bits (UG1583 Casting: `v16int32(v16acc32)`, `v32int32(v32acc32)` in mlir-aie's magika kernels).
    template <typename T>
    requires(!detail::is_float_accum_tag<Tag> && detail::accum_tag_bits<Tag> == 32 &&
             (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>)) explicit
    operator vector<T, N>() const {
        vector<T, N> r;
        for (unsigned i = 0; i < N; ++i) r[i] = static_cast<T>(data_[i]);
        return r;
    }

    template <typename T>
    accum& from_vector(const vector<T, N>& v, int shift = 0) {
        if constexpr (is_floating_point()) {
            static_assert(detail::is_float_elem<T>,
                          "npusim aie_api: an accfloat accumulator is loaded from a bfloat16 or float vector");
            for (unsigned i = 0; i < N; ++i) data_[i] = detail::to_f(v[i]);
        } else {
            static_assert(detail::is_int_elem<T>,
                          "npusim aie_api: an integer accumulator is loaded from an integer vector (use "
                          "aie::to_fixed for floating-point data)");
            using U = std::make_unsigned_t<storage_type>;
            if (shift >= 0) {
                const int s = shift >= int(accum_bits()) ? int(accum_bits()) - 1 : shift;
                for (unsigned i = 0; i < N; ++i)
                    data_[i] = shift >= int(accum_bits())
                                   ? storage_type{0}
                                   : static_cast<storage_type>(static_cast<U>(static_cast<storage_type>(v[i])) << s);
            } else {
                const int s = -shift >= 63 ? 63 : -shift;
                for (unsigned i = 0; i < N; ++i)
                    data_[i] = static_cast<storage_type>(static_cast<std::int64_t>(v[i]) >> s);
            }
        }
        return *this;
    }

    // Shift-round-saturate into a vector of T, with the core's rounding and saturation modes.
    // Float accumulators: to bfloat16 (rounded with the core's rounding mode) or float (exact); the
    // shift is ignored.
    template <typename T>
    auto to_vector(int shift = 0) const {
        if constexpr (detail::is_block_elem<T>) {
            static_assert(is_floating_point(), "npusim aie_api: only a float accumulator converts to bfp16ebs8");
            return detail::accum_to_block<T>(*this);
        } else {
            return to_plain_vector<T>(shift);
        }
    }

    // The same, with the signedness of the destination chosen at run time (AIE API to_vector_sign).
    template <typename T>
    vector<T, N> to_vector_sign(bool /*v_sign*/, int shift = 0) const {
        return to_plain_vector<T>(shift);
    }

private:
    template <typename T>
    vector<T, N> to_plain_vector(int shift) const {
        vector<T, N> r;
        if constexpr (is_floating_point()) {
            static_assert(detail::is_float_elem<T>,
                          "npusim aie_api: accfloat::to_vector converts to bfloat16 or float only (use aie::to_fixed "
                          "for integers)");
            if constexpr (std::is_same_v<T, float>) {
                for (unsigned i = 0; i < N; ++i) r[i] = data_[i];
            } else {
                const rounding_mode rm = get_rounding();
                detail::dispatch_modes(rm, saturation_mode::none, [&]<rounding_mode R, saturation_mode>() {
                    for (unsigned i = 0; i < N; ++i)
                        r[i] = bfloat16::from_bits(detail::float_to_bf16_bits<R>(data_[i]));
                });
            }
        } else if constexpr (std::is_same_v<T, float> && accum_bits() == 32) {
            // The lanes' bits back as floats (see operator= from a float vector) [est].
            for (unsigned i = 0; i < N; ++i) r[i] = std::bit_cast<float>(static_cast<std::int32_t>(data_[i]));
        } else {
            static_assert(detail::is_int_elem<T>,
                          "npusim aie_api: an integer accumulator converts to an integer vector only (use "
                          "aie::to_float for floating-point results)");
            // Fast path: no shift and a destination at least as wide as the accumulator.
            if (shift == 0 && detail::type_bits<T> >= accum_bits() && std::is_signed_v<T>) {
                for (unsigned i = 0; i < N; ++i) r[i] = static_cast<T>(data_[i]);
                return r;
            }
            detail::dispatch_modes(get_rounding(), get_saturation(), [&]<rounding_mode R, saturation_mode S>() {
                if (shift == 0) {
                    for (unsigned i = 0; i < N; ++i)
                        r[i] = detail::saturate_to<T, S>(static_cast<std::int64_t>(data_[i]));
                } else {
                    for (unsigned i = 0; i < N; ++i)
                        r[i] = detail::srs_lane<T, R, S>(static_cast<std::int64_t>(data_[i]), shift);
                }
            });
        }
        return r;
    }

public:
    template <unsigned M>
    accum<Tag, M> extract(unsigned idx) const {
        static_assert(M <= N && N % M == 0, "npusim aie_api: accum::extract<M> needs M to divide the lane count");
        accum<Tag, M> r;
        for (unsigned i = 0; i < M; ++i) r.lane(i) = data_[idx * M + i];
        return r;
    }
    template <unsigned M>
    accum& insert(unsigned idx, const accum<Tag, M>& a) {
        static_assert(M <= N && N % M == 0, "npusim aie_api: accum::insert needs the sub-accumulator size to divide N");
        for (unsigned i = 0; i < M; ++i) data_[idx * M + i] = a.lane(i);
        return *this;
    }
    template <unsigned M>
    accum<Tag, M> grow(unsigned idx = 0) const {
        static_assert(M >= N && M % N == 0, "npusim aie_api: accum::grow<M> needs M to be a multiple of N");
        accum<Tag, M> r;
        r.insert(idx, *this);
        return r;
    }

    // npusim extension (not in the AIE API): direct lane access for tests and for the layer itself.
    storage_type& lane(unsigned i) { return data_[i]; }
    const storage_type& lane(unsigned i) const { return data_[i]; }

private:
    storage_type data_[N]{};
};

// Deduction guide for aie::accum acc(vector): the accumulator class follows the element type.
template <typename T, unsigned N>
accum(const vector<T, N>&, int = 0) -> accum<detail::accum_tag_for_elem_t<T>, N>;

} // namespace aie
