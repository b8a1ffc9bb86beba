// Drivers of the bottleneck 1x1 convolution's cascade halves (mlir-aie aie_kernels/aie2/bottleneck
// at 3ca0193; IRON conv.py bn_conv2dk1_partial_put_i8 / bn_conv2dk1_partial_get_relu_i8):
//   bn_conv2dk1_i8.cc -DBN1{3,4}_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW (:180-236, wrappers :815-837): for
//     pixels 0..6 and the 8 output channels of group `oc`, the sum of input channels
//     [0, ci / input_split) times the chunk's weights [oc][chunk/8][ci%8][co%8], put as lanes 0-7 of
//     one v16acc64 (lups of int32 lanes, shift 0);
//   bn_conv2dk1_relu.cc -DBN1{3,4}_1_PARTIAL_GET_I8_CAS_WIDTH_NEW (:216-300, wrappers :1739-1763):
//     the same over [chunk, 2 * chunk), plus lanes 0-7 of the v16acc64 it gets (lsrs, shift 0),
//     rounded half to even at `scale` (:290-293), clamped to [0, 255], stored at output group
//     oc + output_channels / (8 * output_split) * weight_index.
//   bn_conv2dk1_i8.cc -DBN1{3,4}_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW (:32-87) and
//     bn_conv2dk1_skip.cc -DBN1{3,4}_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW (:32-232,
//     wrappers :810-839): each half sums the first ci / input_split channels of its own uint8 input;
//     the get adds the cascade's lanes, rounds, adds the int8 skip, rounds again (drive_split_get).
// A v16acc64 crosses the host layer's cascade as two 64-byte words, lanes 0-7 then 8-15. The put is
// compared on lanes 0-7 of its 14 words (lanes 8-15 are undefined upstream); the get is fed words
// holding partial sums of both signs and compared on every output byte (the ones it must not write
// included). The references are written here from the sources above.
#include "KernelDrivers.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <tuple>
#include <fmt/format.h>

namespace npusim::kernel_check {

namespace {

using CasConvWord = std::array<std::int64_t, 8>;
std::deque<CasConvWord> g_casconv_in, g_casconv_out;
bool g_casconv_underflow = false;

void casconv_put(const void* w) {
    CasConvWord x;
    std::memcpy(x.data(), w, sizeof x);
    g_casconv_out.push_back(x);
}
void casconv_get(void* w) {
    CasConvWord x{};
    if (g_casconv_in.empty())
        g_casconv_underflow = true;
    else {
        x = g_casconv_in.front();
        g_casconv_in.pop_front();
    }
    std::memcpy(w, x.data(), sizeof x);
}

std::uint32_t casconv_next(std::uint32_t& seed) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

struct CasConvCase {
    int width = 7, ci = 80, co = 32, split = 2, out_split = 2, weight_index = 1, oc = 1;
};

struct CasConvData {
    std::vector<std::int8_t> in, wts;
};

CasConvData casconv_data(const CasConvCase& c, std::uint32_t seed) {
    CasConvData d;
    d.in.resize(static_cast<std::size_t>(c.width * c.ci));
    d.wts.resize(static_cast<std::size_t>((c.oc + 1) * 8 * (c.ci / c.split)));
    for (auto& v : d.in) v = static_cast<std::int8_t>(casconv_next(seed) & 0xff);
    for (auto& v : d.wts) v = static_cast<std::int8_t>(casconv_next(seed) & 0xff);
    return d;
}

std::int64_t casconv_dot(const CasConvCase& c, const CasConvData& d, int first, int px, int o8) {
    const int chunk = c.ci / c.split;
    std::int64_t s = 0;
    for (int i = 0; i < chunk; ++i) {
        const int ch = first + i;
        s += std::int64_t{d.in[static_cast<std::size_t>((ch / 8) * c.width * 8 + px * 8 + ch % 8)]} *
             d.wts[static_cast<std::size_t>(c.oc * chunk * 8 + (i / 8) * 64 + (i % 8) * 8 + o8)];
    }
    return s;
}

std::string drive_partial_put(void* fn, const BuildFacts& f) {
    const CasConvCase c;
    const auto d = casconv_data(c, 101);
    g_casconv_in.clear();
    g_casconv_out.clear();
    g_casconv_underflow = false;
    f.connect_cascade(&casconv_put, &casconv_get);
    reinterpret_cast<void (*)(std::int8_t*, std::int8_t*, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t)>(fn)(
        const_cast<std::int8_t*>(d.in.data()), const_cast<std::int8_t*>(d.wts.data()), c.width, c.ci, c.co, c.split,
        c.weight_index, 0, c.oc);
    if (g_casconv_out.size() != 14) return fmt::format("{} cascade words put, want 14 (7 v16acc64)", g_casconv_out.size());
    for (int px = 0; px < 7; ++px)
        for (int o8 = 0; o8 < 8; ++o8) {
            const std::int64_t want = casconv_dot(c, d, 0, px, o8);
            const std::int64_t got = g_casconv_out[static_cast<std::size_t>(2 * px)][static_cast<std::size_t>(o8)];
            if (got != want) return fmt::format("pixel {} channel {} partial sum: got {}, want {}", px, o8, got, want);
        }
    return {};
}

std::string drive_partial_get(void* fn, const BuildFacts& f, int scale, std::uint32_t seed) {
    const CasConvCase c;
    const auto d = casconv_data(c, seed);
    g_casconv_in.clear();
    g_casconv_out.clear();
    g_casconv_underflow = false;
    std::vector<std::int64_t> cas(7 * 8);
    for (auto& v : cas) v = static_cast<std::int64_t>(casconv_next(seed) % 400001u) - 200000; // both signs
    for (int px = 0; px < 7; ++px) {
        CasConvWord lo{}, hi{};
        for (int o8 = 0; o8 < 8; ++o8) lo[static_cast<std::size_t>(o8)] = cas[static_cast<std::size_t>(px * 8 + o8)];
        g_casconv_in.push_back(lo);
        g_casconv_in.push_back(hi);
    }
    std::vector<std::uint8_t> got(static_cast<std::size_t>(c.width * c.co), 0x5a);
    f.connect_cascade(&casconv_put, &casconv_get);
    reinterpret_cast<void (*)(std::int8_t*, std::int8_t*, std::uint8_t*, std::int32_t, std::int32_t, std::int32_t,
                              int, std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t)>(fn)(
        const_cast<std::int8_t*>(d.in.data()), const_cast<std::int8_t*>(d.wts.data()), got.data(), c.width, c.ci,
        c.co, scale, c.split, c.out_split, c.weight_index, 0, c.oc);
    if (g_casconv_underflow) return "it read more than 7 v16acc64 from the cascade";
    if (!g_casconv_in.empty()) return fmt::format("{} cascade words left unread", g_casconv_in.size());
    const int group = c.oc + c.co / (8 * c.out_split) * c.weight_index;
    for (std::size_t at = 0; at < got.size(); ++at) {
        const int g = static_cast<int>(at) / (c.width * 8), px = static_cast<int>(at) / 8 % c.width;
        const int o8 = static_cast<int>(at) % 8;
        std::uint8_t want = 0x5a;
        if (g == group && px < 7) {
            const std::int64_t s = casconv_dot(c, d, c.ci / c.split, px, o8) + cas[static_cast<std::size_t>(px * 8 + o8)];
            const std::int64_t unit = std::int64_t{1} << scale;
            std::int64_t q = s >= 0 ? s / unit : -((-s + unit - 1) / unit); // floor
            const std::int64_t r2 = 2 * (s - q * unit);
            if (r2 > unit || (r2 == unit && (q & 1) != 0)) ++q;
            want = static_cast<std::uint8_t>(q < 0 ? 0 : q > 255 ? 255 : q);
        }
        if (got[at] != want)
            return fmt::format("output {} (group {}, pixel {}, channel {}): got {}, want {}", at, g, px, o8, +got[at],
                               +want);
    }
    return {};
}

// The input-split pair: both halves read the first ci / input_split channels of their own uint8
// input (input [c/8][x][c%8], the weights [oc][chunk/8][c%8][co%8]).
struct SplitConvCase {
    int width = 7, ci = 160, co = 32, split = 2, out_split = 2, weight_index = 1, oc = 1;
    int chunk() const { return ci / split; }
};

struct SplitConvData {
    std::vector<std::uint8_t> in;
    std::vector<std::int8_t> wts;
};

SplitConvData splitconv_data(const SplitConvCase& c, std::uint32_t seed) {
    SplitConvData d;
    d.in.resize(static_cast<std::size_t>(c.width * c.chunk()));
    d.wts.resize(static_cast<std::size_t>((c.oc + 1) * 8 * c.chunk()));
    for (auto& v : d.in) v = static_cast<std::uint8_t>(casconv_next(seed) & 0xff);
    for (auto& v : d.wts) v = static_cast<std::int8_t>(casconv_next(seed) & 0xff);
    return d;
}

std::int64_t splitconv_dot(const SplitConvCase& c, const SplitConvData& d, int px, int o8) {
    std::int64_t s = 0;
    for (int ch = 0; ch < c.chunk(); ++ch)
        s += std::int64_t{d.in[static_cast<std::size_t>((ch / 8) * c.width * 8 + px * 8 + ch % 8)]} *
             d.wts[static_cast<std::size_t>(c.oc * c.chunk() * 8 + (ch / 8) * 64 + (ch % 8) * 8 + o8)];
    return s;
}

// the nearest integer to s / 2^scale, ties to the even one
std::int64_t splitconv_even(std::int64_t s, int scale) {
    const std::int64_t unit = std::int64_t{1} << scale;
    std::int64_t q = s >= 0 ? s / unit : -((-s + unit - 1) / unit); // floor
    const std::int64_t r2 = 2 * (s - q * unit);
    return r2 > unit || (r2 == unit && (q & 1) != 0) ? q + 1 : q;
}

std::string drive_split_put(void* fn, const BuildFacts& f) {
    const SplitConvCase c;
    const auto d = splitconv_data(c, 111);
    g_casconv_in.clear();
    g_casconv_out.clear();
    g_casconv_underflow = false;
    f.connect_cascade(&casconv_put, &casconv_get);
    reinterpret_cast<void (*)(std::uint8_t*, std::int8_t*, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t, std::int32_t, std::int32_t)>(fn)(
        const_cast<std::uint8_t*>(d.in.data()), const_cast<std::int8_t*>(d.wts.data()), c.width, c.ci, c.co, c.split,
        c.weight_index, 0, c.oc);
    if (g_casconv_out.size() != 14) return fmt::format("{} cascade words put, want 14 (7 v16acc64)", g_casconv_out.size());
    for (int px = 0; px < 7; ++px)
        for (int o8 = 0; o8 < 8; ++o8) {
            const std::int64_t want = splitconv_dot(c, d, px, o8);
            const std::int64_t got = g_casconv_out[static_cast<std::size_t>(2 * px)][static_cast<std::size_t>(o8)];
            if (got != want) return fmt::format("pixel {} channel {} partial sum: got {}, want {}", px, o8, got, want);
        }
    return {};
}

// bn_conv2dk1_skip.cc:32-131: own sums + the cascade's, to even at scale, clamped to int8 (:100-103),
// + skip, to even at skip_scale (:109-112), clamped to int8 (:119-122), at output group
// oc + co / (8 * output_split) * weight_index; every output byte compared. Driven at skip_scale >= 1:
// at 0 the source computes 1 << (0 - 1) (:113-115), undefined in C; the host build shifts by 31
// there (x86 masks the count) and every output clamps to -128, which npusim's reference does not copy
// (it reads 0 as no shift, as its other conv2dk1_skip references).
std::string drive_split_get(void* fn, const BuildFacts& f, int scale, int skip_scale, std::uint32_t seed) {
    const SplitConvCase c;
    const auto d = splitconv_data(c, seed);
    g_casconv_in.clear();
    g_casconv_out.clear();
    g_casconv_underflow = false;
    std::vector<std::int64_t> cas(7 * 8);
    for (auto& v : cas) v = static_cast<std::int64_t>(casconv_next(seed) % 400001u) - 200000; // both signs
    for (int px = 0; px < 7; ++px) {
        CasConvWord lo{}, hi{};
        for (int o8 = 0; o8 < 8; ++o8) lo[static_cast<std::size_t>(o8)] = cas[static_cast<std::size_t>(px * 8 + o8)];
        g_casconv_in.push_back(lo);
        g_casconv_in.push_back(hi);
    }
    std::vector<std::int8_t> skip(static_cast<std::size_t>(c.width * c.co));
    for (auto& v : skip) v = static_cast<std::int8_t>(casconv_next(seed) & 0xff);
    std::vector<std::int8_t> got(skip.size(), 0x5a);
    f.connect_cascade(&casconv_put, &casconv_get);
    reinterpret_cast<void (*)(std::uint8_t*, std::int8_t*, std::int8_t*, std::int8_t*, std::int32_t, std::int32_t,
                              std::int32_t, int, int, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                              std::int32_t)>(fn)(
        const_cast<std::uint8_t*>(d.in.data()), const_cast<std::int8_t*>(d.wts.data()), got.data(), skip.data(),
        c.width, c.ci, c.co, scale, skip_scale, c.split, c.out_split, c.weight_index, 0, c.oc);
    if (g_casconv_underflow) return "it read more than 7 v16acc64 from the cascade";
    if (!g_casconv_in.empty()) return fmt::format("{} cascade words left unread", g_casconv_in.size());
    const int group = c.oc + c.co / (8 * c.out_split) * c.weight_index;
    for (std::size_t at = 0; at < got.size(); ++at) {
        const int g = static_cast<int>(at) / (c.width * 8), px = static_cast<int>(at) / 8 % c.width;
        const int o8 = static_cast<int>(at) % 8;
        std::int8_t want = 0x5a;
        if (g == group && px < 7) {
            const std::int64_t s = splitconv_dot(c, d, px, o8) + cas[static_cast<std::size_t>(px * 8 + o8)];
            std::int64_t q = splitconv_even(s, scale);
            q = (q < -128 ? -128 : q > 127 ? 127 : q) + skip[at];
            if (skip_scale > 0) q = splitconv_even(q, skip_scale);
            want = static_cast<std::int8_t>(q < -128 ? -128 : q > 127 ? 127 : q);
        }
        if (got[at] != want)
            return fmt::format("skip_scale {}: output {} (group {}, pixel {}, channel {}): got {}, want {}", skip_scale,
                               at, g, px, o8, +got[at], +want);
    }
    return {};
}

} // namespace

void add_cascade_bn_kernels(std::vector<Entry>& out, const BuildFacts& facts) {
    if (!facts.connect_cascade) return;
    for (const int block : {13, 14}) {
        if (facts.source == "bn_conv2dk1_i8.cc")
            out.push_back({fmt::format("bn{}_1_conv2dk1_i8_ui8_partial_width_put_new", block),
                           [facts](void* fn) { return drive_partial_put(fn, facts); }});
        if (facts.source == "bn_conv2dk1_relu.cc")
            out.push_back({fmt::format("bn{}_1_conv2dk1_i8_ui8_partial_width_get_new", block), [facts](void* fn) {
                               std::string e = drive_partial_get(fn, facts, 10, 102);
                               if (e.empty()) e = drive_partial_get(fn, facts, 1, 103); // ties at scale 1
                               return e.empty() ? drive_partial_get(fn, facts, 16, 104) : e;
                           }});
        if (facts.source == "bn_conv2dk1_i8.cc")
            out.push_back({fmt::format("bn{}_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new", block),
                           [facts](void* fn) { return drive_split_put(fn, facts); }});
        if (facts.source == "bn_conv2dk1_skip.cc")
            out.push_back(
                {fmt::format("bn_{}_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new", block),
                 [facts](void* fn) {
                     for (const auto& [scale, skip_scale, seed] : {std::tuple{10, 1, 112u}, std::tuple{1, 2, 113u},
                                                                   std::tuple{16, 4, 114u}, std::tuple{12, 3, 115u}}) {
                         std::string e = drive_split_get(fn, facts, scale, skip_scale, seed);
                         if (!e.empty()) return e;
                     }
                     return std::string{};
                 }});
    }
}

} // namespace npusim::kernel_check
