// N-D address generation against an independent nested-loop reference.
#include "npusim/model/AddressPattern.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace npusim::model;

namespace {
// Reference: word offsets in bytes of a (size, stride) list, outermost first, by plain loops.
std::vector<std::int64_t> reference(std::int64_t base, std::vector<Dim> dims) {
    while (dims.size() < 4) dims.insert(dims.begin(), Dim{1, 0});
    std::vector<std::int64_t> out;
    for (std::uint32_t a = 0; a < dims[0].size; ++a)
        for (std::uint32_t b = 0; b < dims[1].size; ++b)
            for (std::uint32_t c = 0; c < dims[2].size; ++c)
                for (std::uint32_t d = 0; d < dims[3].size; ++d)
                    out.push_back(
                        base + 4 * (a * dims[0].stride + b * dims[1].stride + c * dims[2].stride + d * dims[3].stride));
    return out;
}
} // namespace

TEST_CASE("linear pattern is one run", "[model][address]") {
    AddressPattern p(64, {}, 4096);
    CHECK(p.total_bytes() == 4096);
    CHECK(p.run_bytes() == 4096);
    CHECK(p.min_offset() == 64);
    CHECK(p.max_offset() == 64 + 4095);
}

TEST_CASE("N-D patterns match nested loops", "[model][address]") {
    const std::vector<std::vector<Dim>> cases = {
        {{8, 1}}, // contiguous
        {{4, 8}, {8, 1}}, // rows of a wider matrix
        {{64, 1}, {64, 64}}, // transpose 64x64 (column-major read)
        {{2, 0}, {3, 16}, {4, 1}}, // repeat (stride 0)
        {{8, 128}, {8, 4}, {4, 32}, {4, 1}}, // matmul A re-tiling (words)
        {{3, 4}}, // strided single dim
    };
    for (const auto& dims : cases) {
        AddressPattern p(12, dims);
        CHECK(p.word_offsets() == reference(12, dims));
    }
}

TEST_CASE("cursor advances across runs in arbitrary chunks", "[model][address]") {
    const std::vector<Dim> dims{{4, 16}, {3, 1}};
    AddressPattern p(0, dims);
    // Chunks of 3 bytes split words and runs; collect byte-accurately.
    AddressPattern::Cursor c2(p);
    std::vector<std::int64_t> bytes;
    while (c2.remaining() > 0)
        c2.advance(3, [&](std::int64_t off, std::uint64_t len) {
            for (std::uint64_t i = 0; i < len; ++i) bytes.push_back(off + static_cast<std::int64_t>(i));
        });
    std::vector<std::int64_t> want;
    for (auto w : reference(0, dims))
        for (int i = 0; i < 4; ++i) want.push_back(w + i);
    CHECK(bytes == want);
    CHECK(p.total_bytes() == 48);
}

TEST_CASE("bounds include negative strides", "[model][address]") {
    AddressPattern p(400, {{4, -8}, {2, 1}});
    CHECK(p.min_offset() == 400 - 3 * 32);
    CHECK(p.max_offset() == 400 + 4 + 3);
}

// Cursor::gather / scatter (the DMA channels' copies) against the nested-loop reference: every
// byte lands where reference() puts its word, for runs of every fixed-size case (4..128 bytes),
// odd run sizes, stride-0 repeats, negative strides, and transfers cut at arbitrary byte counts.
TEST_CASE("gather and scatter move the bytes the nested loops address", "[model][address]") {
    const std::vector<std::vector<Dim>> cases = {
        {{8, 1}},
        {{4, 8}, {8, 1}}, // 32-byte runs
        {{8, 128}, {8, 4}, {4, 32}, {4, 1}}, // matmul re-tiling: 16-byte runs
        {{16, 2}, {2, 1}}, // 8-byte runs
        {{4, 64}, {32, 1}}, // 128-byte runs
        {{5, 16}, {16, 1}}, // 64-byte runs
        {{3, 9}, {5, 1}}, // 20-byte runs (generic copy)
        {{64, 1}, {64, 64}}, // 4-byte runs (transpose)
        {{2, 0}, {3, 16}, {4, 1}}, // stride 0 repeats a run
        {{4, -8}, {2, 1}}, // negative stride
        {{3, 40}, {2, 0}, {5, 2}}, // 4-byte runs with a repeat in the middle
    };
    const std::int64_t base = 4096;
    std::vector<std::uint8_t> mem(24576); // the transpose reaches base + 16,383
    for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::uint8_t>(i * 31 + 7);
    for (const auto& dims : cases) {
        const AddressPattern p(base, dims);
        const auto words = reference(base, dims);
        std::vector<std::uint8_t> want;
        for (auto w : words)
            for (int b = 0; b < 4; ++b) want.push_back(mem[static_cast<std::size_t>(w + b)]);
        for (std::uint64_t chunk : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{16}, std::uint64_t{100},
                                    std::uint64_t{1} << 20}) {
            CAPTURE(dims.size(), dims.front().size, chunk);
            // gather: the stream's bytes in pattern order
            std::vector<std::uint8_t> got(p.total_bytes());
            AddressPattern::Cursor g(p);
            std::uint64_t pos = 0;
            while (g.remaining() > 0) pos += g.gather(mem.data(), got.data() + pos, chunk);
            CHECK(pos == p.total_bytes());
            CHECK(got == want);
            CHECK(g.gather(mem.data(), got.data(), 8) == 0); // at its end a cursor copies nothing
            // scatter: each word's bytes land at its offset (a repeated offset keeps its last write)
            std::vector<std::uint8_t> stream(p.total_bytes());
            for (std::size_t i = 0; i < stream.size(); ++i) stream[i] = static_cast<std::uint8_t>(i * 13 + 1);
            std::vector<std::uint8_t> expect(mem.size(), 0), out(mem.size(), 0);
            for (std::size_t wi = 0; wi < words.size(); ++wi)
                for (int b = 0; b < 4; ++b)
                    expect[static_cast<std::size_t>(words[wi] + b)] = stream[wi * 4 + static_cast<std::size_t>(b)];
            AddressPattern::Cursor s(p);
            pos = 0;
            while (s.remaining() > 0) pos += s.scatter(out.data(), stream.data() + pos, chunk);
            CHECK(pos == p.total_bytes());
            CHECK(out == expect);
        }
    }
}
