// BdEncoding (frontend/src/resolve/BdEncoding.cpp): every BD field-width check, tile and shim,
// at its boundary, driven by model::TileResources. Field widths follow mlir-aie
// include/aie/Dialect/AIE/IR/AIETargetModel.h (getBDMaxDims, buffer length / wrap / step bits)
// and the stride/wrap verifier of lib/Dialect/AIEX/IR/AIEXDialect.cpp (verifyStridesWraps,
// 6-bit iteration field, repeat count <= 255).
#include "resolve/BdEncoding.hpp"

#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using namespace npusim::iron::detail;

namespace {
const model::DeviceSpec& npu1() { return model::device_by_name("npu1"); }
constexpr auto Compute = model::TileKind::Compute;
} // namespace

TEST_CASE("field widths come from the tile's resources", "[resolve][bd]") {
    const auto& c = npu1().compute; // 8-bit wrap, 13-bit step, 14-bit length
    CHECK(max_wrap(c) == 255);
    CHECK(max_step(c) == 8192);
    CHECK(max_length_words(c) == 16383);
    CHECK(wrap_fits(255, c));
    CHECK_FALSE(wrap_fits(256, c));
    CHECK(step_fits(8192, c));
    CHECK_FALSE(step_fits(8193, c));
    CHECK_FALSE(step_fits(-1, c));
    CHECK(max_wrap(npu1().mem) == 1023);
    CHECK(max_iterations(npu1().shim) == 64);
    model::TileResources small = c;
    small.wrap_bits = 3;
    CHECK(wrap_fits(7, small));
    CHECK_FALSE(wrap_fits(8, small));
}

TEST_CASE("to_words: a size that just fits the wrap field and one too many", "[resolve][bd]") {
    const auto& c = npu1().compute;
    const auto t = tensor<std::int32_t>({4096});
    CHECK(to_words({{255, 1}}, t, c, Compute, "fifo 'in' dims_to_stream") == std::vector<model::Dim>{{255, 1}});
    CHECK_THROWS_WITH(
        to_words({{256, 1}}, t, c, Compute, "fifo 'in' dims_to_stream"),
        "fifo 'in' dims_to_stream: dimension 0 size 256 exceeds the 8-bit size field of a compute tile BD (max 255)");
}

TEST_CASE("to_words: a stride that just fits the step field and one too many", "[resolve][bd]") {
    const auto& c = npu1().compute;
    const auto t = tensor<std::int32_t>({65536});
    CHECK(to_words({{2, 8192}, {4, 1}}, t, c, Compute, "x") == std::vector<model::Dim>{{2, 8192}, {4, 1}});
    CHECK_THROWS_WITH(
        to_words({{2, 8193}, {4, 1}}, t, c, Compute, "x"),
        "x: dimension 0 stride 8193 words exceeds the 13-bit stride field of a compute tile BD (max 8192)");
}

TEST_CASE("to_words: dims count per tile kind", "[resolve][bd]") {
    const auto t = tensor<std::int32_t>({4096});
    const StreamDims three{{2, 8}, {2, 4}, {4, 1}};
    const StreamDims four{{1, 0}, {2, 8}, {2, 4}, {4, 1}};
    CHECK(to_words(three, t, npu1().compute, Compute, "x").size() == 3);
    CHECK_THROWS_WITH(to_words(four, t, npu1().compute, Compute, "x"),
                      "x: 4 dimensions but a compute tile BD supports 3");
    CHECK(to_words(four, t, npu1().mem, model::TileKind::Mem, "x").size() == 4);
}

TEST_CASE("to_words: sub-word elements become 32-bit words", "[resolve][bd]") {
    const auto& c = npu1().compute;
    const auto t = tensor<std::uint8_t>({4096});
    CHECK(to_words({{4, 16}, {8, 1}}, t, c, Compute, "x") == std::vector<model::Dim>{{4, 4}, {2, 1}});
    CHECK_THROWS_WITH(to_words({{4, 16}, {6, 1}}, t, c, Compute, "x"),
                      "x: innermost size 6 x 1 B is not a whole number of 32-bit words");
    CHECK_THROWS_WITH(to_words({{4, 6}, {8, 1}}, t, c, Compute, "x"),
                      "x: stride 6 x 1 B of dimension 0 is not a whole number of 32-bit words");
    CHECK_THROWS_WITH(
        to_words({{4, 16}, {8, 2}}, t, c, Compute, "x"),
        "x: the innermost stride must be 1 for 1-byte elements (got 2); DMA address generation works on 32-bit words");
    CHECK_THROWS_WITH(to_words({{0, 16}, {8, 1}}, t, c, Compute, "x"), "x: dimension 0 has size 0");
}

TEST_CASE("to_words: an innermost dimension narrower than a word lowers to a linear BD, as aiecc's", "[resolve][bd]") {
    // vector_reduce_max_memtile.py --dtype bf16: outC's dims_to_stream [(1, 2), (1, 1)] on a bf16[4]
    // object. mlir-aie truncates the d0 size to 0 words (lib/Targets/AIERT.cpp:486-491), a wrap of 0:
    // the BD moves its length linearly. A shim BD still refuses it (BdLowering.h:88-93: "d0 size ...
    // is not a multiple of the 4-byte address-gen granule").
    const auto& n2 = model::device_by_name("npu2");
    const auto bf = tensor<npusim::bfloat16>({4});
    CHECK(to_words({{1, 2}, {1, 1}}, bf, n2.mem, model::TileKind::Mem, "x").empty());
    CHECK(to_words({{1, 2}, {1, 1}}, bf, n2.compute, Compute, "x").empty());
    const auto u8 = tensor<std::uint8_t>({64});
    CHECK(to_words({{4, 16}, {3, 1}}, u8, n2.mem, model::TileKind::Mem, "x").empty());
    CHECK_THROWS_WITH(to_words({{1, 2}, {1, 1}}, bf, n2.shim, model::TileKind::Shim, "x"),
                      "x: innermost size 1 x 2 B is not a whole number of 32-bit words");
    // a whole word or more that is not a whole number of words is still refused (the truncation
    // would drop data)
    CHECK_THROWS_WITH(to_words({{4, 16}, {6, 1}}, u8, n2.mem, model::TileKind::Mem, "x"),
                      "x: innermost size 6 x 1 B is not a whole number of 32-bit words");
}

TEST_CASE("check_bd_length: the longest BD the length field holds, and one word more", "[resolve][bd]") {
    const auto& c = npu1().compute;
    model::BufferDescriptor bd = make_bd(0, 16383 * 4, {}, -1, -1, {"in", "producer MM2S", 0});
    CHECK_NOTHROW(check_bd_length(bd, c, Compute));
    bd.length_bytes = 16384 * 4;
    CHECK_THROWS_WITH(
        check_bd_length(bd, c, Compute),
        "'in' producer MM2S, element 0: a BD of 65536 B (16384 words) exceeds the 14-bit length field of a compute "
        "tile BD (max 16383 words)");
    CHECK_NOTHROW(check_bd_length(bd, npu1().mem, model::TileKind::Mem)); // 17 bits on a mem tile
}

TEST_CASE("check_layout_fits_object / _segment: a layout moves exactly its BD inside its buffer", "[resolve][bd]") {
    CHECK_NOTHROW(check_layout_fits_object({{2, 2}, {2, 1}}, 16, "in", "producer MM2S"));
    CHECK_THROWS_WITH(check_layout_fits_object({{2, 4}, {2, 1}}, 16, "in", "producer MM2S"),
                      "fifo 'in' producer MM2S: data layout moves 16 B within offsets 0..23, but the object is 16 B");
    std::vector<model::NetBuffer> bufs(1);
    bufs[0].bytes = 32;
    auto bd = make_bd(0, 16, {{4, 1}}, -1, -1, {});
    bd.offset_bytes = 16;
    CHECK_NOTHROW(check_layout_fits_segment({bd}, bufs, "in", "link S2MM"));
    bd.offset_bytes = 20;
    CHECK_THROWS_WITH(
        check_layout_fits_segment({bd}, bufs, "in", "link S2MM"),
        "fifo 'in' link S2MM: data layout moves 16 B within offsets 0..15 of a 16 B segment at 20 of a 32 B buffer");
}

TEST_CASE("encode_padding: mem tiles only, one entry per dim, innermost in words", "[resolve][bd]") {
    FifoState f;
    f.name = "in";
    f.obj_type = tensor<std::int16_t>({64});
    f.pad_dimensions = {{1, 1}, {2, 2}};
    f.pad_value = 7;
    std::vector<model::BufferDescriptor> bds(2);
    const std::vector<model::Dim> dims{{4, 8}, {4, 1}};
    encode_padding(bds, f, dims, npu1().mem, model::TileKind::Mem, {0, 1});
    CHECK(bds[1].pad == std::vector<model::PadDim>{{1, 1}, {1, 1}});
    CHECK(bds[0].pad_word == 0x00070007u);
    CHECK_THROWS_WITH(encode_padding(bds, f, dims, npu1().compute, Compute, {0, 2}),
                      "fifo 'in': pad_dimensions need a mem tile link; compute tile (0,2) cannot pad");
    CHECK_THROWS_WITH(encode_padding(bds, f, {{4, 1}}, npu1().mem, model::TileKind::Mem, {0, 1}),
                      "fifo 'in': pad_dimensions has 2 entries for 1 dims_to_stream dimensions");
    f.pad_dimensions = {{1, 1}, {1, 2}};
    CHECK_THROWS_WITH(encode_padding(bds, f, dims, npu1().mem, model::TileKind::Mem, {0, 1}),
                      "fifo 'in': innermost padding 1/2 elements is not a whole number of 32-bit words");
}

TEST_CASE("shim_task_dims: an outermost size up to 65 passes AIEX verifyStridesWraps (hardware size 3 = size - 1 "
          "<= 64), beyond, a contiguous transfer is refused with its message, a strided one is split into chunks of 64 "
          "(aie-decompose-large-dma-bd)",
          "[resolve][bd][shim]") {
    const auto& shim = npu1().shim;
    const TensorAccessPattern ok({65, 16}, 0, {65, 1, 1, 16}, {0, 0, 0, 1});
    const auto dims = shim_task_dims(ok, 4, shim, 255, "fill");
    CHECK(dims == std::vector<model::Dim>{{65, 0}, {1, 0}, {1, 0}, {16, 1}}); // linear: only the length
    CHECK(shim_repeat_chunks(ok, shim).size() == 1);
    const TensorAccessPattern over({66, 16}, 0, {66, 1, 1, 16}, {0, 0, 0, 1});
    CHECK(shim_repeat_chunks(over, shim).size() == 1); // contiguous: the pass leaves it whole ...
    CHECK_THROWS_WITH(shim_task_dims(over, 4, shim, 255, "fill"),
                      Catch::StartsWith("fill: Size 3 exceeds the [1:64] range.")); // ... and the verifier refuses it
    CHECK_THROWS_WITH(shim_task_dims(ok, 4, shim, 63, "fill"), "fill: repeat count 64 exceeds 63");
    // Strided inner part: 100 repeats become 64 + 36, the second at offset 64 x stride.
    const TensorAccessPattern strided({4, 4}, 0, {100, 1, 4, 2}, {3, 0, 4, 1});
    const auto chunks = shim_repeat_chunks(strided, shim);
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0].sizes()[0] == 64);
    CHECK(chunks[1].sizes()[0] == 36);
    CHECK(chunks[0].offset() == 0);
    CHECK(chunks[1].offset() == 64 * 3);
    // The public count (npusim/frontend/ShimTasks.hpp) is the number of chunks.
    CHECK(shim_task_count(ok, shim) == 1);
    CHECK(shim_task_count(over, shim) == 1);
    CHECK(shim_task_count(strided, shim) == 2);
}

TEST_CASE("shim_task_dims: d0 size 1023 words fits the 10-bit size field, 1024 does not", "[resolve][bd][shim]") {
    const auto& shim = npu1().shim;
    const TensorAccessPattern ok({2, 2048}, 0, {1, 1, 2, 1023}, {0, 0, 2048, 1});
    CHECK(shim_task_dims(ok, 4, shim, 255, "drain")[3] == model::Dim{1023, 1});
    const TensorAccessPattern over({2, 2048}, 0, {1, 1, 2, 1024}, {0, 0, 2048, 1});
    CHECK_THROWS_WITH(shim_task_dims(over, 4, shim, 255, "drain"),
                      "drain: d0 size 1024 / d1 size 2 words exceed 1023 (10-bit size field of a shim BD)");
}

TEST_CASE("shim_task_dims: stride 2^20 words fits the 20-bit stride field, one more does not", "[resolve][bd][shim]") {
    const auto& shim = npu1().shim;
    const std::int64_t max = std::int64_t{1} << 20;
    const TensorAccessPattern ok({2, max + 1}, 0, {1, 1, 2, 1}, {0, 0, max, 1});
    CHECK(shim_task_dims(ok, 4, shim, 255, "drain")[2] == model::Dim{2, max});
    const TensorAccessPattern over({2, max + 2}, 0, {1, 1, 2, 1}, {0, 0, max + 1, 1});
    CHECK_THROWS_WITH(shim_task_dims(over, 4, shim, 255, "drain"),
                      "drain: stride 1048577 words exceeds the 20-bit stride field of a shim BD");
}

TEST_CASE("shim_task_offset / sub-word shim transfers are whole words", "[resolve][bd][shim]") {
    const TensorAccessPattern off({64}, 2, {1, 1, 1, 4}, {0, 0, 0, 1});
    CHECK_THROWS_WITH(shim_task_offset(off, 1, "fill"), "fill: offset 2 x 1 B is not 4-byte aligned");
    CHECK(shim_task_offset(off, 2, "fill") == 4);
    const TensorAccessPattern strided({64}, 0, {1, 1, 1, 4}, {0, 0, 0, 2});
    CHECK_THROWS_WITH(shim_task_dims(strided, 1, npu1().shim, 255, "fill"),
                      "fill: the innermost stride must be 1 for 1-byte elements");
}
