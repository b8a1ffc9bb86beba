// `npusim export` over the registered designs: every design exports -- none is refused, crashes or
// runs away (edge_detect's
// while_true=false worker once recorded its endless C++ loop until memory ran out). The designs that
// read run-time parameters in their bodies export IRON's memref.load (and arith.trunci where the
// body narrows the value, as color_threshold.py does).
#include "CliRun.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using namespace npusim;

namespace {
using npusim::test::cli;
using npusim::test::Out;
std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}
} // namespace

TEST_CASE("export: every registered design exports", "[cli][export]") {
    // On npu1_1col, or on the first device a design runs on (as tests/tools/export_mlir_opt.sh).
    int exported = 0;
    for (const auto& d : harness::all_designs()) {
        const bool col1 = std::find(d.devices.begin(), d.devices.end(), "npu1_1col") != d.devices.end();
        const Out r = cli({"export", d.name, "--device", col1 ? std::string("npu1_1col") : d.devices.front()});
        INFO(d.name << ": " << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.starts_with("module {"));
        exported += r.code == 0;
    }
    CHECK(exported == static_cast<int>(harness::all_designs().size()));
}

TEST_CASE("export: element arithmetic in a body is IRON's memref.load / arith / memref.store in the loop",
          "[cli][export]") {
    // vector_vector_add.py: for i in range_(n): elem_out[i] = elem_in1[i] + elem_in2[i]
    const Out v = cli({"export", "vector_vector_add"});
    REQUIRE(v.code == 0);
    CHECK(std::regex_search(v.out, std::regex(R"(scf\.for (%arg\d+) = %c0\w* to %c16\w* step %c1\w* \{\n)"
                                              R"(\s+(%\d+) = memref\.load %\d+\[\1\] : memref<16xi32>\n)"
                                              R"(\s+(%\d+) = memref\.load %\d+\[\1\] : memref<16xi32>\n)"
                                              R"(\s+(%\d+) = arith\.addi \2, \3 : i32\n)"
                                              R"(\s+memref\.store \4, %\d+\[\1\] : memref<16xi32>\n)")));
    // A counter: k = c[0]; c[0] = k + 1 (an arith.constant of the value's type, then arith.addi).
    const Out p = cli({"export", "per_tile"});
    REQUIRE(p.code == 0);
    CHECK(std::regex_search(p.out, std::regex(R"((%\d+) = memref\.load %access_counter\[%c0\w*\] : memref<1xi32>\n)"
                                              R"(\s+memref\.store \1, %\d+\[%arg\d+\] : memref<4xi32>\n)"
                                              R"(\s+%c1_i32 = arith\.constant 1 : i32\n)"
                                              R"(\s+(%\d+) = arith\.addi \1, %c1_i32 : i32\n)"
                                              R"(\s+(%c0\w*) = arith\.constant 0 : index\n)"
                                              R"(\s+memref\.store \2, %access_counter\[\3\] : memref<1xi32>)")));
    // An index computed from two loop indices: in1[j * n + i] (arith.muli, arith.addi on index).
    const Out o = cli({"export", "vec_vec_add_objfifo_init"});
    REQUIRE(o.code == 0);
    CHECK(std::regex_search(o.out, std::regex(R"(%c16_\d+ = arith\.constant 16 : index\n)"
                                              R"(\s+(%\d+) = arith\.muli %arg1, %c16_\d+ : index\n)"
                                              R"(\s+(%\d+) = arith\.addi \1, %arg2 : index\n)"
                                              R"(\s+%\d+ = memref\.load %\d+\[\2\] : memref<256xi32>)")));
    // A bf16 product of two scratchpad parameters (npu2): arith.mulf.
    const Out m = cli({"export", "scratchpad_multiply", "--device", "npu2"});
    REQUIRE(m.code == 0);
    CHECK(std::regex_search(m.out, std::regex(R"((%\d+) = aiex\.read_scratchpad_parameter @foo : bf16\n)"
                                              R"(\s+(%\d+) = aiex\.read_scratchpad_parameter @bar : bf16\n)"
                                              R"([\s\S]*= arith\.mulf \1, \2 : bf16)")));
}

TEST_CASE("export: a cascade word in a body is aie.get_cascade stored into the element", "[cli][export]") {
    const Out r = cli({"export", "deadlock_cascade_never_put"});
    REQUIRE(r.code == 0);
    CHECK(std::regex_search(r.out, std::regex(R"((%\d+) = aie\.get_cascade\(\) : vector<16xi32>\n)"
                                              R"(\s+%c0\w* = arith\.constant 0 : index\n)"
                                              R"(\s+vector\.store \1, %\d+\[%c0\w*\] : memref<16xi32>, vector<16xi32>)")));
}

TEST_CASE("export: the low-level API's flows, locks, buffers and BD chains", "[cli][export]") {
    const Out r = cli({"export", "lowlevel_passthrough"});
    REQUIRE(r.code == 0);
    const std::string& m = r.out;
    CHECK_THAT(m, Catch::Contains("aie.flow(%logical_shim_noc, DMA : 0, %logical_core, DMA : 0)"));
    CHECK_THAT(m, Catch::Contains("aie.shim_dma_allocation @in(%logical_shim_noc, MM2S, 0)"));
    CHECK_THAT(m, Catch::Contains("aie.shim_dma_allocation @out(%logical_shim_noc, S2MM, 0)"));
    CHECK_THAT(m, Catch::Contains("%in_empty = aie.lock(%logical_core) {init = 1 : i32, sym_name = \"in_empty\"}"));
    CHECK_THAT(m, Catch::Contains("%in_buf = aie.buffer(%logical_core) {sym_name = \"in_buf\"} : memref<1024xi32>"));
    CHECK_THAT(m, Catch::Contains("aie.use_lock(%in_full, AcquireGreaterEqual, %c1_i32)"));
    CHECK_THAT(m, Catch::Contains("aie.mem(%logical_core) {"));
    CHECK_THAT(m, Catch::Contains("aie.dma_start(S2MM, 0, ^bb1, ^bb2)"));
    CHECK_THAT(m, Catch::Contains("aie.dma_bd(%in_buf : memref<1024xi32>)"));
    CHECK_THAT(m, Catch::Contains("aie.next_bd ^bb1"));
    CHECK_THAT(m, Catch::Contains("aiex.dma_configure_task_for @in"));
    // One logical tile per coordinate: the worker's, the locks' and the DMA's compute tile.
    CHECK(count(m, "aie.logical_tile<CoreTile>(0, 2)") == 1);
    const Out p = cli({"export", "packet_flow_merge"});
    REQUIRE(p.code == 0);
    CHECK_THAT(p.out, Catch::Contains("aie.packet_flow(3) {"));
    CHECK_THAT(p.out, Catch::Contains("aie.dma_bd_packet(0, 7)"));
    CHECK(count(p.out, "aie.shim_dma_allocation @out(") == 1); // two packet flows share the symbol
}

TEST_CASE("export: a padded Bd is aie.dma_bd's pad clause, its channel's pad_value on aie.dma_start",
          "[cli][export]") {
    // tile_dma.py passes Bd.pad_dimensions to dma_bd and the channel's packed pad word to
    // dma_start (AIEOps.td DMABDOp `pad` $pad_dimensions, DMAStartOp pad_value).
    const Out z = cli({"export", "dma_padding", "--param", "api=tile_dma"});
    REQUIRE(z.code == 0);
    CHECK_THAT(z.out, Catch::Contains("aie.dma_bd(%mem_buf : memref<8xi32> len = 16 sizes = [8] strides = [1] pad "
                                      "[<const_pad_before = 4, const_pad_after = 4>])"));
    CHECK_THAT(z.out, !Catch::Contains("pad_value")); // zeros: the default, not printed
    // npu2 with a pad value on i8 elements: 7 replicated across the 32-bit word (0x07070707).
    const Out v = cli({"export", "dma_padding", "--device", "npu2", "--param", "api=tile_dma", "--param", "dtype=i8",
                       "--param", "pad=7", "--generic"});
    REQUIRE(v.code == 0);
    CHECK_THAT(v.out, Catch::Contains("pad_dimensions = #aie<bd_pad_layout_array[<const_pad_before = 4, "
                                      "const_pad_after = 4>]>"));
    CHECK_THAT(v.out, Catch::Contains("pad_value = 117901063 : i32"));
}

TEST_CASE("export --print-commands passes the design's allocation scheme to aiecc", "[cli][export]") {
    // edge_detect is built with basic-sequential (as its Makefile); passthrough_kernel leaves the flag unset.
    const Out e = cli({"export", "edge_detect", "--print-commands"});
    REQUIRE(e.code == 0);
    CHECK_THAT(e.out, Catch::Contains("--alloc-scheme=basic-sequential --tmpdir="));
    const Out p = cli({"export", "passthrough_kernel", "--print-commands"});
    REQUIRE(p.code == 0);
    CHECK_THAT(p.out, !Catch::Contains("--alloc-scheme"));
}

TEST_CASE("export: color_threshold loads its RTP values and narrows them as color_threshold.py does", "[cli][export]") {
    const Out r = cli({"export", "color_threshold"});
    REQUIRE(r.code == 0);
    // my_rtp[i] -> memref.load; arith.trunci to i16, i16 and i8 (color_threshold.py core_fn:
    // arith.trunci(T.i16(), my_rtp[0]) ... (T.i8(), my_rtp[2])); the call takes them, declared
    // with IRON's types (python/iron/kernels/vision.py threshold: int16, int16, int8).
    const std::regex narrowed(R"(%(\d+) = memref\.load %rtp0\[%c2(?:_\d+)?\] : memref<16xi32>\n[\s\S]*)"
                              R"(= arith\.trunci %\1 : i32 to i8\n\s*func\.call @thresholdLine)");
    CHECK(std::regex_search(r.out, narrowed));
    CHECK(count(r.out, "arith.trunci") == 3 * count(r.out, "func.call @thresholdLine"));
    CHECK(count(r.out, ": i32 to i16\n") == 2 * count(r.out, "func.call @thresholdLine"));
    CHECK(r.out.find("func.func private @thresholdLine(memref<1920xui8>, memref<1920xui8>, i32, i16, i16, i8)") !=
          std::string::npos);
    CHECK(r.out.find("ui8\n") == std::string::npos); // no unsigned scalar anywhere
    CHECK(count(r.out, "memref.load %rtp") == 3 * count(r.out, "aie.buffer("));
    CHECK(count(r.out, "arith.trunci") == count(r.out, "memref.load"));
}

TEST_CASE("export: edge_detect's filter loops are IRON's range_(sys.maxsize) and range_(1, height-1)",
          "[cli][export]") {
    const Out r = cli({"export", "edge_detect"});
    REQUIRE(r.code == 0);
    // while_true=False: Worker.resolve's range_(1) around the body's own endless range_, and the
    // middle rows as range_(1, height - 1) (edge_detect.py); the default height is 1080.
    const std::regex nested(R"(scf\.for %arg0 = %c0 to %c1 step %c1_\d+ \{\n.*\n.*= arith\.constant )"
                            R"(9223372036854775807 : index\n.*\n\s*scf\.for %arg1 = )");
    CHECK(std::regex_search(r.out, nested));
    const std::regex rows(R"(%(c1_\d+) = arith\.constant 1 : index\n\s*%(c1079) = arith\.constant 1079 : index\n)"
                          R"(\s*%(c1_\d+) = arith\.constant 1 : index\n\s*scf\.for %arg2 = %\1 to %\2 step %\3 \{)");
    CHECK(std::regex_search(r.out, rows));
}

TEST_CASE("export --generic prints every op in MLIR's generic form, to stdout or -o", "[cli][export]") {
    const Out r = cli({"export", "vector_scalar_mul", "--generic"});
    REQUIRE(r.code == 0);
    CHECK(r.out.starts_with("\"builtin.module\"() ({\n  \"aie.device\"() ({\n"));
    CHECK(r.out.ends_with("  }) {device = 5 : i32} : () -> ()\n}) : () -> ()\n"));
    // No op in the pretty form: each op line is a quoted name, a result and one, or a block label.
    const std::regex pretty(R"(\n\s*(?:%[\w]+ = )?[a-z]+\.[a-z_.]+[ (])");
    CHECK_FALSE(std::regex_search(r.out, pretty));
    CHECK(count(r.out, "\"func.call\"(") == count(cli({"export", "vector_scalar_mul"}).out, "func.call @"));
    CHECK(count(r.out, "\"aie.objectfifo.acquire\"()") ==
          count(cli({"export", "vector_scalar_mul"}).out, "aie.objectfifo.acquire @"));
    // -o writes the same text.
    const npusim::test::TempDir tmp("npusim_export_generic_test");
    const auto file = tmp.path / "out.mlir";
    REQUIRE(cli({"export", "vector_scalar_mul", "--generic", "-o", file.string()}).code == 0);
    std::ifstream in(file);
    const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(file);
    CHECK(written == r.out);
}

// mlir-aie test/npu-xrt/scratchpad_addr_offset/aie.mlir: the parameter at module scope (IRON
// declares an offset-only parameter after the device, python/iron/program.py), the fill's BD with
// offset_parameter, the body's element copy as memref.load + memref.store.
TEST_CASE("export: scratchpad_offset declares input_offset and offsets the fill's BD with it", "[cli][export]") {
    const Out r = cli({"export", "scratchpad_offset", "--device", "npu2"});
    REQUIRE(r.code == 0);
    CHECK(r.out.ends_with("  }\n  aiex.scratchpad_parameter @input_offset : i32\n}\n"));
    CHECK(r.out.find("strides = [0, 0, 0, 1]) {offset_parameter = @input_offset}\n") != std::string::npos);
    CHECK(count(r.out, "memref.store %") == 8);
    CHECK(count(r.out, "= memref.load %") == 8);
    // scratchpad_multiply's bf16 product, refused before element arithmetic was exported, is
    // arith.mulf now ("export: element arithmetic in a body ...").
    CHECK(cli({"export", "scratchpad_multiply", "--device", "npu2"}).code == 0);
}

TEST_CASE("export --json: one document holding the module, and the build commands with --print-commands",
          "[cli][export][json]") {
    const Out plain = cli({"export", "vector_scalar_mul", "--device", "npu2", "--param", "bits=32"});
    REQUIRE(plain.code == 0);
    const Out r = cli({"export", "vector_scalar_mul", "--device", "npu2", "--param", "bits=32", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["document"] == "export");
    CHECK(j["design"] == "vector_scalar_mul");
    CHECK(j["device"] == "npu2");
    CHECK(j["params"]["bits"] == 32);
    CHECK(j["module"] == plain.out); // the text export prints without --json
    CHECK(j["generic"] == false);
    CHECK(j["output"].is_null());
    CHECK(j["commands"].is_null());
    // With --print-commands and -o: the commands as --print-commands prints them, the file written.
    const npusim::test::TempDir tmp("npusim_export_json_test");
    const auto file = tmp.path / "out.mlir";
    const Out c = cli({"export", "vector_scalar_mul", "--print-commands", "-o", file.string(), "--json"});
    REQUIRE(c.code == 0);
    const auto k = nlohmann::json::parse(c.out);
    CHECK(k["output"] == file.string());
    CHECK(k["commands"] == cli({"export", "vector_scalar_mul", "--print-commands", "-o", file.string()}).out);
    std::ifstream in(file);
    const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(file);
    CHECK(written == k["module"].get<std::string>());
    // A failure is the error document.
    const Out bad = cli({"export", "no_such_design", "--json"});
    CHECK(bad.code == 2);
    CHECK(nlohmann::json::parse(bad.out)["status"] == "design_error");
}
