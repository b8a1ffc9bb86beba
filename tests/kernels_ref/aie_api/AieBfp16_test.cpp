// Block floating point (bfp16ebs8) in the AIE-API host layer against an independent bit-level
// reference: the quantizer is re-derived from the float's fields (two's-complement significand,
// arithmetic shifts, which truncate towards minus infinity, as mlir-aie's
// programming_examples/ml/block_datatypes/helper.h l.77-104 at 3ca0193 does), the other rounding
// modes in long double, the decoder as m / 64 * 2^(E - 127), and the 8x8x8 block product in long
// double.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using npusim::bfloat16;

namespace {

// Reference quantizer for one block of 8 finite floats: 9 bytes (exponent, 8 mantissas).
std::array<std::uint8_t, 9> ref_block(const float* x) {
    std::uint32_t e_max = 0;
    for (int k = 0; k < 8; ++k) e_max = std::max(e_max, (std::bit_cast<std::uint32_t>(x[k]) >> 23) & 0xFFu);
    std::array<std::uint8_t, 9> out{};
    out[0] = static_cast<std::uint8_t>(e_max);
    for (int k = 0; k < 8; ++k) {
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[k]);
        const std::uint32_t e = (u >> 23) & 0xFFu;
        // Significand as a signed integer; a denormal (e == 0) has no implicit bit and its exponent
        // field 0 is used as it is (helper.h l.84-85 and l.103).
        std::int64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0u);
        if (u >> 31) sig = -sig;
        // mantissa = floor(sig / 2^(17 + e_max - e)).
        const int sh = 17 + int(e_max) - int(e);
        const std::int64_t q = sh >= 63 ? (sig < 0 ? -1 : 0) : (sh >= 0 ? (sig >> sh) : sig * (std::int64_t(1) << -sh));
        out[1 + k] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
    return out;
}

// Round t with rounding mode m and saturate to int8 (reference for the non-floor modes).
int ref_round_sat(long double t, aie::rounding_mode m) {
    const long double fl = std::floor(t), frac = t - fl;
    long double r = fl;
    using RM = aie::rounding_mode;
    switch (m) {
    case RM::floor: r = fl; break;
    case RM::ceil: r = std::ceil(t); break;
    case RM::symmetric_floor: r = std::trunc(t); break;
    case RM::symmetric_ceil: r = t < 0 ? std::floor(t) : std::ceil(t); break;
    default:
        if (frac != 0.5L) {
            r = frac < 0.5L ? fl : fl + 1;
        } else if (m == RM::negative_inf) {
            r = fl;
        } else if (m == RM::positive_inf) {
            r = fl + 1;
        } else if (m == RM::symmetric_zero) {
            r = t < 0 ? fl + 1 : fl;
        } else if (m == RM::symmetric_inf) {
            r = t < 0 ? fl : fl + 1;
        } else if (m == RM::conv_even) {
            r = std::fmod(fl, 2.0L) == 0 ? fl : fl + 1;
        } else {
            r = std::fmod(fl, 2.0L) == 0 ? fl + 1 : fl;
        }
    }
    return r > 127 ? 127 : (r < -128 ? -128 : static_cast<int>(r));
}

long double ref_value(std::uint8_t e, std::int8_t m) { return std::ldexp(static_cast<long double>(m) / 64.0L, int(e) - 127); }

v64accfloat acc_from(const std::vector<float>& x) {
    v64accfloat a;
    for (unsigned i = 0; i < 64; ++i) a.lane(i) = x[i];
    return a;
}

} // namespace

TEST_CASE("accfloat to bfp16ebs8 quantizes each block against its largest exponent, truncating down",
          "[aie_api][bfp16]") {
    SECTION("hand-picked edges") {
        std::vector<float> x(64, 0.0f);
        // Block 0: largest 4.0 (E = 129); -1.1 needs floor (-17.6 -> -18); tiny values truncate to 0 / -1.
        const float b0[8] = {4.0f, -1.1f, 1.1f, 1e-6f, -1e-6f, -4.0f, 3.999f, -0.0f};
        // Block 1: all zero. Block 2: the largest finite floats. Block 3: denormals only.
        const float b2[8] = {3.4028235e38f, -3.4028235e38f, 1.0f, -1.0f, 1.7e38f, 0.0f, -1e38f, 2.5e37f};
        const float b3[8] = {1e-45f, -1e-45f, 5.877472e-39f, -5.877472e-39f, 0.0f, 1e-40f, -1e-40f, 0.0f};
        for (int k = 0; k < 8; ++k) {
            x[k] = b0[k];
            x[16 + k] = b2[k];
            x[24 + k] = b3[k];
        }
        const auto bv = acc_from(x).to_vector<bfp16ebs8>();
        static_assert(std::is_same_v<std::remove_cvref_t<decltype(bv)>, v64bfp16ebs8>);
        CHECK(bv.exponent(0) == 129);
        CHECK(bv.mantissa(0) == 64);
        CHECK(bv.mantissa(1) == -18);
        CHECK(bv.mantissa(2) == 17);
        CHECK(bv.mantissa(3) == 0);
        CHECK(bv.mantissa(4) == -1);
        CHECK(bv.mantissa(5) == -64);
        CHECK(bv.mantissa(6) == 63);
        CHECK(bv.mantissa(7) == 0);
        CHECK(bv.exponent(1) == 0);
        for (unsigned k = 0; k < 8; ++k) CHECK(bv.mantissa(8 + k) == 0); // zero block: all-zero bytes
        // Block 2, the largest exponent field (254): the extreme mantissas, small values to 0 / -1.
        CHECK(bv.exponent(2) == 254);
        CHECK(bv.mantissa(16) == 127);
        CHECK(bv.mantissa(17) == -128);
        CHECK(bv.mantissa(18) == 0);
        CHECK(bv.mantissa(19) == -1);
        // Block 3, denormals only: E = 0 and each significand shifted by 17 (helper.h uses the field
        // 0 as it is, so 2^-127 = 0x400000 * 2^-149 gives 32, not 64).
        CHECK(bv.exponent(3) == 0);
        CHECK(bv.mantissa(24) == 0);
        CHECK(bv.mantissa(25) == -1);
        CHECK(bv.mantissa(26) == 32);
        CHECK(bv.mantissa(27) == -32);
        for (unsigned b = 0; b < 4; ++b) {
            const auto ref = ref_block(x.data() + 8 * b);
            INFO("block " << b);
            CHECK(bv.exponent(b) == ref[0]);
            for (unsigned k = 0; k < 8; ++k) CHECK(bv.mantissa(8 * b + k) == static_cast<std::int8_t>(ref[1 + k]));
        }
    }
    SECTION("random blocks with a wide exponent spread") {
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
        std::uniform_int_distribution<int> ex(-30, 30);
        for (int rep = 0; rep < 200; ++rep) {
            std::vector<float> x(64);
            for (auto& v : x) v = std::ldexp(mant(rng), ex(rng));
            const auto bv = acc_from(x).to_vector<bfp16ebs8>();
            for (unsigned b = 0; b < 8; ++b) {
                const auto ref = ref_block(x.data() + 8 * b);
                REQUIRE(bv.exponent(b) == ref[0]);
                for (unsigned k = 0; k < 8; ++k) REQUIRE(bv.data()[b * 9 + 1 + k] == ref[1 + k]);
                for (unsigned k = 0; k < 8; ++k) {
                    // The decoded value never exceeds the input (truncation down) and is within one step.
                    const long double v = ref_value(ref[0], static_cast<std::int8_t>(ref[1 + k]));
                    REQUIRE(static_cast<long double>(bv.get(8 * b + k)) == v);
                    REQUIRE(v <= x[8 * b + k]);
                    REQUIRE(x[8 * b + k] - v < std::ldexp(1.0L, int(ref[0]) - 133));
                }
            }
        }
    }
    SECTION("the conversion follows the core rounding mode (mlir-aie aie2p/mm.cc l.89-97)") {
        // Behaviour change: this section asserted truncation whatever the mode; mm.cc documents that
        // the device conversion follows the rounding mode (floor, the reset mode, is truncation).
        npusim::aie_api::ScopedCoreModes keep;
        std::vector<float> x(64, 0.0f);
        x[0] = 2.0f;    // E = 128, one step = 2^-5
        x[1] = 0.99f;   // 31.68 steps
        x[2] = -0.99f;  // -31.68
        x[3] = 0.984375f; // 31.5 exactly: a tie
        x[4] = -0.984375f;
        x[5] = 1.953125f; // 62.5
        x[6] = 1.999f;  // 63.97 -> rounds up to 64: fits (|m| <= 127 for the block maximum 2.0)
        x[8] = 1.999f;  // block 1: E = 127, 127.94 steps -> 128 saturates to 127 when rounding up
        x[9] = -1.999f;
        const auto q = [&](aie::rounding_mode m) {
            aie::set_rounding(m);
            return acc_from(x).to_vector<bfp16ebs8>();
        };
        const auto fl = q(aie::rounding_mode::floor);
        CHECK(fl.mantissa(1) == 31);
        CHECK(fl.mantissa(2) == -32);
        CHECK(fl.mantissa(3) == 31);
        CHECK(fl.mantissa(8) == 127);
        CHECK(fl.mantissa(9) == -128);
        const auto ev = q(aie::rounding_mode::conv_even);
        CHECK(ev.mantissa(1) == 32);
        CHECK(ev.mantissa(2) == -32);
        CHECK(ev.mantissa(3) == 32);  // 31.5 -> 32 (even)
        CHECK(ev.mantissa(4) == -32);
        CHECK(ev.mantissa(5) == 62);  // 62.5 -> 62 (even)
        CHECK(ev.mantissa(6) == 64);
        CHECK(ev.mantissa(8) == 127); // 128 saturates
        CHECK(ev.mantissa(9) == -128);
        const auto ce = q(aie::rounding_mode::ceil);
        CHECK(ce.mantissa(2) == -31);
        CHECK(ce.mantissa(8) == 127);
        const auto sz = q(aie::rounding_mode::symmetric_zero);
        CHECK(sz.mantissa(3) == 31); // ties towards zero
        CHECK(sz.mantissa(4) == -31);
        // Every mode against a long double reference on random blocks.
        std::mt19937 rng(17);
        std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
        std::uniform_int_distribution<int> ex(-12, 12);
        const aie::rounding_mode modes[] = {
            aie::rounding_mode::floor,        aie::rounding_mode::ceil,          aie::rounding_mode::symmetric_floor,
            aie::rounding_mode::symmetric_ceil, aie::rounding_mode::negative_inf, aie::rounding_mode::positive_inf,
            aie::rounding_mode::symmetric_zero, aie::rounding_mode::symmetric_inf, aie::rounding_mode::conv_even,
            aie::rounding_mode::conv_odd};
        for (const auto m : modes) {
            for (int rep = 0; rep < 20; ++rep) {
                std::vector<float> y(64);
                for (auto& v : y) v = std::ldexp(std::round(mant(rng) * 1024.0f) / 1024.0f, ex(rng)); // many ties
                aie::set_rounding(m);
                const auto bv = acc_from(y).to_vector<bfp16ebs8>();
                for (unsigned b = 0; b < 8; ++b)
                    for (unsigned k = 0; k < 8; ++k) {
                        const long double t = std::ldexp(static_cast<long double>(y[8 * b + k]), 133 - int(bv.exponent(b)));
                        INFO("mode " << unsigned(m) << " value " << y[8 * b + k]);
                        REQUIRE(bv.mantissa(8 * b + k) == ref_round_sat(t, m));
                    }
            }
        }
    }
}

TEST_CASE("bfp16ebs8 buffer streams pop, push and seek whole block vectors", "[aie_api][bfp16]") {
    std::vector<std::uint8_t> mem(3 * 72 + 5, 0xEE);
    auto* p = reinterpret_cast<bfp16ebs8*>(mem.data());
    aie::block_vector_output_buffer_stream<bfp16ebs8, 64> out(p);
    for (int v = 0; v < 3; ++v) {
        std::vector<float> x(64);
        for (unsigned i = 0; i < 64; ++i) x[i] = float(v * 64 + int(i));
        out << acc_from(x).to_vector<bfp16ebs8>();
    }
    CHECK(mem[3 * 72] == 0xEE); // nothing written past three block vectors
    aie::block_vector_input_buffer_stream<bfp16ebs8, 64> in(p);
    in.seek(2);
    const auto third = in.pop();
    // Block 0 of the third vector holds 128..135: E = 134 (2^7), mantissas 64..67 (step 2).
    CHECK(third.exponent(0) == 134);
    CHECK(third.get(0) == 128.0f);
    CHECK(third.get(5) == 132.0f);
    const v64accfloat back(third);
    CHECK(back.lane(63) == 190.0f); // 191 truncates to the step of 2 below
    // The zero kernel's pattern: an all-zero accumulator gives all-zero bytes.
    aie::block_vector_output_buffer_stream<bfp16ebs8, 64> z(p);
    z << aie::zeros<accfloat, 64>().to_vector<bfp16ebs8>();
    for (int i = 0; i < 72; ++i) CHECK(mem[i] == 0);
}

TEST_CASE("mac_8x8_8x8T adds A * B^T of two blocks to the float accumulator", "[aie_api][bfp16]") {
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
    std::uniform_int_distribution<int> ex(-8, 8);
    for (int rep = 0; rep < 50; ++rep) {
        std::vector<float> xa(64), xb(64), xc(64);
        for (unsigned i = 0; i < 64; ++i) {
            xa[i] = std::ldexp(dist(rng), ex(rng));
            xb[i] = std::ldexp(dist(rng), ex(rng));
            xc[i] = dist(rng);
        }
        const auto a = acc_from(xa).to_vector<bfp16ebs8>();
        const auto b = acc_from(xb).to_vector<bfp16ebs8>();
        const auto c = mac_8x8_8x8T(a, b, acc_from(xc));
        for (unsigned i = 0; i < 8; ++i)
            for (unsigned j = 0; j < 8; ++j) {
                long double s = xc[i * 8 + j];
                for (unsigned k = 0; k < 8; ++k)
                    s += ref_value(a.exponent(i), a.mantissa(i * 8 + k)) * ref_value(b.exponent(j), b.mantissa(j * 8 + k));
                REQUIRE(c.lane(i * 8 + j) == static_cast<float>(s)); // one rounding to nearest even
            }
    }
}

TEST_CASE("mm_bfp_mixed's pieces: bf16 through accfloat into bfp16, mul_elem_64, broadcast_one",
          "[aie_api][bfp16]") {
    v64bfloat16 a;
    for (unsigned i = 0; i < 64; ++i) a[i] = bfloat16(0.25f * float(int(i) - 32));
    v64accfloat acc;
    acc = a; // a bf16 vector assigned to a float accumulator
    const v64accfloat ones = mul_elem_64(a, aie::concat(broadcast_one_to_v32bfloat16(), broadcast_one_to_v32bfloat16()));
    for (unsigned i = 0; i < 64; ++i) {
        CHECK(acc.lane(i) == static_cast<float>(a[i]));
        CHECK(ones.lane(i) == static_cast<float>(a[i]));
    }
    const auto q = acc.to_vector<bfp16ebs8>();
    // Block 0 is -8 .. -6.25: E = 130 (|-8| = 2^3), step 2^-3, all exact.
    CHECK(q.exponent(0) == 130);
    for (unsigned i = 0; i < 8; ++i) CHECK(q.get(i) == static_cast<float>(a[i]));
}
