// Drivers of cascade_mm.cc's integer kernels and the vector 1x1 convolutions (mlir-aie
// aie_kernels at 3ca0193).
//
// cascade_mm.cc (aie2/cascade_mm.cc:22-72, the extern "C" combos i16_i16 and i16_i32 at :84-88): each
// kernel sums the row x column products of its m x k and k x n row-major blocks in the output type,
// and put_only puts the sum as lane 0 of a v16int32 word, put_get adds lane 0 of the word it gets and
// puts the total, get_only adds lane 0 of the word it gets and its sum into C. Compared with
// npusim's reference (kernels_ref/cascade_matmul.hpp): lane 0 of every word put (upstream leaves the
// other lanes undefined or as received) and every element of C, the same words fed to both.
//
// conv2dk1.cc (conv.py's conv2dk1: -DINT8_ACT gives conv2dk1_i8, no flag conv2dk1_ui8): the same walk
// with int8 / uint8 activations and a uint8 output, positive_inf rounding and saturation (:131-134,
// :256-259): half up, clamped to [0, 255].
// conv2dk1_skip.cc (conv.py's conv2dk1_skip): two uint8 channel halves, an int8 / uint8 skip, uint8 out.
// conv2dk1_i8.cc with -DINT8_ACT (conv.py's conv2dk1_i8 flags): the vector kernel (aie2 :83-210,
// aie2p the same with an 8 x 8 x 8 mmul) sums int8 activations x int8 weights in acc32 lanes and
// converts with to_vector<int8>(scale) under symmetric_inf rounding and saturation (:98-101): ties
// round away from zero, results clamp to [-128, 127]. The reference is written here from that.
// Layouts: input [ci/8][x][8], weights [co/8][ci/8][ci%8][co%8], output [co/8][x][8] (the scalar
// variant's indexing, :45-57). The vector kernel needs width % 32 == 0 and ci >= 24 (:117-121).
#include "KernelDrivers.hpp"

#include "npusim/kernels/cascade_matmul.hpp"

#include <array>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

using Word = std::array<std::int32_t, 16>;
std::deque<Word> g_words_in, g_words_out;
bool g_underflow = false;

void cascade_put_hook(const void* w) {
    Word x;
    std::memcpy(x.data(), w, sizeof(Word));
    g_words_out.push_back(x);
}
void cascade_get_hook(void* w) {
    Word x{};
    if (g_words_in.empty())
        g_underflow = true;
    else {
        x = g_words_in.front();
        g_words_in.pop_front();
    }
    std::memcpy(w, x.data(), sizeof(Word));
}

std::uint32_t cc_next(std::uint32_t& seed) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

template <class T>
std::vector<T> cc_ints(std::size_t n, std::uint32_t seed, int lo, int hi) {
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(lo + static_cast<int>(cc_next(seed) % static_cast<std::uint32_t>(hi - lo + 1)));
    return v;
}

enum class CascadeRole { put_only, put_get, get_only };

// Runs one cascade entry (upstream's `fn`, or the reference) on the same inputs and words; returns
// the words it put and C.
template <class TOut>
std::pair<std::deque<Word>, std::vector<TOut>> cascade_run(CascadeRole role, void* fn, const BuildFacts& f,
                                                           const std::vector<std::int16_t>& a,
                                                           const std::vector<std::int16_t>& b, std::vector<TOut> c,
                                                           const std::deque<Word>& in) {
    g_words_in = in;
    g_words_out.clear();
    g_underflow = false;
    const int m = f.dim_m, k = f.dim_k, n = f.dim_n;
    if (fn) {
        f.connect_cascade(&cascade_put_hook, &cascade_get_hook);
        reinterpret_cast<void (*)(std::int16_t*, std::int16_t*, TOut*)>(fn)(
            const_cast<std::int16_t*>(a.data()), const_cast<std::int16_t*>(b.data()), c.data());
    } else if (role == CascadeRole::put_only) {
        kernels::cascade_matmul_put_only<std::int16_t, TOut>(a.data(), b.data(), m, k, n, &cascade_put_hook);
    } else if (role == CascadeRole::put_get) {
        kernels::cascade_matmul_put_get<std::int16_t, TOut>(a.data(), b.data(), m, k, n, &cascade_get_hook,
                                                            &cascade_put_hook);
    } else {
        kernels::cascade_matmul_get_only<std::int16_t, TOut>(a.data(), b.data(), c.data(), m, k, n,
                                                             &cascade_get_hook);
    }
    return {g_words_out, c};
}

template <class TOut>
void add_cascade(std::vector<Entry>& out, const BuildFacts& f, const char* suffix) {
    for (const auto role : {CascadeRole::put_only, CascadeRole::put_get, CascadeRole::get_only}) {
        const char* r = role == CascadeRole::put_only ? "put_only" : role == CascadeRole::put_get ? "put_get" : "get_only";
        out.push_back({fmt::format("matmul_scalar_cascade_{}_{}", r, suffix), [f, role](void* fn) -> std::string {
                           const auto mn = static_cast<std::size_t>(f.dim_m) * static_cast<std::size_t>(f.dim_n);
                           const auto a = cc_ints<std::int16_t>(static_cast<std::size_t>(f.dim_m) * f.dim_k, 41, -32768, 32767);
                           const auto b = cc_ints<std::int16_t>(static_cast<std::size_t>(f.dim_k) * f.dim_n, 42, -32768, 32767);
                           const auto c = cc_ints<TOut>(mn, 43, -30000, 30000);
                           std::deque<Word> in;
                           if (role != CascadeRole::put_only) {
                               std::uint32_t seed = 44;
                               for (std::size_t i = 0; i < mn; ++i) {
                                   Word w;
                                   for (auto& x : w) x = static_cast<std::int32_t>(cc_next(seed) * 509u);
                                   in.push_back(w);
                               }
                           }
                           const auto [got_words, got_c] = cascade_run<TOut>(role, fn, f, a, b, c, in);
                           if (g_underflow) return "it read more cascade words than an element of C each";
                           const auto [want_words, want_c] = cascade_run<TOut>(role, nullptr, f, a, b, c, in);
                           if (got_words.size() != want_words.size())
                               return fmt::format("{} cascade words put, want {}", got_words.size(), want_words.size());
                           for (std::size_t i = 0; i < want_words.size(); ++i)
                               if (got_words[i][0] != want_words[i][0])
                                   return fmt::format("cascade word {} lane 0: got {}, want {}", i, got_words[i][0],
                                                      want_words[i][0]);
                           for (std::size_t i = 0; i < want_c.size(); ++i)
                               if (got_c[i] != want_c[i])
                                   return fmt::format("C element {}: got {}, want {}", i, +got_c[i], +want_c[i]);
                           return {};
                       }});
    }
}

// The vector 1x1 convolutions' arithmetic, written out: acc32 sums, srs by `scale` (ties away from
// zero for conv2dk1_i8.cc's symmetric_inf, half up for conv2dk1.cc's positive_inf), saturated to the
// output type.
// ties to even: the bottleneck sources' (sum + 2^(scale-1) - 1 + ((sum >> scale) & 1)) >> scale
std::int64_t conv_srs_even(std::int64_t sum, int scale) {
    return (sum + (std::int64_t{1} << (scale - 1)) - 1 + ((sum >> scale) & 1)) >> scale;
}

template <class TOut>
TOut conv_srs(std::int64_t sum, int scale, bool ties_away, bool even = false) {
    std::int64_t v = sum;
    if (scale > 0) {
        const std::int64_t half = std::int64_t{1} << (scale - 1);
        v = even        ? conv_srs_even(sum, scale)
            : ties_away ? (sum < 0 ? -((-sum + half) >> scale) : (sum + half) >> scale)
                        : (sum + half) >> scale;
    }
    const std::int64_t lo = std::numeric_limits<TOut>::min(), hi = std::numeric_limits<TOut>::max();
    return static_cast<TOut>(v > hi ? hi : v < lo ? lo : v);
}

template <class TIn, class TOut>
std::string drive_conv1x1(void* fn, int lo, int hi, int scale, std::uint32_t seed, bool ties_away, bool even = false,
                          int w = 32) {
    const int ci = 64, co = 64; // conv.py's defaults (w too, unless a driver names another)
    const auto in = cc_ints<TIn>(static_cast<std::size_t>(w) * ci, seed, lo, hi);
    const auto wts = cc_ints<std::int8_t>(static_cast<std::size_t>(ci) * co, seed + 1, -128, 127);
    std::vector<TOut> got(static_cast<std::size_t>(w) * co, TOut{0x55});
    reinterpret_cast<void (*)(TIn*, std::int8_t*, TOut*, std::int32_t, std::int32_t, std::int32_t, int)>(fn)(
        const_cast<TIn*>(in.data()), const_cast<std::int8_t*>(wts.data()), got.data(), w, ci, co, scale);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int ic = 0; ic < ci; ++ic)
                sum += std::int64_t{in[static_cast<std::size_t>((ic / 8) * w * 8 + x * 8 + ic % 8)]} *
                       wts[static_cast<std::size_t>((oc / 8) * (ci / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 + oc % 8)];
            const auto at = static_cast<std::size_t>((oc / 8) * w * 8 + x * 8 + oc % 8);
            const TOut want = conv_srs<TOut>(sum, scale, ties_away, even);
            if (got[at] != want)
                return fmt::format("output {} (x {}, channel {}; sum {} >> {}): got {}, want {}", at, x, oc, sum, scale,
                                   +got[at], +want);
        }
    return {};
}

// small activations with a small shift (many ties), then the full range with a larger one (saturation)
template <class TIn, class TOut>
std::string drive_conv_twice(void* fn, bool ties_away, int lo_small, int hi_small) {
    std::string e = drive_conv1x1<TIn, TOut>(fn, lo_small, hi_small, 4, 51, ties_away);
    return e.empty() ? drive_conv1x1<TIn, TOut>(fn, std::numeric_limits<TIn>::min(), std::numeric_limits<TIn>::max(),
                                                 9, 52, ties_away)
                     : e;
}

// conv2dk1_skip.cc's vector kernels, written out: the two uint8 halves' sums >> scale half up, saturated to
// int8, + skip, >> skip_scale half up, saturated to uint8 (:234-237, :296-309).
template <class TSkip>
std::string drive_conv_skip(void* fn, int scale, int skip_scale, std::uint32_t seed) {
    const int w = 32, ci = 64, co = 64; // conv.py's defaults
    const auto in0 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, seed, 0, 255);
    const auto in1 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, seed + 1, 0, 15);
    const auto wts = cc_ints<std::int8_t>(static_cast<std::size_t>(ci) * co, seed + 2, -128, 127);
    const auto skip = cc_ints<TSkip>(static_cast<std::size_t>(w) * co, seed + 3, std::numeric_limits<TSkip>::min(),
                                     std::numeric_limits<TSkip>::max());
    std::vector<std::uint8_t> got(static_cast<std::size_t>(w) * co, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, TSkip*, std::int32_t,
                              std::int32_t, std::int32_t, int, int)>(fn)(
        const_cast<std::uint8_t*>(in0.data()), const_cast<std::uint8_t*>(in1.data()), const_cast<std::int8_t*>(wts.data()),
        got.data(), const_cast<TSkip*>(skip.data()), w, ci, co, scale, skip_scale);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int ic = 0; ic < ci; ++ic) {
                const auto& in = ic < ci / 2 ? in0 : in1;
                const int c = ic % (ci / 2);
                sum += std::int64_t{in[static_cast<std::size_t>((c / 8) * w * 8 + x * 8 + c % 8)]} *
                       wts[static_cast<std::size_t>((oc / 8) * (ci / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 + oc % 8)];
            }
            const auto at = static_cast<std::size_t>((oc / 8) * w * 8 + x * 8 + oc % 8);
            const std::int64_t conv = conv_srs<std::int8_t>(sum, scale, false);
            const std::uint8_t want = conv_srs<std::uint8_t>(conv + skip[at], skip_scale, false);
            if (got[at] != want)
                return fmt::format("output {} (x {}, channel {}; sum {}, skip {}): got {}, want {}", at, x, oc, sum,
                                   +skip[at], +got[at], +want);
        }
    return {};
}

// conv2dk1_skip_init.cc's conv2dk1_skip_init_ui8 (no -DINT8_ACT): its call is commented out
// (:912-919), so it must write nothing: every output byte keeps its fill, whatever the inputs.
std::string drive_conv_skip_init_ui8(void* fn) {
    const int w = 32, ci = 64, co = 64, cs = 64;
    const auto in0 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, 75, 0, 255);
    const auto in1 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, 76, 0, 255);
    const auto wts = cc_ints<std::int8_t>(static_cast<std::size_t>(ci + cs) * co, 77, -128, 127);
    const auto skip = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * cs, 78, 0, 255);
    const auto fill = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * co, 79, 0, 255);
    auto got = fill;
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, std::uint8_t*, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t, int, int, int)>(fn)(
        const_cast<std::uint8_t*>(in0.data()), const_cast<std::uint8_t*>(in1.data()), const_cast<std::int8_t*>(wts.data()),
        got.data(), const_cast<std::uint8_t*>(skip.data()), w, ci, co, cs, 10, 1, 9);
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != fill[i])
            return fmt::format("output byte {}: got {}, want {} (the source computes nothing)", i, +got[i], +fill[i]);
    return {};
}

// conv2dk1_skip_init.cc's conv2dk1_skip_init_i8 (-DINT8_ACT; the uint8 build's body is commented out,
// :912-919): the halves' conv >> scale and the int8 skip input's projection (weights after the main
// ones) >> scale_skip_conv, each half up saturated to int8, summed, >> skip_scale half up saturated
// to uint8 (:258-400).
std::string drive_conv_skip_init(void* fn, int scale, int skip_scale, int scale_skip, std::uint32_t seed) {
    const int w = 32, ci = 64, co = 64, cs = 64; // conv.py's defaults (skip_input_channels = input_channels)
    const auto in0 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, seed, 0, 255);
    const auto in1 = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci / 2, seed + 1, 0, 15);
    const auto wts = cc_ints<std::int8_t>(static_cast<std::size_t>(ci + cs) * co, seed + 2, -128, 127);
    const auto skip = cc_ints<std::int8_t>(static_cast<std::size_t>(w) * cs, seed + 3, -128, 127);
    std::vector<std::uint8_t> got(static_cast<std::size_t>(w) * co, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::uint8_t*, std::int8_t*, std::uint8_t*, std::int8_t*, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t, int, int, int)>(fn)(
        const_cast<std::uint8_t*>(in0.data()), const_cast<std::uint8_t*>(in1.data()), const_cast<std::int8_t*>(wts.data()),
        got.data(), const_cast<std::int8_t*>(skip.data()), w, ci, co, cs, scale, skip_scale, scale_skip);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0, proj = 0;
            for (int ic = 0; ic < ci; ++ic) {
                const auto& in = ic < ci / 2 ? in0 : in1;
                const int c = ic % (ci / 2);
                sum += std::int64_t{in[static_cast<std::size_t>((c / 8) * w * 8 + x * 8 + c % 8)]} *
                       wts[static_cast<std::size_t>((oc / 8) * (ci / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 + oc % 8)];
            }
            for (int ic = 0; ic < cs; ++ic)
                proj += std::int64_t{skip[static_cast<std::size_t>((ic / 8) * w * 8 + x * 8 + ic % 8)]} *
                        wts[static_cast<std::size_t>(ci * co + (oc / 8) * (cs / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 +
                                                     oc % 8)];
            const auto at = static_cast<std::size_t>((oc / 8) * w * 8 + x * 8 + oc % 8);
            const std::int64_t a = conv_srs<std::int8_t>(sum, scale, false), b = conv_srs<std::int8_t>(proj, scale_skip, false);
            const std::uint8_t want = conv_srs<std::uint8_t>(a + b, skip_scale, false);
            if (got[at] != want)
                return fmt::format("output {} (x {}, channel {}; sums {}, {}): got {}, want {}", at, x, oc, sum, proj,
                                   +got[at], +want);
        }
    return {};
}

// bn_conv2dk1_skip.cc -DREGULAR -DSCALAR [-DUNSIGNED_SKIP] (:657-800): uint8 in, the sum to even at
// `scale` saturated to int8, + skip, to even at `skip_scale` (> 0: upstream's 0 shifts by 1 << -1),
// saturated to int8.
template <class TSkip>
std::string drive_bn_skip(void* fn, int scale, int skip_scale, std::uint32_t seed, int w = 32) {
    const int ci = 64, co = 64;
    const auto in = cc_ints<std::uint8_t>(static_cast<std::size_t>(w) * ci, seed, 0, 15);
    const auto wts = cc_ints<std::int8_t>(static_cast<std::size_t>(ci) * co, seed + 1, -128, 127);
    const auto skip = cc_ints<TSkip>(static_cast<std::size_t>(w) * co, seed + 2, std::numeric_limits<TSkip>::min(),
                                     std::numeric_limits<TSkip>::max());
    std::vector<std::int8_t> got(static_cast<std::size_t>(w) * co, 0x55);
    reinterpret_cast<void (*)(std::uint8_t*, std::int8_t*, std::int8_t*, TSkip*, std::int32_t, std::int32_t,
                              std::int32_t, int, int)>(fn)(const_cast<std::uint8_t*>(in.data()),
                                                           const_cast<std::int8_t*>(wts.data()), got.data(),
                                                           const_cast<TSkip*>(skip.data()), w, ci, co, scale, skip_scale);
    for (int oc = 0; oc < co; ++oc)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int ic = 0; ic < ci; ++ic)
                sum += std::int64_t{in[static_cast<std::size_t>((ic / 8) * w * 8 + x * 8 + ic % 8)]} *
                       wts[static_cast<std::size_t>((oc / 8) * (ci / 8) * 64 + (ic / 8) * 64 + (ic % 8) * 8 + oc % 8)];
            const auto at = static_cast<std::size_t>((oc / 8) * w * 8 + x * 8 + oc % 8);
            const std::int64_t conv = conv_srs<std::int8_t>(sum, scale, false, true);
            const std::int8_t want = conv_srs<std::int8_t>(conv + skip[at], skip_scale, false, true);
            if (got[at] != want)
                return fmt::format("output {} (x {}, channel {}; sum {}, skip {}): got {}, want {}", at, x, oc, sum,
                                   +skip[at], +got[at], +want);
        }
    return {};
}

} // namespace

void add_cascade_conv_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    if (facts.source == "cascade_mm.cc" && facts.connect_cascade) {
        BuildFacts f = facts;
        f.dim_m = f.dim_m ? f.dim_m : 64;
        f.dim_k = f.dim_k ? f.dim_k : 64;
        f.dim_n = f.dim_n ? f.dim_n : 64;
        add_cascade<std::int16_t>(out, f, "i16_i16");
        add_cascade<std::int32_t>(out, f, "i16_i32");
    }
    if (facts.source == "conv2dk1_i8.cc") // int8 out, ties away from zero (conv2dk1_i8.cc:98-101)
        out.push_back({"conv2dk1_i8", [](void* fn) { return drive_conv_twice<std::int8_t, std::int8_t>(fn, true, -8, 8); }});
    if (facts.source == "conv2dk1.cc") { // uint8 out, half up (conv2dk1.cc:131-134, :256-259)
        out.push_back({"conv2dk1_i8", [](void* fn) { return drive_conv_twice<std::int8_t, std::uint8_t>(fn, false, -8, 8); }});
        out.push_back({"conv2dk1_ui8", [](void* fn) { return drive_conv_twice<std::uint8_t, std::uint8_t>(fn, false, 0, 8); }});
    }
    // bn_conv2dk1_relu.cc -DREGULAR -DINT8_ACT / bn_conv2dk1_i8.cc -DREGULAR -DSCALAR (conv.py's flags): the
    // plain C loops of :1289-1325 / :671-705, ties to even, saturated to uint8 / int8. Every pixel of any
    // width: also driven at mobilenet's 14 (pipeline.py:79, regular.py:91), no multiple of 4 or 8.
    if (facts.source == "bn_conv2dk1_relu.cc")
        out.push_back({"conv2dk1_relu_i8_ui8", [](void* fn) {
                           std::string e = drive_conv1x1<std::int8_t, std::uint8_t>(fn, -8, 8, 2, 81, false, true);
                           if (e.empty()) e = drive_conv1x1<std::int8_t, std::uint8_t>(fn, -8, 8, 2, 85, false, true, 14);
                           return e.empty() ? drive_conv1x1<std::int8_t, std::uint8_t>(fn, -128, 127, 9, 82, false, true) : e;
                       }});
    if (facts.source == "bn_conv2dk1_i8.cc")
        out.push_back({"conv2dk1_ui8_i8", [](void* fn) {
                           std::string e = drive_conv1x1<std::uint8_t, std::int8_t>(fn, 0, 8, 2, 83, false, true);
                           if (e.empty()) e = drive_conv1x1<std::uint8_t, std::int8_t>(fn, 0, 8, 2, 86, false, true, 14);
                           return e.empty() ? drive_conv1x1<std::uint8_t, std::int8_t>(fn, 0, 255, 9, 84, false, true) : e;
                       }});
    if (facts.source == "bn_conv2dk1_skip.cc") { // the scalar loops of :657-801, also at width 14
        out.push_back({"conv2dk1_skip_ui8_i8_i8", [](void* fn) {
                           std::string e = drive_bn_skip<std::int8_t>(fn, 8, 1, 91);
                           if (e.empty()) e = drive_bn_skip<std::int8_t>(fn, 8, 1, 95, 14);
                           return e.empty() ? drive_bn_skip<std::int8_t>(fn, 3, 2, 92) : e;
                       }});
        out.push_back({"conv2dk1_skip_ui8_ui8_i8", [](void* fn) {
                           std::string e = drive_bn_skip<std::uint8_t>(fn, 8, 1, 93);
                           if (e.empty()) e = drive_bn_skip<std::uint8_t>(fn, 8, 1, 96, 14);
                           return e.empty() ? drive_bn_skip<std::uint8_t>(fn, 3, 2, 94) : e;
                       }});
    }
    if (facts.source == "conv2dk1_skip_init.cc") {
        out.push_back({"conv2dk1_skip_init_i8", [](void* fn) {
                           std::string e = drive_conv_skip_init(fn, 10, 0, 9, 71);
                           return e.empty() ? drive_conv_skip_init(fn, 4, 1, 3, 72) : e;
                       }});
        // The uint8 build's body is a comment (:912-919): its reference is the output left as it was.
        out.push_back({"conv2dk1_skip_init_ui8", [](void* fn) { return drive_conv_skip_init_ui8(fn); }});
    }
    if (facts.source == "conv2dk1_skip.cc") { // -DINT8_ACT: int8 skip; none: uint8 skip
        out.push_back({"conv2dk1_skip_i8", [](void* fn) {
                           std::string e = drive_conv_skip<std::int8_t>(fn, 10, 0, 61);
                           return e.empty() ? drive_conv_skip<std::int8_t>(fn, 4, 1, 62) : e;
                       }});
        out.push_back({"conv2dk1_skip_ui8", [](void* fn) {
                           std::string e = drive_conv_skip<std::uint8_t>(fn, 10, 0, 63);
                           return e.empty() ? drive_conv_skip<std::uint8_t>(fn, 4, 1, 64) : e;
                       }});
    }
}

} // namespace npusim::kernel_check
