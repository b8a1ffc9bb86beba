// AIE-API kernels (compiled natively through the host layer) vs their scalar twins compiled the same
// way (same library, same flags). The *_ratio benchmarks time both in one run and report
//   aie_ns            time of one AIE-API kernel call
//   scalar_ns         time of one scalar call
//   aie_over_scalar   aie_ns / scalar_ns   (<= 1: the AIE-API source is no slower)
#include <npusim/aie_kernels.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

namespace k = npusim::aie_kernels;
using npusim::bfloat16;

namespace {

template <typename T>
std::vector<T> random_vec(std::size_t n, unsigned seed, int lo, int hi) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
}

// Runs `aie` and `scalar` `batch` times each per benchmark iteration, timing both, and publishes the
// per-call times and their ratio as counters.
template <typename FA, typename FS>
void run_ratio(benchmark::State& state, int batch, FA&& aie, FS&& scalar) {
    using clock = std::chrono::steady_clock;
    double aie_ns = 0, scalar_ns = 0;
    std::int64_t calls = 0;
    for (auto _ : state) {
        const auto t0 = clock::now();
        for (int i = 0; i < batch; ++i) aie();
        benchmark::ClobberMemory();
        const auto t1 = clock::now();
        for (int i = 0; i < batch; ++i) scalar();
        benchmark::ClobberMemory();
        const auto t2 = clock::now();
        aie_ns += std::chrono::duration<double, std::nano>(t1 - t0).count();
        scalar_ns += std::chrono::duration<double, std::nano>(t2 - t1).count();
        calls += batch;
    }
    state.counters["aie_ns"] = aie_ns / static_cast<double>(calls);
    state.counters["scalar_ns"] = scalar_ns / static_cast<double>(calls);
    state.counters["aie_over_scalar"] = scalar_ns > 0 ? aie_ns / scalar_ns : 0.0;
}

// ---- mm: i16 x i16 -> i32, one m x k x n tile ----------------------------------------------------------
struct MmData {
    int m, k, n;
    std::vector<std::int16_t> a, b;
    std::vector<std::int32_t> c;
    explicit MmData(int mm, int kk, int nn)
        : m(mm), k(kk), n(nn), a(random_vec<std::int16_t>(static_cast<std::size_t>(mm * kk), 1, -8192, 8191)),
          b(random_vec<std::int16_t>(static_cast<std::size_t>(kk * nn), 2, -8192, 8191)),
          c(static_cast<std::size_t>(mm * nn), 0) {}
};

void BM_mm_i16_i32_aie(benchmark::State& state) {
    const int s = static_cast<int>(state.range(0));
    MmData d(s, s, s);
    for (auto _ : state) {
        k::matmul_i16_i32(d.a.data(), d.b.data(), d.c.data(), s, s, s, k::MacDims::aie2);
        benchmark::DoNotOptimize(d.c.data());
        benchmark::ClobberMemory();
    }
    state.counters["MACs/s"] = benchmark::Counter(
        static_cast<double>(s) * s * s * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
void BM_mm_i16_i32_scalar(benchmark::State& state) {
    const int s = static_cast<int>(state.range(0));
    MmData d(s, s, s);
    for (auto _ : state) {
        k::matmul_scalar_i16_i32(d.a.data(), d.b.data(), d.c.data(), s, s, s);
        benchmark::DoNotOptimize(d.c.data());
        benchmark::ClobberMemory();
    }
    state.counters["MACs/s"] = benchmark::Counter(
        static_cast<double>(s) * s * s * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
void BM_mm_i16_i32_ratio(benchmark::State& state) {
    const int s = static_cast<int>(state.range(0));
    const auto dims = state.range(1) == 0 ? k::MacDims::aie2 : k::MacDims::aie2p;
    MmData d(s, s, s);
    std::vector<std::int32_t> c2 = d.c;
    run_ratio(
        state, 4, [&] { k::matmul_i16_i32(d.a.data(), d.b.data(), d.c.data(), s, s, s, dims); },
        [&] { k::matmul_scalar_i16_i32(d.a.data(), d.b.data(), c2.data(), s, s, s); });
}
void BM_mm_i16_i16_ratio(benchmark::State& state) {
    const int s = static_cast<int>(state.range(0));
    MmData d(s, s, s);
    std::vector<std::int16_t> c(static_cast<std::size_t>(s * s)), c2 = c;
    run_ratio(
        state, 4, [&] { k::matmul_i16_i16(d.a.data(), d.b.data(), c.data(), s, s, s, k::MacDims::aie2); },
        [&] { k::matmul_scalar_i16_i16(d.a.data(), d.b.data(), c2.data(), s, s, s); });
}

// ---- reduce_max ---------------------------------------------------------------------------------------
void BM_reduce_max_i32_aie(benchmark::State& state) {
    const auto n = static_cast<std::int32_t>(state.range(0));
    const auto in = random_vec<std::int32_t>(static_cast<std::size_t>(n), 3, -1000, 999);
    std::int32_t out = 0;
    for (auto _ : state) {
        k::reduce_max_vector(in.data(), &out, n);
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(state.iterations() * n);
}
void BM_reduce_max_i32_scalar(benchmark::State& state) {
    const auto n = static_cast<std::int32_t>(state.range(0));
    const auto in = random_vec<std::int32_t>(static_cast<std::size_t>(n), 3, -1000, 999);
    std::int32_t out = 0;
    for (auto _ : state) {
        k::reduce_max_scalar(in.data(), &out, n);
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(state.iterations() * n);
}
void BM_reduce_max_i32_ratio(benchmark::State& state) {
    const auto n = static_cast<std::int32_t>(state.range(0));
    const auto in = random_vec<std::int32_t>(static_cast<std::size_t>(n), 3, -1000, 999);
    std::int32_t o1 = 0, o2 = 0;
    run_ratio(
        state, n >= 65536 ? 4 : 256,
        [&] {
            k::reduce_max_vector(in.data(), &o1, n);
            benchmark::DoNotOptimize(o1);
        },
        [&] {
            k::reduce_max_scalar(in.data(), &o2, n);
            benchmark::DoNotOptimize(o2);
        });
}
void BM_reduce_max_bf16_ratio(benchmark::State& state) {
    const auto n = static_cast<std::int32_t>(state.range(0));
    const auto raw = random_vec<int>(static_cast<std::size_t>(n), 4, -10000, 10000);
    std::vector<bfloat16> in(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) in[i] = bfloat16(static_cast<float>(raw[i]) / 100.0f);
    bfloat16 o1, o2;
    run_ratio(
        state, n >= 65536 ? 4 : 256,
        [&] {
            k::reduce_max_vector_bfloat16(in.data(), &o1, n);
            benchmark::DoNotOptimize(o1);
        },
        [&] {
            k::reduce_max_scalar_bfloat16(in.data(), &o2, n);
            benchmark::DoNotOptimize(o2);
        });
}

} // namespace

BENCHMARK(BM_mm_i16_i32_aie)->Arg(32)->Arg(64);
BENCHMARK(BM_mm_i16_i32_scalar)->Arg(32)->Arg(64);
BENCHMARK(BM_mm_i16_i32_ratio)->Args({32, 0})->Args({64, 0})->Args({32, 1})->Args({64, 1});
BENCHMARK(BM_mm_i16_i16_ratio)->Arg(32)->Arg(64);
BENCHMARK(BM_reduce_max_i32_aie)->Arg(2048)->Arg(65536);
BENCHMARK(BM_reduce_max_i32_scalar)->Arg(2048)->Arg(65536);
BENCHMARK(BM_reduce_max_i32_ratio)->Arg(2048)->Arg(65536);
BENCHMARK(BM_reduce_max_bf16_ratio)->Arg(2048)->Arg(65536);

BENCHMARK_MAIN();
