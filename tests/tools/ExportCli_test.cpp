// `npusim export` over the registered designs: every design either exports or is refused with a
// DesignError naming what has no op (exit code 2) -- none crashes or runs away (edge_detect's
// while_true=false worker once recorded its endless C++ loop until memory ran out). The designs that
// read run-time parameters in their bodies export IRON's memref.load (and arith.trunci where the
// body narrows the value, as color_threshold.py does).
#include "CliRun.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

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

TEST_CASE("export: every registered design exports or is refused with a design error", "[cli][export]") {
    int exported = 0, refused = 0;
    for (const auto& d : harness::all_designs()) {
        const Out r = cli({"export", d.name});
        INFO(d.name << ": " << r.err);
        CHECK((r.code == 0 || r.code == 2));
        if (r.code == 0) {
            CHECK(r.out.starts_with("module {"));
            ++exported;
        } else {
            CHECK(r.err.find("design error") != std::string::npos);
            ++refused;
        }
    }
    CHECK(exported >= 17);
    CHECK(refused > 0);
    // Designs whose bodies read or narrow RTP values, or loop with range_, export.
    for (const char* name : {"color_threshold", "scale_shift", "edge_detect", "relu", "conv2d"}) {
        INFO(name);
        CHECK(cli({"export", name}).code == 0);
    }
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
    const Out m = cli({"export", "scratchpad_multiply", "--device", "npu2"});
    CHECK(m.code == 2);
    CHECK(m.err.find("worker 'multiply': cannot export its body: it stores into 'objfifo_out' a value computed "
                     "in the body") != std::string::npos);
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
