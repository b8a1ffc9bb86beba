// The random-design fuzzer (tools/fuzz, docs/fuzzing.md): its independent expected outputs on hand-made
// plans, the endings it sorts cases into (and that a wrong output or a missed fault is a bug, so
// the smoke run can fail), and a bounded seeded run in which no case may end in a bug.
#include "FuzzRunner.hpp"
#include "RandomDesign.hpp"

#include <catch2/catch.hpp>
#include <numeric>

using namespace npusim;
using namespace npusim::fuzz;

namespace {

Plan plan_of(std::vector<StagePlan> stages, DType dt = DType::i32, std::int64_t n = 8, std::int64_t k = 2) {
    Plan p;
    p.device = "npu1_1col";
    p.dtype = dt;
    p.n = n;
    p.k = k;
    p.stages = std::move(stages);
    return p;
}

StagePlan worker(std::uint32_t add, bool kernel = false) {
    StagePlan s;
    s.kind = StagePlan::Kind::Worker;
    s.add = {add};
    s.kernel = kernel;
    return s;
}

std::vector<std::uint8_t> iota_bytes(std::size_t n) {
    std::vector<std::uint8_t> v(n);
    std::iota(v.begin(), v.end(), std::uint8_t{0});
    return v;
}

} // namespace

TEST_CASE("expected outputs: additions wrap at the element width", "[fuzz]") {
    const auto p = plan_of({worker(0xFF), worker(2)}, DType::u8, 4, 1);
    const auto out = expected_outputs(p, {0, 1, 2, 250});
    CHECK(out[0] == std::vector<std::uint8_t>{1, 2, 3, 251}); // + 0xFF + 2 = + 1 (mod 256)
    CHECK(out[1] == std::vector<std::uint8_t>(4, 0)); // no broadcast: nothing
}

TEST_CASE("expected outputs: a split adds each part's own constant", "[fuzz]") {
    StagePlan s;
    s.kind = StagePlan::Kind::SplitJoin;
    s.ways = 2;
    s.add = {1, 100};
    const auto p = plan_of({s}, DType::u8, 4, 2);
    CHECK(expected_outputs(p, iota_bytes(8))[0] == std::vector<std::uint8_t>{1, 2, 102, 103, 5, 6, 106, 107});
}

TEST_CASE("expected outputs: transposed fill, mem-tile transpose and transposed drain", "[fuzz]") {
    auto p = plan_of({}, DType::u8, 4, 2); // 2 objects of 4 bytes, no stage
    p.transpose_fill = true;
    p.rows = 2;
    p.cols = 4;
    // input [[0,1,2,3],[4,5,6,7]] read column by column
    CHECK(expected_outputs(p, iota_bytes(8))[0] == std::vector<std::uint8_t>{0, 4, 1, 5, 2, 6, 3, 7});
    auto q = plan_of({}, DType::u8, 4, 2);
    StagePlan f;
    f.kind = StagePlan::Kind::Forward;
    f.transpose_objects = true; // each object [2,2] transposed
    q.stages = {f};
    CHECK(expected_outputs(q, iota_bytes(8))[0] == std::vector<std::uint8_t>{0, 2, 1, 3, 4, 6, 5, 7});
    auto r = plan_of({}, DType::u8, 4, 2);
    r.transpose_drain = true; // stream element c*n + r lands at r*k + c
    CHECK(expected_outputs(r, iota_bytes(8))[0] == std::vector<std::uint8_t>{0, 4, 1, 5, 2, 6, 3, 7});
    auto b = plan_of({worker(1)}, DType::i16, 2, 1);
    b.broadcast = true;
    b.broadcast_add = 0x10000 + 3; // wraps to + 3 on 16 bits
    const auto out = expected_outputs(b, {1, 0, 0xff, 0xff});
    CHECK(out[0] == std::vector<std::uint8_t>{2, 0, 0, 0});
    CHECK(out[1] == std::vector<std::uint8_t>{4, 0, 2, 0});
}

TEST_CASE("a well-formed case runs and matches, a wrong expectation is a bug", "[fuzz]") {
    const FuzzRunner runner;
    StagePlan f;
    f.kind = StagePlan::Kind::Forward;
    const auto p = plan_of({worker(7, true), f, worker(9)}, DType::i16, 64, 4);
    REQUIRE(p.well_formed());
    const auto ok = runner.run(p, 1);
    INFO(ok.message);
    CHECK(ok.ending == Ending::Success);
    CHECK(ok.cycles > 0);
    const auto bad = runner.run(p, 1, [](BuiltDesign& d) { d.expected[1]->at(5) ^= 1; });
    CHECK(bad.ending == Ending::WrongData);
    CHECK(is_bug(bad.ending));
    CHECK_THAT(
        bad.message,
        Catch::Matches("output: 1 of 512 bytes differ, first at byte 5 \\(got 0x[0-9a-f]{2}, want 0x[0-9a-f]{2}\\)"));
}

TEST_CASE("planted faults end as they must", "[fuzz]") {
    const FuzzRunner runner;
    auto with = [](Fault f, int at = 1) {
        auto p = plan_of({worker(1, true)}, DType::i32, 16, 3);
        if (f == Fault::FillFewer || f == Fault::DrainMore || f == Fault::BadDepth || f == Fault::RaggedTensor)
            p.fault = f;
        else
            p.stages[0].fault = f, p.stages[0].fault_at = at, p.stages[0].one_shot = f == Fault::BodyStopsEarly;
        return p;
    };
    CHECK(runner.run(with(Fault::KernelThrows, 2), 1).ending == Ending::Kernel);
    CHECK(runner.run(with(Fault::KernelOverrun, 1), 1).ending == Ending::Kernel);
    CHECK(runner.run(with(Fault::BodyStopsEarly), 1).ending == Ending::Deadlock);
    CHECK(runner.run(with(Fault::FillFewer), 1).ending == Ending::Deadlock);
    CHECK(runner.run(with(Fault::DrainMore), 1).ending == Ending::Deadlock);
    CHECK(runner.run(with(Fault::RaggedTensor), 1).ending == Ending::Deadlock);
    CHECK(runner.run(with(Fault::BadDepth), 1).ending == Ending::DesignError);
    CHECK(runner.run(with(Fault::BodyOverAcquire), 1).ending == Ending::DesignError);
    // A planted fault that a run would let pass is reported as a bug.
    CHECK(fault_caught_by(with(Fault::KernelOverrun), Fault::KernelOverrun, Ending::Success) == false);
    CHECK(fault_caught_by(with(Fault::NoDrainWait), Fault::NoDrainWait, Ending::Success));
}

TEST_CASE("bounded seeded run: no case ends in a bug", "[fuzz][smoke]") {
    const FuzzRunner runner(FuzzLimits{5'000'000, 20});
    FuzzRunner::Tally t;
    for (std::uint64_t c = 0; c < 400; ++c) {
        SeededEntropy e(1000 + c);
        const auto p = make_plan(e, c);
        const auto r = runner.run(p, c);
        runner.add(t, p, r);
        INFO(p.describe() << "\n" << r.message);
        CHECK_FALSE(is_bug(r.ending));
    }
    // The generator reaches every ending a design can have, not only successes.
    CHECK(t.count[static_cast<int>(Ending::Success)] > 100);
    CHECK(t.count[static_cast<int>(Ending::DesignError)] > 10);
    CHECK(t.count[static_cast<int>(Ending::Deadlock)] > 5);
    CHECK(t.count[static_cast<int>(Ending::Kernel)] > 5);
}
