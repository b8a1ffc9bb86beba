// Simulator throughput on E1 (passthrough_kernel) with 4 KiB BDs: simulated cycles per wall
// second and BD transfers per wall second, for 1 MiB and 64 MiB tensors. Only sim::simulate is
// timed: design construction, resolve and input generation happen once, outside the loop. The
// second argument turns the memory check (SimOptions::check_memory) off (0) or on (1); the two rows
// of one size, run in the same process, give its cost.
#include "npusim/harness/DesignRunner.hpp"

#include <benchmark/benchmark.h>

using namespace npusim;

namespace {

void BM_PassthroughKernel(benchmark::State& state) {
    const std::int64_t bytes = state.range(0);
    const auto& spec = harness::design_by_name("passthrough_kernel");
    const auto& dev = model::device_by_name("npu1_1col");
    auto inst = spec.build(dev, spec.resolve_params({{"size", bytes}, {"tile", 4096}, {"bits", 8}}), 1);
    const auto net = inst.program.resolve();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    o.check_memory = state.range(1) != 0;
    double cycles = 0, bds = 0;
    std::vector<std::vector<std::uint8_t>> last;
    for (auto _ : state) {
        state.PauseTiming();
        auto host = inst.host(); // fresh inputs each run (not timed)
        state.ResumeTiming();
        auto r = sim::simulate(net, std::move(host), o);
        cycles += static_cast<double>(r.cycles);
        bds += static_cast<double>(r.bd_transfers);
        state.PauseTiming();
        last = std::move(r.host); // outputs are checked once, after the loop, and freed untimed
        state.ResumeTiming();
    }
    if (!inst.check(last)[0].match) state.SkipWithError("output mismatch");
    state.counters["sim_cycles_per_s"] = benchmark::Counter(cycles, benchmark::Counter::kIsRate);
    state.counters["bd_transfers_per_s"] = benchmark::Counter(bds, benchmark::Counter::kIsRate);
    state.counters["sim_cycles"] = benchmark::Counter(cycles, benchmark::Counter::kAvgIterations);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
}

} // namespace

BENCHMARK(BM_PassthroughKernel)
    ->Args({1 << 20, 1})
    ->Args({1 << 20, 0})
    ->Args({64 << 20, 1})
    ->Args({64 << 20, 0})
    ->ArgNames({"bytes", "check_memory"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
