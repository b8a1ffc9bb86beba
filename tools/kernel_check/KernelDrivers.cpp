// The references: mlir-aie aie_kernels at 3ca0193 (file and line for each entry point), the element-wise
// semantics their sources state, and AIE-API's for the vector paths: integer products wrap in the
// output type when the saturation mode is none (the reset mode, which these sources keep), and a
// bf16 vector add or multiply is rounded to bf16 with the core's rounding mode, floor at reset, which
// rounds the magnitude down (npusim's host-layer model: kernels_ref/aie_api/README.md). The scalar
// paths compute in C++ and convert float to bf16 to nearest even. Inputs keep float sums and
// products exact, so each reference rounds once.
#include "KernelDrivers.hpp"

#include "npusim/kernels/bfloat16.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <fmt/format.h>
#include <functional>
#include <type_traits>

namespace npusim::kernel_check {

namespace {

using bf16 = npusim::bfloat16;
constexpr int kN = 1024;

struct Rng {
    std::uint32_t s;
    std::uint32_t next() {
        s = s * 1664525u + 1013904223u;
        return s >> 8;
    }
};

template <class T>
std::vector<T> ints(std::size_t n, std::uint32_t seed) {
    Rng r{seed};
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>((static_cast<std::uint64_t>(r.next()) << 24) ^ r.next());
    return v;
}

// bf16 values of magnitude 2^-3 .. 2^3 with any 7-bit mantissa, never zero: sums and products of two
// are exact in float.
std::vector<bf16> bf16s(std::size_t n, std::uint32_t seed) {
    Rng r{seed};
    std::vector<bf16> v(n);
    for (auto& x : v) {
        const auto w = r.next();
        x = bf16::from_bits(static_cast<std::uint16_t>(((w & 1u) << 15) | ((124u + (w >> 1) % 7u) << 7) | ((w >> 4) & 0x7fu)));
    }
    return v;
}

bf16 nearest(float f) { return bf16(f); }
bf16 toward_zero(float f) { return bf16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16)); }

template <class T>
std::string show(T x) {
    if constexpr (std::is_same_v<T, bf16>)
        return fmt::format("{} (0x{:04x})", static_cast<float>(x), x.bits);
    else
        return fmt::format("{}", +x);
}

template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want) {
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0)
            return fmt::format("element {}: got {}, want {}", i, show(got[i]), show(want[i]));
    return {};
}

// aie2/add.cc:21 (scalar) and :29 (aie::add), aie2/mul.cc:19 and :28 (aie::mul)
void add_bf16_binary(std::vector<Entry>& out) {
    const auto binary = [](float (*op)(float, float), bf16 (*round)(float)) {
        return [op, round](void* p) {
            const auto a = bf16s(kN, 1), b = bf16s(kN, 2);
            std::vector<bf16> c(kN), want(kN);
            reinterpret_cast<void (*)(bf16*, bf16*, bf16*)>(p)(const_cast<bf16*>(a.data()), const_cast<bf16*>(b.data()),
                                                              c.data());
            for (int i = 0; i < kN; ++i) want[i] = round(op(a[i], b[i]));
            return compare(c, want);
        };
    };
    const auto add = +[](float x, float y) { return x + y; };
    const auto mul = +[](float x, float y) { return x * y; };
    out.push_back({"eltwise_add_bf16_scalar", binary(add, nearest)});
    out.push_back({"eltwise_add_bf16_vector", binary(add, toward_zero)});
    out.push_back({"eltwise_mul_bf16_scalar", binary(mul, nearest)});
    out.push_back({"eltwise_mul_bf16_vector", binary(mul, toward_zero)});
    // aie2/relu.cc:30: max(x, 0)
    out.push_back({"bf16_relu", [](void* p) {
                       const auto a = bf16s(kN, 3);
                       std::vector<bf16> c(kN), want(kN);
                       reinterpret_cast<void (*)(bf16*, bf16*)>(p)(const_cast<bf16*>(a.data()), c.data());
                       for (int i = 0; i < kN; ++i) want[i] = static_cast<float>(a[i]) > 0 ? a[i] : bf16::from_bits(0);
                       return compare(c, want);
                   }});
}

// aie2/scale.cc:21 (scalar) and :43-49 (aie::mul, to_vector<T>(0)): c = a * factor, wrapped in T
template <class T>
void add_scale(std::vector<Entry>& out) {
    for (const char* name : {"vector_scalar_mul_scalar", "vector_scalar_mul_vector"})
        out.push_back({name, [](void* p) {
                           const auto a = ints<T>(kN, 4);
                           std::vector<T> c(kN), want(kN);
                           std::int32_t factor = -7;
                           reinterpret_cast<void (*)(T*, T*, std::int32_t*, std::int32_t)>(p)(
                               const_cast<T*>(a.data()), c.data(), &factor, kN);
                           for (int i = 0; i < kN; ++i)
                               want[i] = static_cast<T>(static_cast<std::int64_t>(a[i]) * factor);
                           return compare(c, want);
                       }});
}

// generic/passThrough.cc:40-66: a copy (Line: lineWidth elements, Tile: height x width)
template <class T>
void add_passthrough(std::vector<Entry>& out) {
    out.push_back({"passThroughLine", [](void* p) {
                       const auto a = ints<T>(kN, 5);
                       std::vector<T> c(kN);
                       reinterpret_cast<void (*)(T*, T*, std::int32_t)>(p)(const_cast<T*>(a.data()), c.data(), kN);
                       return compare(c, a);
                   }});
    out.push_back({"passThroughTile", [](void* p) {
                       const auto a = ints<T>(kN, 6);
                       std::vector<T> c(kN);
                       reinterpret_cast<void (*)(T*, T*, std::int32_t, std::int32_t)>(p)(const_cast<T*>(a.data()),
                                                                                        c.data(), 4, kN / 4);
                       return compare(c, a);
                   }});
}

// aie2/threshold.cc:11-17 (the types, OpenCV's: binary, binary_inv, trunc, tozero, tozero_inv, each
// testing thresh < x) and :241-323 (Line, Tile, and threshold = binary)
template <class T>
T threshold_ref(T x, T t, T m, int type) {
    const bool above = t < x;
    switch (type) {
    case 0: return above ? m : T(0);
    case 1: return above ? T(0) : m;
    case 2: return above ? t : x;
    case 3: return above ? x : T(0);
    default: return above ? T(0) : x;
    }
}
template <class T>
void add_threshold(std::vector<Entry>& out) {
    const T t = std::is_signed_v<T> ? T(-5) : T(100), m = T(77);
    out.push_back({"thresholdLine", [t, m](void* p) {
                       const auto a = ints<T>(kN, 7);
                       for (int type = 0; type < 5; ++type) {
                           std::vector<T> c(kN), want(kN);
                           reinterpret_cast<void (*)(T*, T*, std::int32_t, T, T, std::uint8_t)>(p)(
                               const_cast<T*>(a.data()), c.data(), kN, t, m, static_cast<std::uint8_t>(type));
                           for (int i = 0; i < kN; ++i) want[i] = threshold_ref(a[i], t, m, type);
                           if (auto d = compare(c, want); !d.empty()) return fmt::format("type {}: {}", type, d);
                       }
                       return std::string();
                   }});
    out.push_back({"thresholdTile", [t, m](void* p) {
                       const auto a = ints<T>(kN, 8);
                       for (int type = 0; type < 5; ++type) {
                           std::vector<T> c(kN), want(kN);
                           reinterpret_cast<void (*)(T*, T*, std::int32_t, std::int32_t, T, T, std::uint8_t)>(p)(
                               const_cast<T*>(a.data()), c.data(), 4, kN / 4, t, m, static_cast<std::uint8_t>(type));
                           for (int i = 0; i < kN; ++i) want[i] = threshold_ref(a[i], t, m, type);
                           if (auto d = compare(c, want); !d.empty()) return fmt::format("type {}: {}", type, d);
                       }
                       return std::string();
                   }});
    out.push_back({"threshold", [t, m](void* p) {
                       const auto a = ints<T>(kN, 9);
                       std::vector<T> c(kN), want(kN);
                       reinterpret_cast<void (*)(T*, T*, std::int32_t, std::int32_t, std::int32_t, std::int32_t)>(p)(
                           const_cast<T*>(a.data()), c.data(), t, m, kN / 4, 4);
                       for (int i = 0; i < kN; ++i) want[i] = threshold_ref(a[i], t, m, 0);
                       return compare(c, want);
                   }});
}

// aie2/bitwiseAND.cc:51-84, bitwiseOR.cc:51-84: element-wise & and |
template <class T>
void add_bitwise(std::vector<Entry>& out) {
    for (const bool is_and : {true, false}) {
        const std::string op = is_and ? "AND" : "OR";
        const auto ref = [is_and](T x, T y) { return static_cast<T>(is_and ? (x & y) : (x | y)); };
        out.push_back({"bitwise" + op + "Line", [ref](void* p) {
                           const auto a = ints<T>(kN, 10), b = ints<T>(kN, 11);
                           std::vector<T> c(kN), want(kN);
                           reinterpret_cast<void (*)(T*, T*, T*, std::int32_t)>(p)(
                               const_cast<T*>(a.data()), const_cast<T*>(b.data()), c.data(), kN);
                           for (int i = 0; i < kN; ++i) want[i] = ref(a[i], b[i]);
                           return compare(c, want);
                       }});
        out.push_back({"bitwise" + op + "Tile", [ref](void* p) {
                           const auto a = ints<T>(kN, 12), b = ints<T>(kN, 13);
                           std::vector<T> c(kN), want(kN);
                           reinterpret_cast<void (*)(T*, T*, T*, std::int32_t, std::int32_t)>(p)(
                               const_cast<T*>(a.data()), const_cast<T*>(b.data()), c.data(), 4, kN / 4);
                           for (int i = 0; i < kN; ++i) want[i] = ref(a[i], b[i]);
                           return compare(c, want);
                       }});
    }
}

// aie2/reduce_add.cc:47-51, reduce_min.cc:48-52, reduce_max.cc:79-99: out[0] = sum (wrapping) / min /
// max of n elements; compute_max: out[0] = max(a[0], b[0])
void add_reduce(std::vector<Entry>& out) {
    using R = std::function<std::int32_t(const std::vector<std::int32_t>&)>;
    const R sum = [](const auto& v) {
        std::uint32_t s = 0;
        for (auto x : v) s += static_cast<std::uint32_t>(x);
        return static_cast<std::int32_t>(s);
    };
    const R mn = [](const auto& v) { return *std::min_element(v.begin(), v.end()); };
    const R mx = [](const auto& v) { return *std::max_element(v.begin(), v.end()); };
    const std::pair<const char*, R> reductions[] = {{"reduce_add", sum}, {"reduce_min", mn}, {"reduce_max", mx}};
    for (const auto& [base, ref] : reductions)
        for (const char* variant : {"_vector", "_scalar"})
            out.push_back({std::string(base) + variant, [ref](void* p) {
                               const auto a = ints<std::int32_t>(kN, 14);
                               std::vector<std::int32_t> c(1);
                               reinterpret_cast<void (*)(std::int32_t*, std::int32_t*, std::int32_t)>(p)(
                                   const_cast<std::int32_t*>(a.data()), c.data(), kN);
                               return compare(c, {ref(a)});
                           }});
    for (const char* name : {"reduce_max_vector_bfloat16", "reduce_max_scalar_bfloat16"})
        out.push_back({name, [](void* p) {
                           const auto a = bf16s(kN, 15);
                           std::vector<bf16> c(2);
                           reinterpret_cast<void (*)(bf16*, bf16*, std::int32_t)>(p)(const_cast<bf16*>(a.data()),
                                                                                    c.data(), kN);
                           bf16 m = a[0];
                           for (auto x : a) m = static_cast<float>(x) > static_cast<float>(m) ? x : m;
                           return compare(std::vector<bf16>{c[0]}, {m});
                       }});
    out.push_back({"compute_max", [](void* p) {
                       std::int32_t a = -40, b = 17, c = 0;
                       reinterpret_cast<void (*)(std::int32_t*, std::int32_t*, std::int32_t*)>(p)(&a, &b, &c);
                       return compare(std::vector<std::int32_t>{c}, {17});
                   }});
    out.push_back({"compute_max_bfloat16", [](void* p) {
                       bf16 a = -2.5f, b = 1.25f, c;
                       reinterpret_cast<void (*)(bf16*, bf16*, bf16*)>(p)(&a, &b, &c);
                       return compare(std::vector<bf16>{c}, {b});
                   }});
}

template <template <class> class Add>
void by_width(std::vector<Entry>& out, int bits, bool unsigned8) {
    if (bits == 8 && unsigned8)
        Add<std::uint8_t>{}(out);
    else if (bits == 16)
        Add<std::int16_t>{}(out);
    else
        Add<std::int32_t>{}(out);
}
template <class T>
struct AddPassthrough {
    void operator()(std::vector<Entry>& out) const { add_passthrough<T>(out); }
};
template <class T>
struct AddThreshold {
    void operator()(std::vector<Entry>& out) const { add_threshold<T>(out); }
};
template <class T>
struct AddBitwise {
    void operator()(std::vector<Entry>& out) const { add_bitwise<T>(out); }
};

} // namespace

std::vector<Driven> drive_all(void* handle, const BuildFacts& facts, void (*reset_modes)()) {
    std::vector<Entry> entries;
    add_bf16_binary(entries);
    if (facts.bit_width == 16)
        add_scale<std::int16_t>(entries);
    else
        add_scale<std::int32_t>(entries);
    by_width<AddPassthrough>(entries, facts.bit_width, true);
    by_width<AddThreshold>(entries, facts.bit_width, true);
    by_width<AddBitwise>(entries, facts.bit_width, true);
    add_reduce(entries);
    add_ml_kernels(entries, facts);
    add_mm_kernels(entries, facts);
    add_mm_bf16_kernels(entries, facts);
    add_bfp_kernels(entries, facts);
    add_cascade_conv_kernels(entries, facts);
    add_cascade_bn_kernels(entries, facts);
    add_post_bn_kernels(entries, facts);
    add_conv3_kernels(entries, facts);
    add_vision_kernels(entries, facts);
    add_norm_kernels(entries, facts);
    std::vector<Driven> out;
    for (const auto& e : entries) {
        void* fn = ::dlsym(handle, e.name.c_str());
        if (!fn) continue;
        reset_modes();
        out.push_back({e.name, e.run(fn)});
    }
    return out;
}

} // namespace npusim::kernel_check
