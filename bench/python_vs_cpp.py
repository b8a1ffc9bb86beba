#!/usr/bin/env python3
"""A Python design's simulate time against its C++ twin's, in one run (docs/performance.md,
"Python designs against their C++ twins").

    PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_cpp.py [--rounds 5] [--only e1|matmul]

Each round times, back to back, the C++ twin's `simulate_seconds` (`npusim run NAME --device npu2
--param ... --json`: sim::simulate alone) and one call of the Python design on the same parameters
in this process (an `@iron.jit` call: the cached program looked up, resolved for the run, simulated
on the numpy arrays in place, the results in the output array). The program is built and cached by
a first, untimed call. Printed per round: both times, their ratio, and at the end the median, min
and max ratio and the host's load (uptime)."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
CLI = os.environ.get("NPUSIM_CLI", os.path.join(SOURCE, "build", "tools", "npusim"))

import npusim  # noqa: E402

npusim.install_import_hook()


def load(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(SOURCE, "examples", "python", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cpp_seconds(design, params):
    args = [CLI, "run", design, "--device", "npu2", "--json"]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    report = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    return report["stats"]["simulate_seconds"], report["cycles"]


def e1():
    size = 64 << 20
    mod = load("passthrough")
    a = np.random.default_rng(0).integers(0, 256, size, dtype=np.uint8)
    b = np.zeros_like(a)
    call = lambda: mod.passthrough(a, b, lines=size // 4096)  # noqa: E731
    check = lambda: np.array_equal(a, b)  # noqa: E731
    return "E1 passthrough_kernel 64 MiB, 4 KiB lines", "passthrough_kernel", {"size": size, "tile": 4096}, call, check


def matmul():
    mod = load("matmul_whole_array")
    M = K = N = 512
    rng = np.random.default_rng(1726250518)
    a = rng.integers(-8192, 8192, M * K, dtype=np.int16)
    b = rng.integers(-8192, 8192, K * N, dtype=np.int16)
    c = np.zeros(M * N, dtype=np.int16)
    want = (a.reshape(M, K).astype(np.int64) @ b.reshape(K, N).astype(np.int64)).astype(np.int16).reshape(-1)
    call = lambda: mod.matmul_whole_array(a, b, c, M=M, K=K, N=N)  # noqa: E731
    check = lambda: np.array_equal(c, want)  # noqa: E731
    return "matmul_whole_array 512^3 i16 (m=k=64, n=32, 8 columns)", "matmul_whole_array", {}, call, check


def bench(case, rounds):
    title, design, params, call, check = case()
    run = call()  # builds and caches the program
    assert check(), f"{title}: the Python design's output is wrong"
    ratios = []
    print(title)
    for i in range(rounds):
        cpp, cpp_cycles = cpp_seconds(design, params)
        t0 = time.perf_counter()
        run = call()
        py = time.perf_counter() - t0
        assert run.cycles == cpp_cycles, f"{title}: {run.cycles} cycles in Python, {cpp_cycles} in C++"
        ratios.append(py / cpp)
        print(f"  round {i + 1}: C++ simulate {cpp:.3f} s, Python call {py:.3f} s, ratio {py / cpp:.2f}")
    print(f"  ratio median {statistics.median(ratios):.2f}, min {min(ratios):.2f}, max {max(ratios):.2f} "
          f"({rounds} rounds, {run.cycles} cycles in both)")
    return ratios


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", choices=["e1", "matmul"])
    opts = p.parse_args()
    print("host:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    for name, case in (("e1", e1), ("matmul", matmul)):
        if opts.only in (None, name):
            bench(case, opts.rounds)
    print("host:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
