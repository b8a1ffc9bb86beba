// Who acts on each lock, stream flow and runtime task, derived from a hand-built netlist.
#include "npusim/model/NetlistRelations.hpp"

#include <catch2/catch.hpp>

using namespace npusim::model;

namespace {

BufferDescriptor bd(int acq, int acq_value, bool equal, int rel, int rel_value) {
    BufferDescriptor b;
    b.buffer = 0;
    b.acquire_lock = acq;
    b.acquire_value = acq_value;
    b.acquire_equal = equal;
    b.release_lock = rel;
    b.release_value = rel_value;
    return b;
}

// locks: 0 prod, 1 cons, 2 out (eq-acquired by a BD), 3 barrier.
// channels: 0 = (0,2) S2MM 0 (two BDs: acquire 0, release 1), 1 = (0,2) MM2S 0 (acquire 2 ==, release 3).
// core "w": ring acquires 1, releases 0 (repeat 2); barrier on lock 3. Runtime sets lock 3.
// flows: shim (0,0) MM2S 0 -> (0,2) S2MM 0; (0,2) MM2S 0 -> (0,0) S2MM 0 and (0,3) S2MM 1 (no program).
Netlist sample() {
    Netlist n;
    n.device = &device_by_name("npu1_1col");
    for (int i = 0; i < 4; ++i) n.locks.push_back({"l" + std::to_string(i), {0, 2}, i, 0, {}});
    DmaChannelProgram in;
    in.tile = {0, 2};
    in.dir = Direction::S2MM;
    in.bds = {bd(0, 1, false, 1, 1), bd(0, 1, false, 1, 1)};
    n.channels.push_back(in);
    DmaChannelProgram out;
    out.tile = {0, 2};
    out.dir = Direction::MM2S;
    out.bds = {bd(2, 3, true, 3, 2)};
    n.channels.push_back(out);
    CoreProgram c;
    c.worker = "w";
    c.tile = {0, 2};
    CoreRing r;
    r.acquire_lock = 1;
    r.release_lock = 0;
    r.repeat = 2;
    c.rings.push_back(r);
    c.locks.push_back({7, 3});
    n.cores.push_back(c);
    RuntimeOp set;
    set.kind = RuntimeOp::Kind::SetLock;
    set.lock = 3;
    set.value = 5;
    n.sequence.push_back({RuntimeOp::Kind::StartTask, 0});
    n.sequence.push_back(set);
    Flow f1;
    f1.source = {{0, 0}, Direction::MM2S, 0};
    f1.dests = {{{0, 2}, Direction::S2MM, 0}};
    n.flows.push_back(f1);
    Flow f2;
    f2.source = {{0, 2}, Direction::MM2S, 0};
    f2.dests = {{{0, 0}, Direction::S2MM, 0}, {{0, 3}, Direction::S2MM, 1}};
    n.flows.push_back(f2);
    ShimTask t;
    t.tile = {0, 0};
    t.dir = Direction::S2MM;
    t.channel = 1;
    n.tasks.push_back(t);
    return n;
}

} // namespace

TEST_CASE("lock_actors: BDs, core rings, barriers and runtime sets, with amounts", "[model][relations]") {
    const auto n = sample();
    const auto a = lock_actors(n);
    REQUIRE(a.size() == 4);
    const Actor bd0{Actor::Kind::DmaBd, 0, 0}, bd1{Actor::Kind::DmaBd, 0, 1}, out0{Actor::Kind::DmaBd, 1, 0};
    const Actor core{Actor::Kind::Core, 0, -1}, runtime{Actor::Kind::Runtime, 1, -1};
    CHECK(a[0].acquirers == std::vector<LockAction>{{bd0, 1, false}, {bd1, 1, false}});
    CHECK(a[0].releasers == std::vector<LockAction>{{core, 2, false}});
    CHECK(a[1].acquirers == std::vector<LockAction>{{core, 2, false}});
    CHECK(a[1].releasers == std::vector<LockAction>{{bd0, 1, false}, {bd1, 1, false}});
    CHECK(a[2].acquirers == std::vector<LockAction>{{out0, 3, true}});
    CHECK(a[2].releasers.empty());
    CHECK(a[3].acquirers == std::vector<LockAction>{{core, -1, true}});
    CHECK(a[3].releasers == std::vector<LockAction>{{out0, 2, false}, {core, -1, false}});
    CHECK(a[3].setters == std::vector<LockAction>{{runtime, 5, false}});
    CHECK(a[0].setters.empty());
}

TEST_CASE("one_acquirer_one_releaser: a ring lock between two processes and nothing else", "[model][relations]") {
    const auto a = lock_actors(sample());
    CHECK(one_acquirer_one_releaser(a[0])); // two BDs of one channel acquire, one core releases
    CHECK(one_acquirer_one_releaser(a[1])); // and the other way round
    CHECK_FALSE(one_acquirer_one_releaser(a[2])); // nobody releases it
    CHECK_FALSE(one_acquirer_one_releaser(a[3])); // two releasers (a BD and a core), and a runtime set
    LockActors two;
    const Actor core0{Actor::Kind::Core, 0, -1}, core1{Actor::Kind::Core, 1, -1}, ch{Actor::Kind::DmaBd, 2, 0};
    two.acquirers = {{core0, 1, false}, {core1, 1, false}}; // two workers share a lock
    two.releasers = {{ch, 1, false}};
    CHECK_FALSE(one_acquirer_one_releaser(two));
    two.acquirers = {{core0, 1, false}, {core0, 1, false}}; // one worker, two rings on the lock
    CHECK(one_acquirer_one_releaser(two));
    two.releasers.push_back({{Actor::Kind::DmaBd, 3, 0}, 1, false}); // a second channel releases it
    CHECK_FALSE(one_acquirer_one_releaser(two));
    two.releasers.pop_back();
    two.setters = {{{Actor::Kind::Runtime, 0, -1}, 1, false}}; // the runtime sequence sets it
    CHECK_FALSE(one_acquirer_one_releaser(two));
}

TEST_CASE("link_ends: producer and consumer channels of each flow", "[model][relations]") {
    const auto n = sample();
    const auto e = link_ends(n);
    REQUIRE(e.size() == 2);
    CHECK(e[0].producer == StreamEndpoint{{0, 0}, Direction::MM2S, 0});
    CHECK(e[0].producer_channel == -1); // shim
    CHECK(e[0].consumers == std::vector<StreamEndpoint>{{{0, 2}, Direction::S2MM, 0}});
    CHECK(e[0].consumer_channels == std::vector<int>{0});
    CHECK(e[1].producer_channel == 1);
    CHECK(e[1].consumers.size() == 2);
    CHECK(e[1].consumer_channels == std::vector<int>{-1, -1}); // a shim, and a tile with no program
}

TEST_CASE("task_completer: the shim channel a task is queued on", "[model][relations]") {
    const auto n = sample();
    CHECK(task_completer(n.tasks[0]) == StreamEndpoint{{0, 0}, Direction::S2MM, 1});
    CHECK(task_completers(n) == std::vector<StreamEndpoint>{{{0, 0}, Direction::S2MM, 1}});
    const NetlistRelations rel(n);
    CHECK(rel.tasks == task_completers(n));
    CHECK(rel.locks.size() == 4);
    CHECK(rel.links.size() == 2);
}

TEST_CASE("actor and channel names as reports print them", "[model][relations]") {
    const auto n = sample();
    CHECK(worker_label("w") == "worker 'w'");
    CHECK(tile_dma_name({{0, 2}, Direction::S2MM, 1}) == "DMA (0,2) S2MM 1");
    CHECK(shim_dma_name({{0, 0}, Direction::MM2S, 0}) == "shim DMA (0,0) MM2S 0");
    CHECK(actor_name(n, {Actor::Kind::Core, 0, -1}) == "worker 'w'");
    CHECK(actor_name(n, {Actor::Kind::DmaBd, 1, 0}) == "DMA (0,2) MM2S 0");
    CHECK(actor_name(n, {Actor::Kind::Runtime, 1, -1}) == "runtime sequence");
}
