// Simulator throughput on E1 (passthrough_kernel) with 4 KiB BDs: simulated cycles per wall
// second and BD transfers per wall second, for 1 MiB and 64 MiB tensors. Only sim::simulate is
// timed: design construction, resolve and input generation happen once, outside the loop. The
// second argument turns the memory check (SimOptions::check_memory) off (0) or on (1); the two rows
// of one size, run in the same process, give its cost. BM_PassthroughRuns4KiB: runs per second of E1
// at 4 KiB in one process. BM_PassthroughVsMemcpy: E1 at 64 MiB against a loop doing only its copies.
// BM_SystemCWaitVsMethod: SystemC's own cost of a thread's wait and of a method's activation.
#include "ProcessClock.hpp"   // the engine's private headers (npusim_sim_testing): the SystemC floor below
#include "ScContextGuard.hpp"
#include "npusim/harness/DesignRunner.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstring>

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

// Many runs in one process: E1 at 4 KiB (one 4 KiB object), simulate only, runs per wall second.
void BM_PassthroughRuns4KiB(benchmark::State& state) {
    const auto& spec = harness::design_by_name("passthrough_kernel");
    const auto& dev = model::device_by_name("npu1_1col");
    auto inst = spec.build(dev, spec.resolve_params({{"size", 4096}, {"tile", 4096}, {"bits", 8}}), 1);
    const auto net = inst.program.resolve();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    o.check_memory = state.range(0) != 0;
    const auto host = inst.host();
    std::vector<std::vector<std::uint8_t>> last;
    for (auto _ : state) {
        auto r = sim::simulate(net, host, o);
        benchmark::DoNotOptimize(r.cycles);
        last = std::move(r.host);
    }
    if (!inst.check(last)[0].match) state.SkipWithError("output mismatch");
    state.counters["runs_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// SystemC's own cost for `waits` waits: two threads hand a timed event to each other (one cycle
// later each time, as a DMA channel's chunk or a lock release is), in a fresh context as a run has.
// Nothing else runs, so this is what the waits of a run cost at the least.
double systemc_waits_seconds(std::uint64_t waits) {
    sim::ScContextGuard ctx;
    sc_core::sc_event ping, pong;
    const std::uint64_t rounds = waits / 2;
    sc_core::sc_spawn_options o;
    o.set_stack_size(64 << 10);
    sc_core::sc_spawn(
        [&] {
            for (std::uint64_t i = 0; i < rounds; ++i) {
                ping.notify(sim::cycles_to_time(1));
                sc_core::wait(pong);
            }
        },
        "a", &o);
    sc_core::sc_spawn(
        [&] {
            for (std::uint64_t i = 0; i < rounds; ++i) {
                sc_core::wait(ping);
                pong.notify(sim::cycles_to_time(1));
            }
        },
        "b", &o);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const auto t1 = std::chrono::steady_clock::now();
    if (sim::now_cycles() != 2 * rounds) throw std::logic_error("systemc_waits_seconds: the threads did not alternate");
    return std::chrono::duration<double>(t1 - t0).count();
}

// The same hand-over between two SC_METHOD processes (spawn_method, next_trigger): no coroutine
// and no stack switch, only the scheduler and the timed event. What one activation would cost if
// a DMA channel were a state machine driven by its events instead of a thread that waits.
double systemc_method_activations_seconds(std::uint64_t activations) {
    sim::ScContextGuard ctx;
    sc_core::sc_event ping, pong;
    const std::uint64_t rounds = activations / 2;
    std::uint64_t a = 0, b = 0;
    sc_core::sc_spawn_options oa;
    oa.spawn_method();
    sc_core::sc_spawn(
        [&] {
            if (a++ < rounds) ping.notify(sim::cycles_to_time(1));
            sc_core::next_trigger(pong);
        },
        "a", &oa);
    sc_core::sc_spawn_options ob;
    ob.spawn_method();
    ob.dont_initialize();
    ob.set_sensitivity(&ping);
    sc_core::sc_spawn(
        [&] {
            if (b++ < rounds) pong.notify(sim::cycles_to_time(1));
        },
        "b", &ob);
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const auto t1 = std::chrono::steady_clock::now();
    if (sim::now_cycles() != 2 * rounds)
        throw std::logic_error("systemc_method_activations_seconds: the methods did not alternate");
    return std::chrono::duration<double>(t1 - t0).count();
}

// What a process activation costs SystemC by itself: a thread's wait against a method's
// activation, 10^6 hand-overs each (docs/performance.md, the BM_SystemCWaitVsMethod table).
void BM_SystemCWaitVsMethod(benchmark::State& state) {
    constexpr std::uint64_t n = 1000000;
    double thread_s = 0, method_s = 0;
    for (auto _ : state) {
        thread_s += systemc_waits_seconds(n);
        method_s += systemc_method_activations_seconds(n);
    }
    const double it = static_cast<double>(state.iterations());
    state.counters["thread_wait_ns"] = thread_s / it / n * 1e9;
    state.counters["method_activation_ns"] = method_s / it / n * 1e9;
    state.counters["method_over_thread"] = method_s / thread_s;
}

// E1's copies per object, as BM_PassthroughVsMemcpy's floor: host -> the core's input buffer, the
// kernel's copy into its output buffer, output buffer -> host, over ping-pong buffers as in the
// tile. `prefetch`: ask for the next object's host source and destination first.
void copy_objects(const std::vector<std::uint8_t>& src, std::vector<std::uint8_t>& dst,
                  std::vector<std::uint8_t> (&tile_in)[2], std::vector<std::uint8_t> (&tile_out)[2], std::size_t n,
                  std::size_t object, bool prefetch) {
    for (std::size_t i = 0; i < n; ++i) {
        auto& in = tile_in[i % 2];
        auto& out = tile_out[i % 2];
        if (prefetch && i + 1 < n) {
            for (std::size_t b = 0; b < object; b += 64) {
                __builtin_prefetch(src.data() + (i + 1) * object + b, 0, 3);
                __builtin_prefetch(dst.data() + (i + 1) * object + b, 1, 3);
            }
        }
        std::memcpy(in.data(), src.data() + i * object, object);
        std::memcpy(out.data(), in.data(), object);
        std::memcpy(dst.data() + i * object, out.data(), object);
        benchmark::ClobberMemory();
    }
}

// Data movement against its floor: simulate E1 at 64 MiB with 4 KiB BDs, and in the same iteration a
// loop doing only the copies the run makes per 4 KiB object (host -> core's input buffer, the
// kernel's copy into its output buffer, output buffer -> host; ping-pong buffers as in the tile),
// plain (memcpy_*, the floor the 1.6x target is measured against) and with the host memory asked for one object
// ahead (prefetched_memcpy_*, the floor for copies that hide host memory's latency).
// Also in the same iteration: as many bare SystemC waits as the run's threads made
// (systemc_waits_seconds) and as many bare activations as its methods had
// (systemc_method_activations_seconds), so copies + waits is the floor for the engine's process
// structure (a SystemC thread per core and tile DMA channel, a method per shim DMA channel) at its
// current waits per object.
void BM_PassthroughVsMemcpy(benchmark::State& state) {
    const std::int64_t bytes = 64 << 20;
    constexpr std::size_t object = 4096;
    const auto& spec = harness::design_by_name("passthrough_kernel");
    const auto& dev = model::device_by_name("npu1_1col");
    auto inst = spec.build(dev, spec.resolve_params({{"size", bytes}, {"tile", 4096}, {"bits", 8}}), 1);
    const auto net = inst.program.resolve();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    o.check_memory = state.range(0) != 0;
    std::vector<std::uint8_t> src(static_cast<std::size_t>(bytes), 1), dst(static_cast<std::size_t>(bytes));
    std::vector<std::uint8_t> tile_in[2] = {std::vector<std::uint8_t>(object), std::vector<std::uint8_t>(object)};
    std::vector<std::uint8_t> tile_out[2] = {std::vector<std::uint8_t>(object), std::vector<std::uint8_t>(object)};
    int turn = 0;
    double sim_s = 0, copy_s = 0, prefetched_s = 0, objects = 0, waits = 0, activations = 0, waits_s = 0;
    std::vector<std::vector<std::uint8_t>> last;
    for (auto _ : state) {
        state.PauseTiming();
        auto host = inst.host();
        state.ResumeTiming();
        const auto t0 = std::chrono::steady_clock::now();
        auto r = sim::simulate(net, std::move(host), o);
        const auto t1 = std::chrono::steady_clock::now();
        const std::size_t n = static_cast<std::size_t>(bytes) / object;
        // The copies twice: plain (memcpy_*, the floor the 1.6x target is measured against), and with each
        // object's host source and destination asked for one object ahead, as the simulator's shim
        // channels do (HostPrefetch; prefetched_memcpy_*, the floor for copies that hide host
        // memory's latency). Whichever runs first right after simulate() is measurably slower on
        // this host, so the two take turns at going first.
        double loop_s[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            const bool prefetch = (k == 0) == (turn % 2 == 0);
            const auto a = std::chrono::steady_clock::now();
            copy_objects(src, dst, tile_in, tile_out, n, object, prefetch);
            loop_s[prefetch ? 1 : 0] += std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
        }
        ++turn;
        waits_s +=
            systemc_waits_seconds(r.scheduler_waits) + systemc_method_activations_seconds(r.scheduler_activations);
        waits += static_cast<double>(r.scheduler_waits);
        activations += static_cast<double>(r.scheduler_activations);
        sim_s += std::chrono::duration<double>(t1 - t0).count();
        copy_s += loop_s[0];
        prefetched_s += loop_s[1];
        objects += static_cast<double>(n);
        state.PauseTiming();
        last = std::move(r.host);
        state.ResumeTiming();
    }
    if (!inst.check(last)[0].match) state.SkipWithError("output mismatch");
    const double it = static_cast<double>(state.iterations());
    state.counters["sim_ms"] = sim_s / it * 1e3;
    state.counters["memcpy_ms"] = copy_s / it * 1e3;
    state.counters["sim_over_memcpy"] = sim_s / copy_s;
    state.counters["sim_ns_per_object"] = sim_s / objects * 1e9;
    state.counters["memcpy_ns_per_object"] = copy_s / objects * 1e9;
    state.counters["prefetched_memcpy_ns_per_object"] = prefetched_s / objects * 1e9;
    state.counters["sim_over_prefetched_memcpy"] = sim_s / prefetched_s;
    state.counters["sim_ns_per_byte"] = sim_s / (objects * object) * 1e9;
    state.counters["waits_per_object"] = waits / objects; // threads'
    state.counters["activations_per_object"] = activations / objects; // methods'
    state.counters["ns_per_wait"] = waits_s / (waits + activations) * 1e9; // both kinds, on average
    state.counters["waits_ms"] = waits_s / it * 1e3;
    state.counters["floor_over_memcpy"] = (copy_s + waits_s) / copy_s; // copies + bare waits and activations
    // What is left: the engine's own work per object (locks, streams, DMA and core bookkeeping, the
    // kernel call) and SystemC's cost beyond the bare waits (event notifications).
    state.counters["rest_ns_per_object"] = (sim_s - copy_s - waits_s) / objects * 1e9;
}

} // namespace

BENCHMARK(BM_SystemCWaitVsMethod)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PassthroughRuns4KiB)->Arg(1)->Arg(0)->ArgName("check_memory")->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_PassthroughVsMemcpy)
    ->Arg(1)
    ->Arg(0)
    ->ArgName("check_memory")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_PassthroughKernel)
    ->Args({1 << 20, 1})
    ->Args({1 << 20, 0})
    ->Args({64 << 20, 1})
    ->Args({64 << 20, 0})
    ->ArgNames({"bytes", "check_memory"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
