// scale (vector_scalar_mul): multiply a vector by a scalar factor. The product goes through an
// accumulator (acc32 for int16 inputs, acc64 for int32) and comes back with a shift of 0, wrapping to
// the element type (saturation none).
#include <aie_api/aie.hpp>

#include <npusim/aie_kernels.hpp>

namespace {

template <typename T, unsigned Lanes>
void scale_vectorized(const T* __restrict in, T* __restrict out, T factor, int32_t n) {
    event0();
    aie::set_saturation(aie::saturation_mode::none);
    AIE_PREPARE_FOR_PIPELINING
    AIE_LOOP_MIN_ITERATION_COUNT(16)
    for (int32_t i = 0; i < n; i += Lanes) {
        const aie::vector<T, Lanes> x = aie::load_v<Lanes>(in + i);
        const auto product = aie::mul(x, factor); // aie::accum<acc32|acc64, Lanes>
        aie::store_v(out + i, product.template to_vector<T>(0));
    }
    event1();
}

template <typename T>
void scale_scalar(const T* in, T* out, T factor, int32_t n) {
    event0();
    using U = std::make_unsigned_t<T>;
    for (int32_t i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<U>(in[i]) * static_cast<U>(factor));
    event1();
}

} // namespace

namespace npusim::aie_kernels {

void vector_scalar_mul_i16(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor, std::int32_t n) {
    scale_vectorized<int16, 32>(in, out, static_cast<int16>(*factor), n);
}
void vector_scalar_mul_i32(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor, std::int32_t n) {
    scale_vectorized<int32, 16>(in, out, *factor, n);
}
void vector_scalar_mul_i16_scalar(const std::int16_t* in, std::int16_t* out, const std::int32_t* factor,
                                  std::int32_t n) {
    scale_scalar<int16>(in, out, static_cast<int16>(*factor), n);
}
void vector_scalar_mul_i32_scalar(const std::int32_t* in, std::int32_t* out, const std::int32_t* factor,
                                  std::int32_t n) {
    scale_scalar<int32>(in, out, *factor, n);
}

} // namespace npusim::aie_kernels
