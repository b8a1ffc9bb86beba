"""aie.utils.benchmark: run_iters and print_benchmark. For an @iron.jit design the warm-up and measured
invocations run in one simulation, as XRT runs a loaded kernel again (state in the array persists
between invocations, as with `npusim run --iters`); the NPU time of each is its simulated time."""
import time
from dataclasses import dataclass


@dataclass
class Stats:
    avg_us: float
    min_us: float
    max_us: float


@dataclass
class BenchmarkResult:
    e2e: Stats
    npu: Stats | None
    cycles: list | None = None  # simulated cycles of each measured invocation (npusim)


def _stats(samples):
    return Stats(avg_us=sum(samples) / len(samples), min_us=min(samples), max_us=max(samples))


def run_iters(fn, *args, warmup=0, iters=1, **kwargs):
    if iters < 1:
        raise ValueError(f"iters must be >= 1 (got {iters})")
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0 (got {warmup})")
    from ..iron.jit import JitFunction
    if isinstance(fn, JitFunction):
        from .. import simulate
        program, tensors = fn.build(*args, **kwargs)
        start = time.perf_counter()
        run = simulate(program, [arr for _, _, arr in tensors], iters=warmup + iters)
        wall_us = (time.perf_counter() - start) * 1e6 / (warmup + iters)
        cycles = run.invocation_cycles[warmup:]
        npu = [c / run.clock_mhz for c in cycles]
        return BenchmarkResult(e2e=_stats([wall_us] * len(npu)), npu=_stats(npu), cycles=cycles)
    e2e = []
    for i in range(warmup + iters):
        start = time.perf_counter()
        fn(*args, **kwargs)
        if i >= warmup:
            e2e.append((time.perf_counter() - start) * 1e6)
    return BenchmarkResult(e2e=_stats(e2e), npu=None)


def print_benchmark(result):
    if result.npu is not None:
        s = result.npu
        print(f"NPU time     (avg/min/max us): {s.avg_us:.1f} / {s.min_us:.1f} / {s.max_us:.1f}  (simulated)")
    s = result.e2e
    print(f"End-to-end   (avg/min/max us): {s.avg_us:.1f} / {s.min_us:.1f} / {s.max_us:.1f}")
