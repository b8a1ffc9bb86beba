// Sweeps (harness/Sweep, `npusim sweep`): the grid's points in a fixed order, every point's outcome
// as run_design gives it for that configuration alone, and the same outcomes from worker processes
// and serially.
#include "npusim/harness/Sweep.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace npusim;
using namespace npusim::harness;
using Catch::Matchers::Contains;

TEST_CASE("sweep_points: device-major, the last axis fastest, other parameters at their defaults", "[harness][sweep]") {
    const auto& spec = design_by_name("passthrough_kernel");
    const auto pts = sweep_points(spec, {"npu1_1col", "npu2"}, {{"tile", {64, 128}}, {"bits", {8, 16, 32}}});
    REQUIRE(pts.size() == 12);
    std::vector<std::string> got;
    for (const auto& p : pts)
        got.push_back(
            fmt::format("{} {} {} {}", p.device, p.params.at("tile"), p.params.at("bits"), p.params.at("size")));
    CHECK(got.front() == "npu1_1col 64 8 4096");
    CHECK(got[1] == "npu1_1col 64 16 4096");
    CHECK(got[3] == "npu1_1col 128 8 4096");
    CHECK(got[6] == "npu2 64 8 4096");
    CHECK(got.back() == "npu2 128 32 4096");
    // No axis: one point per device, every parameter at its default.
    const auto one = sweep_points(spec, {"npu2"}, {});
    REQUIRE(one.size() == 1);
    CHECK(one[0].params == spec.resolve_params({}));
}

TEST_CASE("sweep_points refuses what it cannot run", "[harness][sweep][errors]") {
    const auto& spec = design_by_name("passthrough_kernel");
    CHECK_THROWS_WITH(sweep_points(spec, {"npu1_1col"}, {{"tile", {64}}, {"tile", {128}}}),
                      "sweep of 'passthrough_kernel': parameter 'tile' is swept twice");
    CHECK_THROWS_WITH(sweep_points(spec, {"npu1_1col"}, {{"width", {1}}}), Contains("width"));
    CHECK_THROWS_AS(sweep_points(spec, {"npu9"}, {}), DesignError);
    CHECK_THROWS_WITH(sweep_points(design_by_name("matmul_whole_array"), {"npu1_3col"}, {}),
                      "design 'matmul_whole_array' does not run on npu1_3col");
    CHECK_THROWS_WITH(sweep_points(spec, {"npu1_1col"}, {{"tile", {1, 2, 3}}, {"bits", {8, 16}}}, 5),
                      "sweep of 'passthrough_kernel': more than 5 points; sweep fewer values");
}

TEST_CASE("run_sweep: each point as run_design runs it alone, worker processes and serial agree", "[harness][sweep]") {
    const auto& spec = design_by_name("passthrough_kernel");
    // tile=1000 does not divide size: refused at build, as run_design refuses it.
    const auto pts = sweep_points(spec, {"npu1_1col", "npu2"}, {{"tile", {512, 1000, 1024}}});
    SweepOptions forked;
    forked.jobs = 2;
    std::size_t progress_calls = 0;
    forked.progress = [&](std::size_t done, std::size_t total) {
        ++progress_calls;
        CHECK(done <= total);
        CHECK(total == 6);
    };
    const auto a = run_sweep(spec, pts, forked);
    SweepOptions serial;
    serial.fork_workers = false;
    const auto b = run_sweep(spec, pts, serial);
    REQUIRE(a.size() == 6);
    REQUIRE(b.size() == 6);
    CHECK(progress_calls == 6);
    for (std::size_t i = 0; i < pts.size(); ++i) {
        INFO(pts[i].device << " tile=" << pts[i].params.at("tile"));
        CHECK(a[i].outcome == b[i].outcome);
        CHECK(a[i].seconds > 0);
        if (pts[i].params.at("tile") == 1000) {
            CHECK(a[i].outcome.status == RunOutcome::Status::Refused);
            CHECK_THAT(a[i].outcome.message, Contains("tile=1000"));
            continue;
        }
        RunOptions ro;
        ro.sim.timing = model::TimingParams::for_arch(model::device_by_name(pts[i].device).arch);
        const auto rep = run_design(spec, pts[i].device, pts[i].params, ro);
        CHECK(a[i].outcome.status == RunOutcome::Status::Ok);
        CHECK(a[i].outcome.cycles == rep.result.cycles);
    }
}

TEST_CASE("run_sweep: a deadlocking design is a point with status deadlock, not a failed sweep", "[harness][sweep]") {
    const auto& spec = design_by_name("deadlock_fill_less");
    const auto r = run_sweep(spec, sweep_points(spec, {spec.devices.front()}, {}), {});
    REQUIRE(r.size() == 1);
    CHECK(r[0].outcome.status == RunOutcome::Status::Deadlock);
    CHECK_FALSE(r[0].outcome.message.empty());
}

TEST_CASE("a sweep result survives its encoding (worker pipes, MPI messages)", "[harness][sweep]") {
    SweepResult r{{RunOutcome::Status::Mismatch, 12345, "output c: 3 of 4096 elements differ\nsecond line"}, 0.25};
    const auto back = decode_sweep_result(encode(r));
    REQUIRE(back);
    CHECK(back->outcome == r.outcome);
    CHECK(back->seconds == Approx(0.25));
    CHECK_FALSE(decode_sweep_result("x\n0 1 0\n"));
    CHECK_FALSE(decode_sweep_result("0.5\n9 1 0\n")); // no such status
    CHECK_FALSE(decode_sweep_result("0.5\n0 1 5\nab")); // shorter than its length
}
