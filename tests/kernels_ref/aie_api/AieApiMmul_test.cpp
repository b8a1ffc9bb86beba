// Unit tests of the AIE-API host layer: aie::mmul against a naive product, vector iterators, load/store and
// native types, the event hook, the cascade hooks and the core-mode state.
#include <aie_api/aie.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

namespace {

using aie::rounding_mode;
using aie::saturation_mode;
using npusim::aie_api::CoreModes;
using npusim::aie_api::ScopedCoreModes;

} // namespace

TEST_CASE("aie::mmul matches a naive product for every supported shape", "[aie_api][mmul]") {
    ScopedCoreModes guard;
    std::mt19937 rng(99);
    auto check_int = [&]<unsigned M, unsigned K, unsigned N, typename TA, typename TB, typename Tag>() {
        using MM = aie::mmul<M, K, N, TA, TB, Tag>;
        using S = typename MM::accum_type::storage_type;
        for (int iter = 0; iter < 30; ++iter) {
            aie::vector<TA, M * K> a;
            aie::vector<TB, K * N> b;
            aie::vector<int32, M * N> c0;
            for (unsigned i = 0; i < M * K; ++i)
                a[i] = iter == 0 ? std::numeric_limits<TA>::min() : static_cast<TA>(rng());
            for (unsigned i = 0; i < K * N; ++i)
                b[i] = iter == 0 ? std::numeric_limits<TB>::min() : static_cast<TB>(rng());
            for (unsigned i = 0; i < M * N; ++i) c0[i] = static_cast<int32>(rng());
            MM mm(c0);
            mm.mac(a, b);
            MM mm2;
            mm2.mul(a, b);
            const auto acc = mm.to_accum();
            const auto acc2 = mm2.to_accum();
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    std::int64_t sum = 0;
                    for (unsigned q = 0; q < K; ++q)
                        sum += static_cast<std::int64_t>(a[i * K + q]) * static_cast<std::int64_t>(b[q * N + j]);
                    const auto expect_mul = static_cast<S>(static_cast<std::make_unsigned_t<S>>(sum));
                    const auto expect_mac = static_cast<S>(static_cast<std::make_unsigned_t<S>>(sum + c0[i * N + j]));
                    INFO("shape " << M << "x" << K << "x" << N << " i=" << i << " j=" << j);
                    REQUIRE(acc2.lane(i * N + j) == expect_mul);
                    REQUIRE(acc.lane(i * N + j) == expect_mac);
                }
        }
    };
    // int16 x int16 (AIE2 4x4x4, AIE2P 4x4x8, and others), acc32 and acc64
    check_int.operator()<4, 4, 4, int16, int16, accauto>();
    check_int.operator()<4, 4, 4, int16, int16, acc64>();
    check_int.operator()<4, 4, 8, int16, int16, accauto>();
    check_int.operator()<4, 4, 8, int16, int16, acc64>();
    check_int.operator()<2, 4, 8, int16, int16, accauto>();
    check_int.operator()<4, 8, 8, int16, int16, accauto>();
    check_int.operator()<2, 8, 8, int16, int16, acc64>();
    check_int.operator()<8, 2, 8, int16, int16, acc32>();
    check_int.operator()<4, 4, 4, uint16, int16, accauto>();
    check_int.operator()<4, 4, 4, int16, int16, accfloat>(); // integer product asked for accfloat: acc32
    static_assert(std::is_same_v<aie::mmul<4, 4, 4, int16, int16, accfloat>::accum_type, aie::accum<acc32, 16>>);
    static_assert(std::is_same_v<aie::mmul<4, 4, 4, int16, int16>::accum_type, aie::accum<acc32, 16>>);
    // int8 x int8 (AIE2 4x8x8, AIE2P 8x8x8, ...)
    check_int.operator()<4, 8, 4, int8, int8, accauto>();
    check_int.operator()<4, 8, 8, int8, int8, accauto>();
    check_int.operator()<8, 8, 8, int8, int8, accauto>();
    check_int.operator()<4, 16, 8, int8, int8, accauto>();
    check_int.operator()<8, 8, 4, uint8, int8, accauto>();
    check_int.operator()<2, 8, 8, uint8, uint8, accauto>();
    // mixed widths
    check_int.operator()<4, 4, 8, int16, int8, accauto>();
    check_int.operator()<4, 4, 8, int8, int16, accauto>();

    // bfloat16: exact products, summed in order in single precision, then added to C
    auto check_bf16 = [&]<unsigned M, unsigned K, unsigned N>() {
        using MM = aie::mmul<M, K, N, bfloat16, bfloat16>;
        static_assert(std::is_same_v<typename MM::accum_type, aie::accum<accfloat, M * N>>);
        std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
        for (int iter = 0; iter < 30; ++iter) {
            aie::vector<bfloat16, M * K> a;
            aie::vector<bfloat16, K * N> b;
            aie::vector<float, M * N> c0;
            for (unsigned i = 0; i < M * K; ++i) a[i] = dist(rng);
            for (unsigned i = 0; i < K * N; ++i) b[i] = dist(rng);
            for (unsigned i = 0; i < M * N; ++i) c0[i] = dist(rng);
            MM mm(c0);
            mm.mac(a, b);
            const auto out = mm.template to_vector<float>();
            for (unsigned i = 0; i < M; ++i)
                for (unsigned j = 0; j < N; ++j) {
                    double exact = c0[i * N + j];
                    float seq = 0;
                    for (unsigned q = 0; q < K; ++q) {
                        exact += static_cast<double>(float(a[i * K + q])) * float(b[q * N + j]);
                        seq += float(a[i * K + q]) * float(b[q * N + j]);
                    }
                    REQUIRE(out[i * N + j] == c0[i * N + j] + seq);
                    REQUIRE(std::abs(out[i * N + j] - exact) <= 1e-5 * (1.0 + std::abs(exact)));
                }
        }
    };
    check_bf16.operator()<4, 8, 4>();
    check_bf16.operator()<4, 8, 8>();
    check_bf16.operator()<8, 8, 8>();
    check_bf16.operator()<8, 8, 4>();
    check_bf16.operator()<4, 16, 4>();

    // assignment from an accumulator and to_vector with a shift
    using MM8 = aie::mmul<4, 8, 8, int8, int8>;
    MM8 m8 = aie::zeros<acc32, MM8::size_C>();
    m8.mac(aie::broadcast<int8, 32>(-128), aie::broadcast<int8, 64>(-128));
    aie::set_saturation(saturation_mode::saturate);
    aie::set_rounding(rounding_mode::positive_inf);
    CHECK(m8.to_vector<int8>(10)[0] == 127); // 8 * 16384 >> 10 = 128 -> saturates
    CHECK(m8.to_vector<int16>(10)[31] == 128);
}

TEST_CASE("vector iterators view memory as vectors", "[aie_api][iterator]") {
    std::vector<int16> buf(128);
    for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<int16>(i);
    auto it = aie::begin_vector<32>(buf.data());
    auto cit = aie::cbegin_vector<32>(buf.data());
    const aie::vector<int16, 32> first = *cit++;
    CHECK(first[5] == 5);
    CHECK((*cit)[0] == 32);
    CHECK(cit[1][0] == 64);
    *it++ = aie::broadcast<int16, 32>(-1);
    CHECK(buf[31] == -1);
    CHECK(buf[32] == 32);
    (*it)[0] = 77;
    CHECK(buf[32] == 77);
    it += 2;
    *it = aie::add(*it, int16{1000});
    CHECK(buf[96] == 1096);
    auto rit = aie::begin_restrict_vector<32>(buf.data());
    CHECK(it - rit == 3);
    CHECK(rit != it);
    CHECK((rit + 3) == it);
    auto cr = aie::cbegin_restrict_vector<16>(buf.data());
    CHECK((*++cr)[0] == -1); // buf[16], overwritten above
    CHECK((*++cr)[0] == 77); // buf[32]
}

TEST_CASE("load/store, zeros/broadcast, native types and intrinsics", "[aie_api][basic]") {
    ScopedCoreModes guard;
    std::vector<int32> mem(48);
    for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<int32>(i * i);
    const auto v = aie::load_v<16>(mem.data() + 1); // any alignment on the host
    CHECK(v[0] == 1);
    const aie::vector<int32> nat = aie::load_v(mem.data());
    static_assert(decltype(nat)::size() == 16);
    static_assert(aie::vector<bfloat16>::size() == 32);
    static_assert(aie::vector<int8>::size() == 64);
    aie::store_v(mem.data() + 32, v);
    CHECK(mem[47] == 16 * 16);
    CHECK(aie::zeros<int16, 32>()[31] == 0);
    const auto za = aie::zeros<acc32, 32>();
    static_assert(std::is_same_v<decltype(za), const aie::accum<acc32, 32>>);
    CHECK(aie::broadcast<uint8>(7)[63] == 7);
    // native type names are aie::vector aliases
    static_assert(std::is_same_v<v16int32, aie::vector<int32, 16>>);
    static_assert(std::is_same_v<v32bfloat16, aie::vector<bfloat16, 32>>);
    v16int32 n = v;
    n = upd_elem(n, 3, 42);
    CHECK(ext_elem(n, 3) == 42);
    // shift_bytes: window of a:b starting at byte s
    v16int32 a = aie::load_v<16>(mem.data());
    v16int32 b = aie::load_v<16>(mem.data() + 16);
    const v16int32 s = shift_bytes(a, b, 8);
    CHECK(s[0] == a[2]);
    CHECK(s[13] == a[15]);
    CHECK(s[14] == b[0]);
    CHECK(s[15] == b[1]);
    CHECK(shift_bytes(a, a, 32)[0] == a[8]);
    CHECK(broadcast_zero_bfloat16() == aie::zeros<bfloat16, 32>());
    CHECK(bor(aie::broadcast<uint8, 64>(0x0F), aie::broadcast<uint8, 64>(0xF0))[0] == 0xFF);
    CHECK(aie::bit_xor(aie::broadcast<uint8, 64>(0x0F), uint8{0xFF})[1] == 0xF0);
    CHECK(aie::bit_not(aie::broadcast<int16, 32>(0))[2] == -1);
    CHECK(aie::upshift(aie::broadcast<int16, 32>(-3), 2)[0] == -12);
    CHECK(aie::downshift(aie::broadcast<int16, 32>(-13), 2)[0] == -4);
    set_sat();
    CHECK(aie::get_saturation() == saturation_mode::saturate);
    clr_sat();
    CHECK(aie::get_saturation() == saturation_mode::none);
    set_rnd(rnd_conv_even);
    CHECK(aie::get_rounding() == rounding_mode::conv_even);
    CHECK(get_rnd() == 12u);
    // float <-> fixed
    auto fx = aie::to_fixed<int16>(aie::broadcast<float, 16>(2.5f), 1);
    CHECK(fx[0] == 5);
    fx = aie::to_fixed<int16>(aie::broadcast<float, 16>(2.5f), 0);
    CHECK(fx[0] == 2); // ties to even
    CHECK(aie::to_fixed<int8>(aie::broadcast<float, 16>(1000.0f))[0] == 127);
    CHECK(aie::to_float(aie::broadcast<int32, 16>(6), 1)[0] == 3.0f);
    // numeric_limits<bfloat16>
    CHECK(std::numeric_limits<bfloat16>::lowest().bits == 0xFF7F);
    CHECK(float(std::numeric_limits<bfloat16>::max()) > 3.38e38f);
}

namespace {
std::vector<int> g_events;
void record_event(int e) { g_events.push_back(e); }
} // namespace

TEST_CASE("event0/event1 call the installed hook", "[aie_api][event]") {
    g_events.clear();
    event0(); // no hook: ignored
    npusim::aie_api::set_event_hook(&record_event);
    CHECK(npusim::aie_api::get_event_hook() == &record_event);
    event0();
    event1();
    event1();
    npusim::aie_api::set_event_hook(nullptr);
    event0();
    CHECK(g_events == std::vector<int>{0, 1, 1});
}

namespace {
std::deque<std::array<std::byte, 64>> g_cascade;
void cascade_put_test(const void* w) {
    std::array<std::byte, 64> a;
    std::memcpy(a.data(), w, 64);
    g_cascade.push_back(a);
}
void cascade_get_test(void* w) {
    std::memcpy(w, g_cascade.front().data(), 64);
    g_cascade.pop_front();
}
} // namespace

TEST_CASE("put_mcd / get_scd move one 512-bit word through the cascade hooks", "[aie_api][cascade]") {
    CHECK_THROWS_WITH(put_mcd(v16int32{}),
                      "put_mcd: no cascade is connected (the kernel runs outside a simulated core)");
    CHECK_THROWS_WITH(get_scd_v16int32(),
                      "get_scd: no cascade is connected (the kernel runs outside a simulated core)");
    npusim::aie_api::set_cascade_hooks(&cascade_put_test, &cascade_get_test);
    v16int32 v = broadcast_zero_to_v16int32();
    v = upd_elem(v, 0, 123456789);
    v = upd_elem(v, 15, -7);
    put_mcd(v);
    auto h = aie::broadcast<int16, 32>(int16(-3));
    put_mcd(h);
    aie::accum<acc32, 16> acc(aie::broadcast<int32, 16>(41));
    put_mcd(acc);
    REQUIRE(g_cascade.size() == 3);
    const v16int32 got = get_scd_v16int32();
    CHECK(ext_elem(got, 0) == 123456789);
    CHECK(ext_elem(got, 15) == -7);
    CHECK(ext_elem(got, 7) == 0);
    const v32int16 g16 = get_scd_v32int16();
    for (unsigned i = 0; i < 32; ++i) CHECK(g16[i] == -3);
    const auto ga = get_scd_v16acc32();
    CHECK(ga.to_vector<int32>(0)[5] == 41);
    CHECK(g_cascade.empty());
    npusim::aie_api::set_cascade_hooks(nullptr, nullptr);
}

TEST_CASE("core modes: defaults, save/restore", "[aie_api][modes]") {
    npusim::aie_api::reset_core_modes();
    CHECK(aie::get_rounding() == rounding_mode::floor);
    CHECK(aie::get_saturation() == saturation_mode::none);
    {
        ScopedCoreModes s(CoreModes{rounding_mode::conv_even, saturation_mode::saturate});
        CHECK(aie::get_rounding() == rounding_mode::conv_even);
        aie::set_saturation(saturation_mode::symmetric);
        CHECK(npusim::aie_api::get_core_modes() == CoreModes{rounding_mode::conv_even, saturation_mode::symmetric});
    }
    CHECK(npusim::aie_api::get_core_modes() == CoreModes{});
    aie::tile::current().set_rounding(rounding_mode::ceil);
    CHECK(aie::tile::current().get_rounding() == rounding_mode::ceil);
    npusim::aie_api::reset_core_modes();
}
