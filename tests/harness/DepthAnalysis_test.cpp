// DepthAnalysis and ResolveOptions::depth_overrides: an override is used verbatim and shows in the
// netlist; overrides naming what does not exist, or an end without buffers of its own, are
// DesignErrors; the analysis finds the smallest depth of a sliding-window consumer; forked worker
// processes give the serial run's results; the cache answers repeated configurations; a worker
// process that crashes or hangs is a reported outcome.
#include "npusim/harness/DepthAnalysis.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/iron.hpp"
#include "npusim/model/Error.hpp"
#include "support/Passthrough.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <thread>

using namespace npusim;
using namespace npusim::harness;
using namespace npusim::iron;

namespace {

constexpr std::int64_t kTile = 16; // i32 elements per object

// depth_test_window: a worker reads `objects` objects of `in` through a window of two (acquire(2),
// release(1)) and writes in[t] + in[t+1] for each neighbouring pair to `out`. The depth rule gives
// its end of `in` 3 buffers (largest acquire + 1); 2 are enough, 1 cannot hold the window.
// `misbehave` 1: its kernel aborts the process; 2: its kernel sleeps for a minute (only when
// simulated: resolve traces bodies without running kernels).
DesignSpec window_spec() {
    DesignSpec s;
    s.name = "depth_test_window";
    s.description = "test: sliding window of two objects over the input";
    s.params = {{"objects", 6, "objects through the window"}, {"misbehave", 0, "1: abort, 2: hang"}};
    s.devices = every_device();
    s.kernels_note = "test design";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions& o) {
        const std::int64_t n = p.at("objects");
        const auto mode = p.at("misbehave");
        const auto obj = tensor<std::int32_t>({kTile});
        const auto in_ty = tensor<std::int32_t>({n * kTile}), out_ty = tensor<std::int32_t>({(n - 1) * kTile});
        Kernel misbehave(
            "misbehave",
            [mode](std::span<const KernelArg>) {
                if (mode == 1) std::abort();
                if (mode == 2) std::this_thread::sleep_for(std::chrono::seconds(60));
            },
            {}, cost::fixed(10));
        auto program = npusim::test::passthrough({.type = obj,
                                                  .body =
                                                      [n, misbehave](ObjectFifoHandle in, ObjectFifoHandle out) {
                                                          for (std::int64_t t = 0; t + 1 < n; ++t) {
                                                              auto win = in.acquire(2);
                                                              auto dst = out.acquire(1);
                                                              const auto a = win[0].as<std::int32_t>(),
                                                                         b = win[1].as<std::int32_t>();
                                                              auto y = dst.as<std::int32_t>();
                                                              for (std::size_t j = 0; j < y.size(); ++j)
                                                                  y[j] = a[j] + b[j];
                                                              add_cycles(400);
                                                              misbehave();
                                                              in.release(1);
                                                              out.release(1);
                                                          }
                                                          in.release(1);
                                                      },
                                                  .host_elements = in_ty.elements(),
                                                  .out_host_elements = out_ty.elements(),
                                                  .spec = &dev,
                                                  .program = "depth_test_window",
                                                  .worker = {.name = "window"}});
        std::vector<std::int32_t> a(static_cast<std::size_t>(n * kTile));
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>((i * 7919 + o.seed) % 1000);
        auto reference = [n, shape = out_ty.shape](const Tensors& in) {
            const auto x = get(in, "a").values<std::int32_t>();
            std::vector<std::int32_t> c(static_cast<std::size_t>((n - 1) * kTile));
            for (std::size_t i = 0; i < c.size(); ++i) c[i] = x[i] + x[i + kTile];
            return Tensors{{"c", Tensor::from(shape, c)}};
        };
        return DesignInstance(std::move(program), {ArgSpec::input("a", in_ty), ArgSpec::output("c", out_ty)},
                              {{"a", Tensor::from(in_ty.shape, a)}}, reference, "depth_test_window");
    };
    return s;
}

// Not registered: the registry's own test lists every registered design.
const DesignSpec& window() {
    static const DesignSpec spec = window_spec();
    return spec;
}

model::Netlist resolve_with(const DesignSpec& spec, const std::string& device, std::vector<DepthOverride> overrides,
                            const Params& params = {}) {
    const auto& dev = model::device_by_name(device);
    auto inst = spec.build(dev, spec.resolve_params(params), BuildOptions(1));
    RunOptions ro;
    ro.depth_overrides = std::move(overrides);
    return inst.program.resolve(resolve_options(spec, ro));
}

const model::FifoEndpointInfo& end_of(const model::Netlist& net, const std::string& fifo, int consumer) {
    for (const auto& e : net.fifo_ends)
        if (e.fifo == fifo && e.consumer == consumer) return e;
    FAIL("no endpoint " << fifo << " " << consumer);
    throw std::logic_error("unreachable");
}

std::size_t buffers_named(const model::Netlist& net, const std::string& prefix) {
    return static_cast<std::size_t>(std::count_if(net.buffers.begin(), net.buffers.end(),
                                                  [&](const auto& b) { return b.name.rfind(prefix, 0) == 0; }));
}

std::string design_error(const DesignSpec& spec, const std::string& device, std::vector<DepthOverride> o) {
    try {
        resolve_with(spec, device, std::move(o));
    } catch (const DesignError& e) {
        return e.what();
    }
    return "(no error)";
}

DepthOptions quick(unsigned jobs, bool fork) {
    DepthOptions o;
    o.jobs = jobs;
    o.fork_workers = fork;
    o.max_depth = 4;
    return o;
}

const EndpointDepths& analysed(const DepthReport& rep, const std::string& fifo, int consumer) {
    for (const auto& e : rep.endpoints)
        if (e.info.fifo == fifo && e.info.consumer == consumer) return e;
    FAIL("no endpoint " << fifo << " " << consumer);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("a depth override is the endpoint's number of buffers, verbatim, and shows in the netlist", "[depth]") {
    const auto& spec = window();
    const auto base = resolve_with(spec, "npu1_1col", {});
    const auto& in_cons = end_of(base, "in", 0);
    CHECK(in_cons.holding == model::FifoEndHolding::OwnCopy);
    CHECK(in_cons.declared == 2);
    CHECK(in_cons.depth == 3); // the compute-tile rule: largest acquire (2) + 1
    CHECK_FALSE(in_cons.overridden);
    CHECK(in_cons.object_bytes == kTile * 4);
    CHECK(buffers_named(base, "in_cons_buff_") == 3);
    CHECK(end_of(base, "in", -1).holding == model::FifoEndHolding::Runtime);
    CHECK_FALSE(end_of(base, "in", -1).owns_buffers());
    CHECK(end_of(base, "out", -1).depth == 2);

    for (int d : {2, 5}) {
        const auto net = resolve_with(spec, "npu1_1col", {{"in", 0, d}});
        CHECK(end_of(net, "in", 0).depth == d);
        CHECK(end_of(net, "in", 0).overridden);
        CHECK(buffers_named(net, "in_cons_buff_") == static_cast<std::size_t>(d));
        CHECK_THAT(net.dump(), Catch::Contains(fmt::format("depth {} x 64 B (declared 2, override)", d)));
    }
    // The producer end of `out` (acquires 1): one buffer, below the rule's 2.
    const auto one = resolve_with(spec, "npu1_1col", {{"out", -1, 1}});
    CHECK(end_of(one, "out", -1).depth == 1);
    CHECK(buffers_named(one, "out_buff_") == 1);
    CHECK(end_of(one, "in", 0).depth == 3); // the others keep their resolved depth
}

TEST_CASE("depth overrides that cannot apply are design errors naming the endpoint", "[depth]") {
    const auto& spec = window();
    CHECK_THAT(design_error(spec, "npu1_1col", {{"nope", 0, 2}}),
               Catch::Contains("no fifo 'nope'") && Catch::Contains("fifos: in, out"));
    CHECK_THAT(design_error(spec, "npu1_1col", {{"in", 3, 2}}),
               Catch::Contains("fifo 'in' has no consumer 3") && Catch::Contains("its consumers: 0"));
    CHECK_THAT(design_error(spec, "npu1_1col", {{"in", 0, 0}}), Catch::Contains("depth 0 must be at least 1"));
    // An acquire larger than the depth is still refused.
    CHECK_THAT(design_error(spec, "npu1_1col", {{"in", 0, 1}}),
               Catch::Contains("fifo 'in' consumer 0") &&
                   Catch::Contains("acquires 2 elements, more than the depth 1"));
    // A runtime end has no buffers on the array.
    CHECK_THAT(design_error(spec, "npu1_1col", {{"in", -1, 4}}),
               Catch::Contains("fifo 'in' producer") && Catch::Contains("host memory"));
    CHECK_THAT(design_error(spec, "npu1_1col", {{"in", 0, 2}, {"in", 0, 3}}), Catch::Contains("given twice"));

    // A shared pool's consumer uses the producer's buffers.
    const auto& pool = design_by_name("deadlock_shared_pool_overacquire");
    const auto net = resolve_with(pool, "npu1_1col", {});
    CHECK(end_of(net, "mid", -1).holding == model::FifoEndHolding::SharedPool);
    CHECK(end_of(net, "mid", 0).holding == model::FifoEndHolding::SharesProducerPool);
    CHECK_THAT(design_error(pool, "npu1_1col", {{"mid", 0, 2}}), Catch::Contains("fifo 'mid' consumer 0") &&
                                                                     Catch::Contains("shares the producer's pool") &&
                                                                     Catch::Contains("fifo 'mid' producer"));
    CHECK(end_of(resolve_with(pool, "npu1_1col", {{"mid", -1, 2}}), "mid", -1).depth == 2);

    // A link's sub-fifo side in the mem tile uses the link's pool.
    const auto& mt = design_by_name("vector_reduce_max_memtile");
    const auto mnet = resolve_with(mt, "npu1", {});
    const auto sub = std::find_if(mnet.fifo_ends.begin(), mnet.fifo_ends.end(),
                                  [](const auto& e) { return e.holding == model::FifoEndHolding::SharesLinkPool; });
    REQUIRE(sub != mnet.fifo_ends.end());
    CHECK(mnet.device->kind_at(sub->tile) == model::TileKind::Mem);
    CHECK_THAT(design_error(mt, "npu1", {{sub->fifo, sub->consumer, 3}}), Catch::Contains(sub->describe()) &&
                                                                              Catch::Contains("shares the link pool") &&
                                                                              Catch::Contains(sub->pool_owner));
}

TEST_CASE("depth analysis finds the smallest depth of a window consumer and the refused depth", "[depth]") {
    const auto& spec = window();
    std::vector<DepthProgress> progress;
    auto opts = quick(1, false);
    opts.progress = [&](const DepthProgress& p) { progress.push_back(p); };
    DepthAnalysis a(spec, "npu1_1col", opts);
    const auto rep = a.run();
    REQUIRE(rep.baseline.ok());
    REQUIRE(rep.endpoints.size() == 4); // in producer (runtime), in consumer 0, out producer, out consumer 0 (runtime)

    const auto& in = analysed(rep, "in", 0);
    CHECK(in.info.depth == 3);
    CHECK(in.table_depth == 4);
    REQUIRE(in.min_depth == 2);
    CHECK(in.search_min == 2);
    CHECK(in.by_depth.at(1).status == DepthOutcome::Status::Refused);
    CHECK_THAT(in.by_depth.at(1).message, Catch::Contains("acquires 2 elements"));
    CHECK(in.by_depth.at(1).describe().rfind("refused: ", 0) == 0);
    CHECK(in.by_depth.at(3) == rep.baseline); // the resolved depth is the baseline configuration
    for (int d = 2; d <= 4; ++d) CHECK(in.by_depth.at(d).ok());
    // With 2 buffers the DMA cannot bring the next object while the core holds its window.
    CHECK(in.by_depth.at(2).cycles > in.by_depth.at(3).cycles);
    // ... but only by a few cycles per object (a 64 B object arrives in 16 cycles, the body takes 400):
    // under 2% of the run. The run is short (its fill and drain channels warm up in parallel, about
    // 5,500 cycles), so that is more than the 1% within which a depth counts as saturated: depth 3 is
    // the saturation depth. (With the two cold starts serialised, as before, the run was 2,530 cycles
    // longer and depth 2 came within 1%.)
    CHECK(in.by_depth.at(2).cycles < in.by_depth.at(3).cycles * 102 / 100);
    CHECK(in.by_depth.at(2).cycles > in.by_depth.at(3).cycles * 101 / 100);
    CHECK(in.saturation_depth == 3);
    CHECK(in.tile_capacity == model::device_by_name("npu1_1col").compute.memory_bytes);
    CHECK(in.tile_bytes_used >= 3 * 64 + 2 * 64);
    CHECK(in.bytes_at(*in.min_depth) == 128);

    const auto& out = analysed(rep, "out", -1);
    CHECK(out.min_depth == 1);
    CHECK(out.by_depth.size() == 4);
    CHECK(analysed(rep, "in", -1).by_depth.empty());
    CHECK_FALSE(analysed(rep, "in", -1).min_depth);

    // Every configuration once: the baseline, 3 others for `in`, 3 for `out` (depth 2 is its baseline).
    CHECK(rep.configurations == 7);
    CHECK(rep.simulations == 6); // depth 1 of `in` is refused before simulating
    REQUIRE(progress.size() == rep.configurations);
    for (std::size_t i = 0; i < progress.size(); ++i) {
        CHECK(progress[i].done == i + 1);
        CHECK(progress[i].total >= progress[i].done);
    }
    CHECK(progress.back().total == rep.configurations);
}

TEST_CASE("depth analysis in worker processes gives the serial results", "[depth]") {
    const auto& spec = window();
    const auto serial = DepthAnalysis(spec, "npu2_1col", quick(1, false)).run();
    const auto parallel = DepthAnalysis(spec, "npu2_1col", quick(2, true)).run();
    CHECK(parallel.jobs == 2);
    CHECK(parallel.baseline == serial.baseline);
    CHECK(parallel.configurations == serial.configurations);
    CHECK(parallel.simulations == serial.simulations);
    REQUIRE(parallel.endpoints.size() == serial.endpoints.size());
    for (std::size_t i = 0; i < serial.endpoints.size(); ++i) {
        const auto& s = serial.endpoints[i];
        const auto& p = parallel.endpoints[i];
        INFO(s.info.describe());
        CHECK(p.info.describe() == s.info.describe());
        CHECK(p.by_depth == s.by_depth);
        CHECK(p.min_depth == s.min_depth);
        CHECK(p.saturation_depth == s.saturation_depth);
    }
}

TEST_CASE("depth analysis answers a configuration it has seen from its cache", "[depth]") {
    const auto& spec = window();
    DepthAnalysis a(spec, "npu1_1col", quick(1, false));
    const auto two = a.evaluate({{"in", 0, 2}});
    CHECK(two.ok());
    CHECK(a.simulations() == 1);
    CHECK(a.reused() == 0);
    CHECK(a.evaluate({{"in", 0, 2}}) == two);
    CHECK(a.simulations() == 1);
    CHECK(a.reused() == 1);
    // The resolved depth named explicitly is the configuration without overrides.
    const auto base = a.evaluate({});
    CHECK(a.evaluate({{"in", 0, 3}}) == base);
    CHECK(a.evaluate({{"out", -1, 1}, {"in", 0, 2}}) == a.evaluate({{"in", 0, 2}, {"out", -1, 1}}));
    CHECK(a.simulations() == 3);
    CHECK(a.reused() == 3);
    // run() reuses what evaluate() found, and its own search results in the table.
    const auto rep = a.run();
    CHECK(rep.configurations == 8); // the 7 of the analysis and the pair above
    CHECK(rep.reused >= 3);
}

TEST_CASE("a worker process that crashes or hangs is a reported outcome", "[depth]") {
    const auto& spec = window();
    auto opts = quick(2, true);
    opts.max_depth = 2;
    opts.search_limit = 4;
    opts.params = {{"misbehave", 1}};
    const auto crashed = DepthAnalysis(spec, "npu1_1col", opts).run();
    CHECK(crashed.baseline.status == DepthOutcome::Status::Crashed);
    CHECK_THAT(crashed.baseline.message, Catch::Contains("signal " + std::to_string(SIGABRT)));
    CHECK_FALSE(analysed(crashed, "in", 0).min_depth);
    CHECK(analysed(crashed, "in", 0).by_depth.at(1).status == DepthOutcome::Status::Refused);
    CHECK(analysed(crashed, "in", 0).by_depth.at(2).status == DepthOutcome::Status::Crashed);

    opts.params = {{"misbehave", 2}};
    opts.timeout_seconds = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    const auto hung = DepthAnalysis(spec, "npu1_1col", opts).run();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
    CHECK(hung.baseline.status == DepthOutcome::Status::Timeout);
    CHECK(analysed(hung, "out", -1).by_depth.at(1).status == DepthOutcome::Status::Timeout);
}
