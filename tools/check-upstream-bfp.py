"""Runs mlir-aie's ml/block_datatypes designs (unchanged, from a checkout) on npusim with the host data
their C++ XRT hosts would give them, and checks the outputs as those hosts do, against numpy models.

    npusim python tools/check-upstream-bfp.py DIR [--gemm | --gemm-only] [--atb-cycles FILE]

DIR is a mlir-aie checkout (programming_examples/ and aie_kernels/). Each design is imported from
DIR and called with npusim.bfp host arrays (upstream's hosts, bfp_test.cpp / mixed_test.cpp /
test.cpp, hand the same bytes over through XRT, which npusim does not emulate): the pure bfp16
matmuls, bfp_conversion, vector_passthrough and in_core_shuffle byte for byte against a numpy model
of the block arithmetic (examples/python/matmul_bfp16.py's golden: decode, exact block dot products
rounded to float32 once each, quantized with floor after every K tile); the mixed bf16/bfp16 ones
with their hosts' check (matmul_common::verify: nearly_equal, rel 0.1, abs 0.5, against the float
product). --gemm also simulates gemm_asymmetric_tile_buffering's configs at their paper shapes and
prints the simulated TFLOPS (their host's layouts, gemm_atb_layout.h, are not modelled: no check);
--gemm-only runs only those, and --atb-cycles FILE writes one line per config that ran, "configN M K N
cycles clock_mhz", which tools/calibrate.sh hands to npusim-calibrate --gemm for rows 10-13.
Prints one line per design (a design the checkout lacks is skipped and named) and exits 1 if any
check fails or none ran. docs/block-floating-point.md has the run.
"""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np

import npusim
import npusim.bfp as bfp
from ml_dtypes import bfloat16

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ex = load(os.path.join(HERE, "..", "examples", "python", "matmul_bfp16.py"), "npusim_matmul_bfp16")
results = []
skipped = []


def design(path, fn, name):
    """The design function `fn` of DIR's file `path`, or None (reported) when the checkout lacks it."""
    if not os.path.isfile(path):
        skipped.append(name)
        print(f"skip  {name}  (not in this checkout)")
        return None
    return getattr(load(path, name.replace("/", "_").replace(".", "_")), fn)


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'}  {name}  {detail}")


def nearly_equal(a, b, rel, abs_th):
    """basic/matrix_multiplication/common.h nearly_equal, elementwise."""
    diff = np.abs(a - b)
    norm = np.minimum(np.abs(a) + np.abs(b), np.finfo(np.float32).max)
    return (a == b) | (diff < np.maximum(abs_th, rel * norm))


def pure_matmuls(up, rng):
    mm = os.path.join(up, "matrix_multiplication")
    for sub, fn, dims in [("single_core/single_core.py", "single_core_matmul", (256, 128, 128, 64, 64, 64)),
                          ("single_core_no_tiling/single_core.py", "single_core_no_tiling", (64, 128, 64, 64, 128, 64)),
                          ("whole_array/whole_array.py", "whole_array_matmul", (512, 512, 512, 64, 64, 64)),
                          ("whole_array_shuffle/whole_array.py", "whole_array_shuffle", (512, 512, 512, 64, 64, 64))]:
        M, K, N, m, k, n = dims
        f = design(os.path.join(mm, sub), fn, f"matrix_multiplication/{sub}")
        if f is None:
            continue
        al, bl = ex.random_blocks(rng, M, K), ex.random_blocks(rng, N, K)
        # whole_array_shuffle shuffles A on the core (its host sends A as it is)
        a = al if "shuffle" in sub else ex.shuffle(al, m, k)
        c = bfp.zeros(M * N // 8)
        run = f(a.reshape(-1), ex.shuffle(bl, n, k).reshape(-1), c, M=M, K=K, N=N, m=m, k=k, n=n)
        want = ex.shuffle(ex.golden(al, bl, k), m, n).reshape(-1)
        report(f"matrix_multiplication/{sub} {M}x{K}x{N}", c.tobytes() == want.tobytes(), f"{run.cycles} cycles")


def mixed_matmuls(up, rng):
    mm = os.path.join(up, "matrix_multiplication")
    for sub, fn, dims in [("single_core_mixed/single_core.py", "single_core_mixed", (128, 128, 128, 64, 64, 64)),
                          ("single_core_no_tiling_mixed/single_core.py", "single_core_no_tiling_mixed",
                           (64, 64, 64, 64, 64, 64)),
                          ("whole_array_mixed/whole_array.py", "whole_array_mixed", (512, 512, 512, 64, 64, 64))]:
        M, K, N, m, k, n = dims
        f = design(os.path.join(mm, sub), fn, f"matrix_multiplication/{sub}")
        if f is None:
            continue
        a = rng.integers(-4, 4, (M, K)).astype(np.float32)  # mixed_test.cpp: (rand() % 8) - 4
        bt = rng.integers(-4, 4, (N, K)).astype(np.float32)  # B as N x K (its BVec), quantized and shuffled
        c = np.zeros(M * N, dtype=bfloat16)
        run = f(a.astype(bfloat16).reshape(-1), ex.shuffle(bfp.from_float(bt), n, k).reshape(-1), c,
                M=M, K=K, N=N, m=m, k=k, n=n)
        ref = (a.astype(np.float64) @ bt.T.astype(np.float64)).astype(np.float32).astype(bfloat16)
        ok = nearly_equal(c.astype(np.float32).reshape(M, N), ref.astype(np.float32), 0.1, 0.5)
        report(f"matrix_multiplication/{sub} {M}x{K}x{N}", bool(ok.all()),
               f"{run.cycles} cycles, {int((~ok).sum())} of {M * N} outside the host's tolerance")


def small_designs(up, rng):
    f = design(os.path.join(up, "matrix_multiplication", "in_core_shuffle", "single_core.py"), "in_core_shuffle",
               "matrix_multiplication/in_core_shuffle/single_core.py")
    if f is not None:
        a = ex.random_blocks(rng, 64, 64)
        c = bfp.zeros(64 * 8)
        f(a.reshape(-1), c, M=64, K=64, N=64, m=64, k=64, n=64)
        report("matrix_multiplication/in_core_shuffle/single_core.py", c.tobytes() == ex.shuffle(a, 64, 64).tobytes())

    f = design(os.path.join(up, "vector_passthrough", "vector_passthrough.py"), "vector_passthrough",
               "vector_passthrough/vector_passthrough.py")
    if f is not None:
        a = bfp.from_float(rng.uniform(-4, 4, (32, 8)).astype(np.float32))
        b = bfp.zeros(32)
        f(a, b)
        report("vector_passthrough/vector_passthrough.py", a.tobytes() == b.tobytes())

    # two cores: A and B^T (B transposed in the kernel) quantized to blocks, then C = bfp16(A . B)
    f = design(os.path.join(up, "bfp_conversion", "bfp_conversion.py"), "bfp_conversion",
               "bfp_conversion/bfp_conversion.py")
    if f is not None:
        ok = True
        for _ in range(10):
            a = (rng.uniform(-2, 2, 64) * 2.0 ** rng.integers(-3, 4, 64)).astype(bfloat16)
            b = (rng.uniform(-2, 2, 64) * 2.0 ** rng.integers(-3, 4, 64)).astype(bfloat16)
            c = bfp.zeros(8)
            f(a, b, c)
            want = ex.golden(bfp.from_float(a.astype(np.float32).reshape(8, 8)),
                             bfp.from_float(b.astype(np.float32).reshape(8, 8).T), 8).reshape(-1)
            ok = ok and c.tobytes() == want.tobytes()
        report("bfp_conversion/bfp_conversion.py (10 inputs)", ok)


atb_cycles = []


def gemm_configs(up, rng):
    atb = os.path.join(up, "gemm_asymmetric_tile_buffering")
    for cfg, dims, a_bf16, c_bf16 in [("config1", (4096, 4096, 2048, 128, 64, 128), True, True),
                                      ("config2", (3072, 4096, 1536, 192, 128, 96), False, False),
                                      ("config3", (4096, 4096, 2048, 128, 64, 128), False, False)]:
        M, K, N, m, k, n = dims
        f = design(os.path.join(atb, cfg, "n32_core.py"), "n32_core_gemm", f"gemm_asymmetric_tile_buffering/{cfg}")
        if f is None:
            continue
        a = (rng.integers(0, 4, M * K).astype(np.float32).astype(bfloat16) if a_bf16
             else bfp.from_float(rng.integers(0, 4, (M * K // 8, 8)).astype(np.float32)))
        b = bfp.from_float(rng.integers(0, 4, (K * N // 8, 8)).astype(np.float32))
        c = np.zeros(M * N, dtype=bfloat16) if c_bf16 else bfp.zeros(M * N // 8)
        t = time.time()
        try:
            run = f(a, b, c, M=M, K=K, N=N, m=m, k=k, n=n)
        except npusim.DesignError as e:
            print(f"--    gemm_asymmetric_tile_buffering/{cfg}: {e}")
            continue
        tflops = 2 * M * K * N / (run.cycles / (run.clock_mhz * 1e6)) / 1e12
        atb_cycles.append(f"{cfg} {M} {K} {N} {run.cycles} {run.clock_mhz:g}")
        print(f"--    gemm_asymmetric_tile_buffering/{cfg} {M}x{K}x{N} m={m} k={k} n={n}: {run.cycles} cycles at "
              f"{run.clock_mhz:g} MHz, {tflops:.2f} TFLOPS simulated (not checked; {time.time() - t:.0f} s)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="a mlir-aie checkout")
    p.add_argument("--gemm", action="store_true", help="also simulate gemm_asymmetric_tile_buffering's configs")
    p.add_argument("--gemm-only", action="store_true", help="simulate only gemm_asymmetric_tile_buffering's configs")
    p.add_argument("--atb-cycles", metavar="FILE", help="write each simulated config's cycles to FILE")
    o = p.parse_args()
    up = os.path.join(os.path.abspath(o.dir), "programming_examples", "ml", "block_datatypes")
    if not os.path.isdir(up):
        sys.exit(f"check-upstream-bfp: {o.dir} has no programming_examples/ml/block_datatypes")
    rng = np.random.default_rng(1726250518)
    if not o.gemm_only:
        small_designs(up, rng)
        pure_matmuls(up, rng)
        mixed_matmuls(up, rng)
    if o.gemm or o.gemm_only:
        gemm_configs(up, rng)
    if o.atb_cycles:
        with open(o.atb_cycles, "w") as f:
            f.writelines(line + "\n" for line in atb_cycles)
    if o.gemm_only:
        print(f"{len(atb_cycles)} of 3 gemm_asymmetric_tile_buffering configs simulated")
        sys.exit(0 if atb_cycles else 1)
    gone = f", {len(skipped)} design(s) not in {o.dir}" if skipped else ""
    print(f"{sum(results)} of {len(results)} checks passed{gone}")
    sys.exit(0 if results and all(results) else 1)


if __name__ == "__main__":
    main()
