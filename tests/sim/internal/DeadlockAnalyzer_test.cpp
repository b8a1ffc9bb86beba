// DeadlockAnalyzer on hand-built states: cases that need a precise state: a barrier lock only the runtime sequence sets, a
// lock nothing releases, a finished DMA channel; and the causal chain's order from the sequence.
#include "DeadlockAnalyzer.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::model;
using namespace npusim::sim;

namespace {
struct Scene {
    DeviceSpec dev = device_by_name("npu1_1col");
    Netlist net;
    std::vector<std::unique_ptr<ProcessState>> states;
    std::vector<ProcessView> views;
    std::vector<LockView> locks;
    Scene() {
        net.device = &dev;
        net.design = "scene";
    }
    int lock(const std::string& name, int value) {
        NetLock l;
        l.name = name;
        l.tile = {0, 2};
        l.prov = {"bar", "barrier", -1};
        net.locks.push_back(l);
        locks.push_back({name, "(0,2)", value, ""});
        return static_cast<int>(net.locks.size()) - 1;
    }
    ProcessView& view(ProcessView::Kind kind, const std::string& name, ProcessState::Status st, int index = -1) {
        states.push_back(std::make_unique<ProcessState>());
        auto& ps = *states.back();
        ps.name = name;
        ps.status = st;
        ProcessView v;
        v.kind = kind;
        v.state = &ps;
        v.index = index;
        v.progress.process = name;
        v.progress.state = st == ProcessState::Status::Done   ? ProcessProgress::State::Finished
                           : st == ProcessState::Status::Idle ? ProcessProgress::State::Idle
                                                              : ProcessProgress::State::Blocked;
        views.push_back(v);
        return views.back();
    }
    Diagnosis run() { return DeadlockAnalyzer(net, views, {}, locks, 100, {}).deadlock(); }
};
} // namespace

TEST_CASE("analyzer: a worker waiting for a barrier value that only the runtime sequence sets, after the sequence "
          "is stuck, is a barrier never set",
          "[sim][deadlock][analyzer]") {
    Scene s;
    const int bar = s.lock("bar_lock", 0);
    CoreProgram core;
    core.worker = "w";
    core.tile = {0, 2};
    core.locks.push_back({1, bar});
    s.net.cores.push_back(core);
    RuntimeOp set;
    set.kind = RuntimeOp::Kind::SetLock;
    set.lock = bar;
    set.value = 1;
    s.net.sequence.push_back(set);
    auto& w = s.view(ProcessView::Kind::Worker, "worker 'w' on (0,2)", ProcessState::Status::WaitLock, 0);
    auto& ws = *s.states.back();
    ws.lock = bar;
    ws.want = 1;
    ws.equal = true;
    ws.detail = "barrier wait_for_value(1)";
    w.progress.waits_for = ws.detail;
    const auto d = s.run();
    CHECK(d.case_id == "barrier_never_set");
    REQUIRE(d.chain.size() == 1);
    CHECK(d.chain[0] == "worker 'w' on (0,2) waits in barrier wait_for_value(1): lock bar_lock on (0,2) is 0, needs "
                        "== 1; released by worker 'w'; set by the runtime sequence (to 1)");
}

TEST_CASE("analyzer: a lock nothing releases ends the chain there", "[sim][deadlock][analyzer]") {
    Scene s;
    const int l = s.lock("orphan_lock", 0);
    CoreProgram core;
    core.worker = "w";
    core.tile = {0, 2};
    s.net.cores.push_back(core);
    s.view(ProcessView::Kind::Worker, "worker 'w' on (0,2)", ProcessState::Status::WaitLock, 0);
    auto& ws = *s.states.back();
    ws.lock = l;
    ws.want = 1;
    const auto d = s.run();
    CHECK(d.case_id == "no_releaser");
    CHECK_THAT(d.chain.back(), Catch::EndsWith("nothing in the design releases or sets it"));
    CHECK_THAT(d.text, Catch::Contains("released by nobody"));
    // The graph: the worker, its lock, one edge, no cycle.
    CHECK(d.nodes.size() == 2);
    CHECK(d.edges.size() == 1);
    CHECK(d.edges[0].label == "waits >= 1");
    CHECK(d.cycles.empty());
}
