// The words of the command line: a usage error's short hint (not the whole help), the exit codes in
// every help, and messages that name what the user wrote (a named parameter by its name, sizes with
// their fraction, a --link-with kernel the design does not call).
#include "CliRun.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace npusim;
using npusim::test::cli;

TEST_CASE("cli: a usage error prints the error, the command's usage line and where its help is, not the help",
          "[cli][messages]") {
    const auto r = cli({"run", "passthrough_dmas", "--bogus"});
    CHECK(r.code == 2);
    CHECK(r.err == "usage: npusim run DESIGN [options] (`npusim run --help` for its options)\n"
                   "npusim: usage error: run: unknown option '--bogus'\n");
    const auto g = cli({"golden", "passthrough_dmas", "--seed", "x"});
    CHECK(g.err == "usage: npusim golden DESIGN [options] (`npusim golden --help` for its options)\n"
                   "npusim: usage error: --seed expects a non-negative integer, got 'x'\n");
    const auto top = cli({"frobnicate"});
    CHECK(top.err == "usage: npusim COMMAND [options] (`npusim --help` lists the commands and their options)\n"
                     "npusim: usage error: unknown command 'frobnicate'\n");
}

TEST_CASE("cli: every help lists exit code 6", "[cli][messages]") {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"run", "--help"}, {"hw", "--help"}}) {
        const auto h = cli(args);
        CHECK(h.code == 0);
        CHECK_THAT(h.out, Catch::Contains("5 internal error (a bug in npusim), 6 the NPU could not run (hw, compare: "
                                          "no NPU,\nno XRT, or XRT failed)"));
    }
}

TEST_CASE("cli: the host-memory refusal names a named parameter by its name and sizes with their fraction",
          "[cli][messages]") {
    harness::RunOptions ro;
    ro.host_memory_bytes = 1 << 20;
    // A and B 256x256 i16 (128 KiB each), C 256x256 i32 (256 KiB): 512 KiB, times 3.
    CHECK_THROWS_WITH(harness::run_design(harness::design_by_name("matmul_single_core"), "npu1_1col",
                                          {{"M", 256}, {"K", 256}, {"N", 256}}, ro),
                      Catch::Contains("dtype_in=i16") && Catch::Contains("dtype_out=i32") &&
                          Catch::Contains("a run needs about 3 times that (1.5 MiB), more than the 1 MiB of host "
                                          "memory available"));
}

TEST_CASE("export: --link-with a kernel the design does not call is a design error naming the design's kernels",
          "[cli][messages][export]") {
    const auto r = cli({"export", "passthrough_kernel", "--link-with", "nope=x.o"});
    CHECK(r.code == 2);
    CHECK(r.err == "npusim: design error: --link-with nope=x.o: the design calls no kernel 'nope' (its kernels: "
                   "passThroughLine)\n");
    CHECK(r.out.empty());
    CHECK(cli({"export", "passthrough_kernel", "--link-with", "passThroughLine=pt.o"}).code == 0);
    const auto none = cli({"export", "passthrough_dmas", "--link-with", "k=k.o"});
    CHECK_THAT(none.err, Catch::EndsWith("(its kernels: none)\n"));
}

TEST_CASE("cli: a std::bad_alloc outside a run's own check is 'out of host memory', with what the process may use",
          "[cli][messages]") {
    const std::bad_alloc e;
    const auto c = tools::classify_error(e);
    CHECK(c.code == 2);
    CHECK(c.status == "error");
    CHECK(c.kind == "out of host memory");
    const std::string m = tools::error_message(e);
    CHECK_THAT(m, Catch::StartsWith("a memory allocation failed (std::bad_alloc) while the command ran; this process "
                                    "may use "));
    CHECK_THAT(m, Catch::Contains(" MiB more (") && Catch::Contains("fewer outputs"));
    // Any other exception keeps its own text.
    CHECK(tools::error_message(std::runtime_error("plain")) == "plain");
}
