// `npusim run --alloc-scheme bank-aware|basic-sequential` and a design's own alloc_scheme build
// option, mirroring aiecc's --alloc-scheme (mlir-aie tools/aiecc/CommandLineOptions.h) as
// AIEAssignBuffers.cpp (AIEAssignBufferAddressesPass) applies it; docs/resolve.md, "Mem-tile
// placement and memory allocation".
#include "CliRun.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace npusim;
using Catch::Contains;

namespace {
using npusim::test::Out;
using npusim::test::cli;

// The netlist dump line of buffer `name`.
std::string dump_line(const std::string& dump, const std::string& name) {
    const auto at = dump.find("  " + name + " ");
    if (at == std::string::npos) return {};
    return dump.substr(at, dump.find('\n', at) - at);
}

// shim -> in (i32[5120], 20 KiB objects, depth 2) -> worker (copies the first 16 words) -> out ->
// shim. A 20 KiB buffer fits no 16 KiB allocator bank of a compute tile, so only basic-sequential
// places it. "test_alloc_big" leaves the scheme unset; "test_alloc_big_bank_aware" is built with
// alloc_scheme = bank-aware (its build option).
void register_alloc_designs() {
    static bool done = false;
    if (done) return;
    done = true;
    for (auto scheme : {iron::AllocScheme::Default, iron::AllocScheme::BankAware}) {
        harness::DesignSpec s;
        s.name = scheme == iron::AllocScheme::Default ? "test_alloc_big" : "test_alloc_big_bank_aware";
        s.description = "test: 20 KiB fifo objects on a compute tile";
        s.devices = {"npu1_1col"};
        s.alloc_scheme = scheme;
        s.build = [](const model::DeviceSpec& dev, const harness::Params&, const harness::BuildOptions&) {
            using namespace iron;
            const auto big = tensor<std::int32_t>({5120}), small = tensor<std::int32_t>({16});
            auto program = npusim::test::passthrough({.type = big,
                                                      .out_type = small,
                                                      .body =
                                                          [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                              auto e = i.acquire(1);
                                                              auto f = o.acquire(1);
                                                              std::copy(e.as<std::int32_t>().begin(),
                                                                        e.as<std::int32_t>().begin() + 16,
                                                                        f.as<std::int32_t>().begin());
                                                              i.release(1);
                                                              o.release(1);
                                                          },
                                                      .host_elements = 5120,
                                                      .out_host_elements = 16,
                                                      .spec = &dev,
                                                      .program = "test_alloc_big"});
            std::vector<std::int32_t> a(5120);
            for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<std::int32_t>(3 * k + 1);
            return harness::DesignInstance(
                std::move(program), {harness::ArgSpec::input("a", big), harness::ArgSpec::output("b", small)},
                {{"a", harness::Tensor::from<std::int32_t>({5120}, a)}},
                [](const harness::Tensors& x) {
                    auto v = x.at("a").values<std::int32_t>();
                    v.resize(16);
                    return harness::Tensors{{"b", harness::Tensor::from<std::int32_t>({16}, v)}};
                },
                "test_alloc_big");
        };
        harness::register_design(s);
    }
}
} // namespace

// --alloc-scheme=basic-sequential: basicAllocation only; the netlist shows the buffers packed
// after the 1 KiB stack, largest first: in_cons_buff_0 at 0x400, in_cons_buff_1 20 KiB later.
TEST_CASE("CLI alloc-scheme basic-sequential packs the buffers (netlist dump)", "[cli][alloc]") {
    register_alloc_designs();
    const auto r = cli({"run", "test_alloc_big", "--alloc-scheme", "basic-sequential", "--netlist"});
    CHECK(r.code == 0);
    CHECK_THAT(dump_line(r.out, "in_cons_buff_0"), Contains("@0x00400"));
    CHECK_THAT(dump_line(r.out, "in_cons_buff_1"), Contains("@0x05400"));
    CHECK_THAT(dump_line(r.out, "out_buff_0"), Contains("@0x0a400"));
    CHECK_THAT(r.out, !Contains("Bank-aware allocation failed"));
    CHECK_THAT(r.out, Contains("result: PASS"));
    // The passthrough demo fits either way; basic-sequential packs its 1 KiB buffers back to back.
    const auto p = cli({"run", "passthrough_kernel", "--alloc-scheme=basic-sequential", "--netlist"});
    CHECK(p.code == 0);
    CHECK_THAT(dump_line(p.out, "in_cons_buff_1"), Contains("@0x00800"));
}

// --alloc-scheme=bank-aware: simpleBankAwareAllocation without fallback, "Bank-aware allocation
// failed." naming the tile (exit code 2, a design error).
TEST_CASE("CLI alloc-scheme bank-aware refuses a design that only fits sequentially", "[cli][alloc]") {
    register_alloc_designs();
    const auto r = cli({"run", "test_alloc_big", "--alloc-scheme", "bank-aware"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("npusim: design error: compute tile (0,2): Bank-aware allocation failed."));
    CHECK_THAT(r.err, Contains("Failed to allocate buffer: in_cons_buff_0 with size: 20480 bytes"));
}

// No --alloc-scheme: bank-aware, then basic-sequential with the toolchain's warning, shown with
// the run's warnings (summary and --json).
TEST_CASE("CLI without --alloc-scheme: bank-aware falls back to basic-sequential with a warning", "[cli][alloc]") {
    register_alloc_designs();
    const auto r = cli({"run", "test_alloc_big"});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("  warning: compute tile (0,2): Bank-aware allocation failed, trying basic sequential "
                               "allocation."));
    CHECK_THAT(r.out, Contains("result: PASS"));
    const auto j = cli({"run", "test_alloc_big", "--json"});
    REQUIRE(j.code == 0);
    const auto doc = nlohmann::json::parse(j.out);
    REQUIRE(doc["warnings"].size() >= 1);
    CHECK_THAT(doc["warnings"][0].get<std::string>(), Contains("Bank-aware allocation failed, trying basic"));
}

// A design built with alloc_scheme = bank-aware (DesignSpec::alloc_scheme, its build option)
// behaves as the flag does; the command line overrides it.
TEST_CASE("CLI: a design's alloc_scheme build option, --alloc-scheme overrides it", "[cli][alloc]") {
    register_alloc_designs();
    const auto r = cli({"run", "test_alloc_big_bank_aware"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("compute tile (0,2): Bank-aware allocation failed."));
    const auto n = cli({"run", "test_alloc_big_bank_aware", "--netlist"});
    CHECK(n.code == 2); // the --netlist dump resolves with the same options
    const auto o = cli({"run", "test_alloc_big_bank_aware", "--alloc-scheme", "basic-sequential"});
    CHECK(o.code == 0);
    CHECK_THAT(o.out, Contains("result: PASS"));
}

// aiecc accepts any string (an unknown one behaves as unset); npusim's CLI takes only the two
// scheme names and refuses anything else as a usage error.
TEST_CASE("CLI alloc-scheme with a bad value is a usage error", "[cli][alloc]") {
    auto r = cli({"run", "passthrough_kernel", "--alloc-scheme", "fast"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err,
               Contains("npusim: usage error: --alloc-scheme expects bank-aware or basic-sequential, got 'fast'"));
    r = cli({"run", "passthrough_kernel", "--alloc-scheme"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("--alloc-scheme needs a value"));
    r = cli({"args", "passthrough_kernel", "--alloc-scheme", "bank-aware"});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("args: unknown option '--alloc-scheme'")); // args neither resolves nor allocates
}
