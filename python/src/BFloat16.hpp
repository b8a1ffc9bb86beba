#pragma once
// bfloat16 for numpy without ml_dtypes: the bit conversions shared by the scalar type
// (BFloat16Scalar.cpp) and the numpy dtype with its casts and ufunc loops (BFloat16Dtype.cpp).
// bfloat16 is the upper half of an IEEE binary32: 1 sign, 8 exponent, 7 mantissa bits.
#include "Bindings.hpp"

#include <cstdint>
#include <cstring>

namespace npusim::python::bf16 {

inline float to_float(std::uint16_t b) {
    const std::uint32_t u = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/// Round to nearest, ties to even; a NaN becomes the quiet NaN of its sign (0x7fc0 / 0xffc0), as
/// ml_dtypes (Eigen's float_to_bfloat16_rtne) does; a value rounding past the largest finite one
/// becomes infinity.
inline std::uint16_t from_float(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (u & 0x80000000u) ? 0xffc0 : 0x7fc0;
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<std::uint16_t>(u >> 16);
}

/// A double goes through float first (as ml_dtypes' bfloat16(double) does), so both agree bit for bit.
inline std::uint16_t from_double(double d) { return from_float(static_cast<float>(d)); }

/// The Python scalar type `bfloat16` (a numpy generic), its value, and making one.
PyTypeObject* scalar_type();
bool is_scalar(PyObject* o);
std::uint16_t scalar_bits(PyObject* o);
PyObject* make_scalar(std::uint16_t bits);
/// Any Python number (int, float, numpy scalar, bfloat16) as bfloat16 bits; false with a Python
/// error set when it is not one.
bool bits_from_object(PyObject* o, std::uint16_t* out);

/// Registers the scalar type (needs numpy's C API imported first).
void init_scalar_type();
/// The numpy type number of the registered dtype (-1 before registration).
int dtype_num();

} // namespace npusim::python::bf16
