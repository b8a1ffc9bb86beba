// matmul_whole_array (E7) at 512 x 512 x 512 on npu2: simulation wall time against the wall time
// of the same kernel calls run natively without simulation (same kernels, shapes and count, each
// core on its own ping-pong buffers as in the simulated tile memories), both measured in the same
// benchmark iteration; plus simulated cycles per wall second, and the cost of the memory check
// (SimOptions::check_memory, on by default) as the ratio of a run with it to one without, and the
// cost of tracing (the rich Perfetto trace, --trace, written to a file) as the ratio of a traced
// run to the same run untraced, all in the same iteration. BM_MatmulKernelThreads: simulate with
// kernel calls on 1 and 2 threads (SimOptions::kernel_threads) against the serial native calls.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/kernels/matmul.hpp"
#include "npusim/kernels/zero.hpp"
#include "npusim/traces/PerfettoTraceSink.hpp"

#include <benchmark/benchmark.h>
#include <chrono>
#include <filesystem>
#include <random>
#include <sys/resource.h>
#include <thread>

using namespace npusim;

namespace {

/// Minor page faults of this process so far (first touches of fresh pages).
double minor_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_minflt);
}

// The kernel calls matmul_whole_array's cores make, natively and without a simulator: per core
// (M/4m)*(N/(n*cols)) output tiles of one zero and K/k matmuls, on ping-pong buffers of its own.
struct NativeCalls {
    NativeCalls(const model::DeviceSpec& dev, const harness::Params& params)
        : M(static_cast<int>(params.at("M"))), K(static_cast<int>(params.at("K"))), N(static_cast<int>(params.at("N"))),
          m(static_cast<int>(params.at("m"))), k(static_cast<int>(params.at("k"))), n(static_cast<int>(params.at("n"))),
          cols(dev.cols), cores(4 * dev.cols), tiles((M / (m * 4)) * (N / (n * cols))), ksteps(K / k),
          t(dev.arch == model::Arch::AIE2 ? 4 : 8), bufs(static_cast<std::size_t>(cores)) {
        std::mt19937 rng(7);
        for (auto& cb : bufs)
            for (int d = 0; d < 2; ++d) {
                cb.A[d].resize(static_cast<std::size_t>(m * k));
                cb.B[d].resize(static_cast<std::size_t>(k * n));
                cb.C[d].resize(static_cast<std::size_t>(m * n));
                for (auto& x : cb.A[d]) x = static_cast<std::int16_t>(rng() % 200);
                for (auto& x : cb.B[d]) x = static_cast<std::int16_t>(rng() % 200);
            }
    }
    /// The calls of cores [from, to), in order.
    void run(int from, int to) {
        for (int c = from; c < to; ++c) {
            auto& cb = bufs[static_cast<std::size_t>(c)];
            for (int i = 0; i < tiles; ++i) {
                auto& C = cb.C[i % 2];
                kernels::zero_i16(C.data(), m, n);
                for (int q = 0; q < ksteps; ++q)
                    kernels::matmul_i16_i16(cb.A[q % 2].data(), cb.B[q % 2].data(), C.data(), m, k, n, r, s, t);
                benchmark::DoNotOptimize(C.data());
            }
        }
    }
    const int M, K, N, m, k, n, cols, cores, tiles, ksteps;
    const int r = 4, s = 4, t;
    struct CoreBuffers {
        std::vector<std::int16_t> A[2], B[2], C[2];
    };
    std::vector<CoreBuffers> bufs;
};

void BM_MatmulWholeArray(benchmark::State& state) {
    const std::string device = "npu2";
    const auto& dev = model::device_by_name(device);
    const auto& spec = harness::design_by_name("matmul_whole_array");
    const auto params = spec.resolve_params({});
    auto inst = spec.build(dev, params, 1);
    const auto net = inst.program.resolve();
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    NativeCalls native(dev, params); // the kernel calls the cores make, for the native baseline

    sim::SimOptions unchecked = o;
    unchecked.check_memory = false;
    unchecked.kernel_threads = 1; // the check's cost, both runs serial (BM_MatmulKernelThreads: the pool)
    double sim_s = 0, native_s = 0, cycles = 0, unchecked_s = 0, traced_s = 0;
    const auto trace_file = (std::filesystem::temp_directory_path() / "npusim_bench_matmul_trace.json").string();
    bool ok = true;
    for (auto _ : state) {
        auto host = inst.host();
        const auto t0 = std::chrono::steady_clock::now();
        auto res = sim::simulate(net, std::move(host), o);
        const auto t1 = std::chrono::steady_clock::now();
        native.run(0, native.cores);
        const auto t2 = std::chrono::steady_clock::now();
        auto host2 = inst.host();
        const auto t3 = std::chrono::steady_clock::now();
        auto res2 = sim::simulate(net, std::move(host2), unchecked);
        const auto t4 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(res2.cycles);
        auto host3 = inst.host();
        const auto t5 = std::chrono::steady_clock::now();
        {
            traces::PerfettoTraceSink sink(trace_file);
            sim::SimOptions traced = o;
            traced.trace = &sink;
            benchmark::DoNotOptimize(sim::simulate(net, std::move(host3), traced).cycles);
        }
        traced_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t5).count();
        unchecked_s += std::chrono::duration<double>(t4 - t3).count();
        sim_s += std::chrono::duration<double>(t1 - t0).count();
        native_s += std::chrono::duration<double>(t2 - t1).count();
        cycles += static_cast<double>(res.cycles);
        state.PauseTiming();
        ok = ok && inst.check(res.host)[0].match;
        state.ResumeTiming();
    }
    if (!ok) state.SkipWithError("output mismatch");
    const double it = static_cast<double>(state.iterations());
    state.counters["sim_ms"] = sim_s / it * 1e3;
    state.counters["native_kernels_ms"] = native_s / it * 1e3;
    state.counters["sim_over_native"] = sim_s / native_s;
    state.counters["sim_cycles_per_s"] = cycles / sim_s;
    state.counters["sim_unchecked_ms"] = unchecked_s / it * 1e3;
    state.counters["memory_check_cost"] = sim_s / unchecked_s;
    state.counters["sim_traced_ms"] = traced_s / it * 1e3;
    state.counters["trace_cost"] = traced_s / sim_s;
    std::filesystem::remove(trace_file);
}

// Kernel calls on the pool (SimOptions::kernel_threads): in each iteration the same kernel calls
// natively and serially (the baseline), then simulate with every call on the simulating thread
// (1 thread) and with them on 2 pool threads, all without the memory check (with it on, calls
// stay serial).
void BM_MatmulKernelThreads(benchmark::State& state) {
    const std::string device = "npu2";
    const auto& dev = model::device_by_name(device);
    const auto& spec = harness::design_by_name("matmul_whole_array");
    const auto params = spec.resolve_params({});
    auto inst = spec.build(dev, params, 1);
    const auto net = inst.program.resolve();
    NativeCalls native(dev, params);
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(dev.arch);
    o.check_memory = false;
    sim::SimOptions serial = o, pooled = o;
    serial.kernel_threads = 1;
    pooled.kernel_threads = 2;
    double native_s = 0, native2_s = 0, serial_s = 0, pooled_s = 0, serial_faults = 0, pooled_faults = 0;
    bool ok = true;
    for (auto _ : state) {
        auto host_a = inst.host(), host_b = inst.host(); // generated outside the timed regions
        const auto t0 = std::chrono::steady_clock::now();
        native.run(0, native.cores);
        const auto t1 = std::chrono::steady_clock::now();
        // The same calls natively on two OS threads (half the cores each): what this machine's
        // two cores give the kernels at best, with no simulator at all.
        const auto p0 = std::chrono::steady_clock::now();
        {
            std::thread other([&] { native.run(native.cores / 2, native.cores); });
            native.run(0, native.cores / 2);
            other.join();
        }
        const auto p1 = std::chrono::steady_clock::now();
        native2_s += std::chrono::duration<double>(p1 - p0).count();
        const double f0 = minor_faults();
        auto a = sim::simulate(net, std::move(host_a), serial);
        const auto t2 = std::chrono::steady_clock::now();
        const double f1 = minor_faults();
        auto b = sim::simulate(net, std::move(host_b), pooled);
        const auto t3 = std::chrono::steady_clock::now();
        serial_faults += f1 - f0;
        pooled_faults += minor_faults() - f1;
        native_s += std::chrono::duration<double>(t1 - t0).count();
        serial_s += std::chrono::duration<double>(t2 - p1).count();
        pooled_s += std::chrono::duration<double>(t3 - t2).count();
        state.PauseTiming();
        ok = ok && a.cycles == b.cycles && a.host == b.host && inst.check(b.host)[0].match;
        state.ResumeTiming();
    }
    if (!ok) state.SkipWithError("the pooled run differs from the serial one, or its output mismatches");
    const double it = static_cast<double>(state.iterations());
    state.counters["native_serial_ms"] = native_s / it * 1e3;
    state.counters["native_2threads_ms"] = native2_s / it * 1e3;
    state.counters["native2_over_native"] = native2_s / native_s;
    state.counters["sim_1thread_ms"] = serial_s / it * 1e3;
    state.counters["sim_2threads_ms"] = pooled_s / it * 1e3;
    state.counters["sim1_over_native"] = serial_s / native_s;
    state.counters["sim2_over_native"] = pooled_s / native_s;
    state.counters["speedup_2_over_1"] = serial_s / pooled_s;
    state.counters["sim1_page_faults"] = serial_faults / it;
    state.counters["sim2_page_faults"] = pooled_faults / it;
}

} // namespace

BENCHMARK(BM_MatmulKernelThreads)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_MatmulWholeArray)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

BENCHMARK_MAIN();
