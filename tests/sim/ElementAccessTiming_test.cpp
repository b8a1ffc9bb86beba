// Element work a worker body does itself costs core time: each at<T>() read or write is one
// core_element_access_cycles (TimingParams, [est]), charged through CoreServices::element_access;
// a copy through as<T>() spans or memcpy is not counted (a kernel's business), add_cycles is.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>

using namespace npusim;
using namespace npusim::iron;

namespace {

constexpr std::int64_t kN = 64;

// One object of kN i32 through one worker; `element_ops` copies it value by value with at<T>
// (2 * kN accesses), otherwise with memcpy; `extra` cycles are added with add_cycles.
model::Netlist copy_design(bool element_ops, std::uint64_t extra = 0) {
    ObjectFifo in(tensor<std::int32_t>({kN}), "in", 1), out(tensor<std::int32_t>({kN}), "out", 1);
    Worker w(
        [element_ops, extra](ObjectFifoHandle a, ObjectFifoHandle b) {
            auto x = a.acquire(1);
            auto y = b.acquire(1);
            if (element_ops)
                range_(kN, [&](std::int64_t i) { y.at<std::int32_t>(i) = x.at<std::int32_t>(i); });
            else
                std::memcpy(y.data(), x.data(), kN * 4);
            if (extra) add_cycles(extra);
            a.release(1);
            b.release(1);
        },
        fn_args(in.cons(), out.prod()), {.while_true = false, .name = "copy"});
    Runtime rt(
        [](RuntimeData s, RuntimeData d, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(s);
            o.drain(d, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({kN}), tensor<std::int32_t>({kN}), in.prod(), out.cons()));
    return Program("npu1_1col", rt, {w}).resolve();
}

sim::SimResult run(const model::Netlist& n, const model::TimingParams& t) {
    std::vector<std::uint8_t> src(kN * 4);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 7 + 1);
    sim::SimOptions o;
    o.timing = t;
    auto r = sim::simulate(n, {src, std::vector<std::uint8_t>(kN * 4)}, o);
    REQUIRE(r.host[1] == src);
    return r;
}

} // namespace

TEST_CASE("a body's at<T> accesses cost core_element_access_cycles each", "[sim][timing]") {
    for (const std::uint32_t per_op : {1u, 5u}) {
        auto t = model::TimingParams::for_arch(model::Arch::AIE2);
        t.core_element_access_cycles = per_op;
        const auto with = run(copy_design(true), t), without = run(copy_design(false), t);
        REQUIRE(with.cores.size() == 1);
        // 2 * kN element ops (kN loads, kN stores) more than the same body copying with memcpy.
        CHECK(with.cores[0].busy_cycles - without.cores[0].busy_cycles == 2 * kN * per_op);
        CHECK(with.cores[0].body_cycles - without.cores[0].body_cycles == 2 * kN * per_op);
        // The run's end is the drain's (shim task overheads dominate a 256-byte object): not earlier.
        CHECK(with.cycles >= without.cycles);
    }
}

TEST_CASE("the AIE2 and AIE2P element access estimate is one cycle, add_cycles adds on top", "[sim][timing]") {
    CHECK(model::TimingParams::for_arch(model::Arch::AIE2).core_element_access_cycles == 1);
    CHECK(model::TimingParams::for_arch(model::Arch::AIE2P).core_element_access_cycles == 1);
    const auto t = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto with = run(copy_design(true, 100), t), without = run(copy_design(true), t);
    CHECK(with.cores[0].body_cycles - without.cores[0].body_cycles == 100);
}
