// DepthRule (frontend/src/resolve/DepthRule.cpp): the depth of each fifo endpoint, the
// "acquire <= depth" rule and the repeat_count factor on lock values. The formula is IRON's
// ObjectFifo._get_depths (python/iron/dataflow/objectfifo.py) feeding mlir-aie's
// findObjectFifoSize (lib/Dialect/AIE/Transforms/AIEObjectFifoStatefulTransform.cpp):
// equal depths let a compute-tile side whose core acquires take max_acquire + 1; a depth list is
// used verbatim.
#include "resolve/DepthRule.hpp"

#include "npusim/iron.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using namespace npusim::iron::detail;

namespace {

// A fifo 'in' of declared depth `depth`, produced by worker 'p', consumed by worker 'c'.
struct TwoWorkerFifo {
    WorkerState p, c;
    FifoState f;
    explicit TwoWorkerFifo(int depth) {
        p.name = "p";
        c.name = "c";
        f.name = "in";
        f.depth = depth;
        f.prod = std::make_unique<EndpointState>();
        f.prod->fifo = &f;
        f.prod->role = Role::Producer;
        f.prod->uid = 1;
        f.prod->owner = OwnerKind::Worker;
        f.prod->worker = &p;
        f.cons.push_back(std::make_unique<EndpointState>());
        auto& ce = *f.cons.back();
        ce.fifo = &f;
        ce.role = Role::Consumer;
        ce.uid = 2;
        ce.owner = OwnerKind::Worker;
        ce.worker = &c;
    }
    EndpointState& prod() { return *f.prod; }
    EndpointState& cons() { return *f.cons[0]; }
};

constexpr auto ComputeKind = model::TileKind::Compute;
constexpr auto Mem = model::TileKind::Mem;

} // namespace

TEST_CASE("declared_depth: the endpoint's own depth, else the fifo's", "[resolve][depth]") {
    TwoWorkerFifo t(2);
    CHECK(declared_depth(t.cons()) == 2);
    t.cons().depth = 5;
    CHECK(declared_depth(t.cons()) == 5);
    CHECK(declared_depths(t.f) == std::vector<int>{2, 5});
    t.f.cons.push_back(std::make_unique<EndpointState>()); // an unused consumer handle
    t.f.cons.back()->fifo = &t.f;
    CHECK(declared_depths(t.f) == std::vector<int>{2, 5});
}

TEST_CASE("acquire_fits: an acquire of exactly the depth fits, one more does not", "[resolve][depth]") {
    CHECK(acquire_fits(2, 2));
    CHECK_FALSE(acquire_fits(3, 2));
    TwoWorkerFifo t(2);
    CHECK_NOTHROW(check_acquire_fits(t.cons(), 2, 2));
    CHECK_THROWS_WITH(check_acquire_fits(t.cons(), 3, 2),
                      "worker 'c' acquires 3 elements of fifo 'in' consumer 0 whose depth is 2");
    t.cons().owner = OwnerKind::Link; // only a worker's acquires are checked here
    CHECK_NOTHROW(check_acquire_fits(t.cons(), 3, 2));
}

TEST_CASE("resolved_depth on a compute tile: largest acquire + 1 when all depths are equal", "[resolve][depth]") {
    TwoWorkerFifo t(2);
    AcquireTable acq{{1, 1}, {2, 2}};
    CHECK(resolved_depth(t.prod(), ComputeKind, BufferHolding::OwnCopy, acq) == 2); // acquires 1 -> 1 + 1
    CHECK(resolved_depth(t.cons(), ComputeKind, BufferHolding::OwnCopy, acq) == 3); // acquires 2 -> 2 + 1
    SECTION("a body that never acquires keeps the declared depth") {
        CHECK(resolved_depth(t.cons(), ComputeKind, BufferHolding::OwnCopy, {}) == 2);
    }
    SECTION("depth 1 with single acquires stays 1") {
        TwoWorkerFifo one(1);
        CHECK(resolved_depth(one.cons(), ComputeKind, BufferHolding::OwnCopy, {{2, 1}}) == 1);
    }
    SECTION("not on a compute tile: the declared depth") {
        CHECK(resolved_depth(t.cons(), Mem, BufferHolding::OwnCopy, acq) == 2);
    }
    SECTION("a link endpoint: the declared depth") {
        t.cons().owner = OwnerKind::Link;
        CHECK(resolved_depth(t.cons(), ComputeKind, BufferHolding::OwnCopy, acq) == 2);
    }
}

TEST_CASE("resolved_depth with a per-endpoint depth list: verbatim, acquires checked", "[resolve][depth]") {
    TwoWorkerFifo t(2);
    t.cons().depth = 3; // depths {2, 3}: not uniform
    CHECK(resolved_depth(t.cons(), ComputeKind, BufferHolding::OwnCopy, {{2, 3}}) == 3);
    CHECK(resolved_depth(t.prod(), ComputeKind, BufferHolding::OwnCopy, {{1, 1}}) == 2);
    CHECK_THROWS_WITH(resolved_depth(t.prod(), ComputeKind, BufferHolding::OwnCopy, {{1, 3}}),
                      "worker 'p' acquires 3 elements of fifo 'in' producer whose depth is 2");
}

TEST_CASE("init_values fix the producer's depth: no findObjectFifoSize resize (AIEObjectFifoStatefulTransform "
          "runOnOperation)",
          "[resolve][depth]") {
    TwoWorkerFifo t(3);
    t.f.init_values = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    CHECK(resolved_depth(t.prod(), ComputeKind, BufferHolding::OwnCopy, {{1, 1}}) == 3); // declared, not 1 + 1
    CHECK(resolved_depth(t.prod(), ComputeKind, BufferHolding::OwnCopy, {{1, 3}}) == 3); // declared, not 3 + 1
    CHECK(resolved_depth(t.cons(), ComputeKind, BufferHolding::OwnCopy, {{2, 1}}) == 2); // consumers have no inits
}

TEST_CASE("resolved_depth of a shared pool: size(0), the producer's declared depth (createObjectFifoElements), each "
          "handle's acquire checked against its own depth (IRON ObjectFifoHandle.acquire)",
          "[resolve][depth]") {
    TwoWorkerFifo t(2);
    t.cons().depth = 3;
    // The consumer may acquire 3 (its handle's depth) although the pool holds 2: it accepts and
    // would wait forever, as on the NPU.
    CHECK(resolved_depth(t.prod(), ComputeKind, BufferHolding::SharedPool, {{1, 2}, {2, 3}}) == 2);
    CHECK_THROWS_WITH(resolved_depth(t.prod(), ComputeKind, BufferHolding::SharedPool, {{1, 1}, {2, 4}}),
                      "worker 'c' acquires 4 elements of fifo 'in' consumer 0 whose depth is 3");
    CHECK_THROWS_WITH(resolved_depth(t.prod(), ComputeKind, BufferHolding::SharedPool, {{1, 3}, {2, 1}}),
                      "worker 'p' acquires 3 elements of fifo 'in' producer whose depth is 2");
}

TEST_CASE("repeat_count scales lock values, a link repeats by its outputs' largest count", "[resolve][depth]") {
    CHECK(repeat_scaled(3, 1) == 3);
    CHECK(repeat_scaled(3, 4) == 12);
    const LockInits li = initial_lock_values(3, 1, 2); // 2 free slots, 1 full slot, each sent twice
    CHECK(li.free_slots == 4);
    CHECK(li.full_slots == 2);
    LinkState link;
    CHECK(link_repeat_count(link) == 1);
    link.outputs.push_back(std::make_shared<FifoState>());
    link.outputs.push_back(std::make_shared<FifoState>());
    link.outputs[0]->repeat_count = 3;
    link.outputs[1]->repeat_count = 2;
    CHECK(link_repeat_count(link) == 3);
}
