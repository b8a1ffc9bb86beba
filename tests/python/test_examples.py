"""The IRON Python examples: outputs against numpy, cycles equal to their C++ twins'."""
import numpy as np

import npusim
from conftest import core_regions, mlir_opt_verify, twin_cycles, twin_export


def test_passthrough_matches_numpy_and_its_cpp_twin(example):
    mod = example("passthrough")
    a = np.random.default_rng(3).integers(0, 256, 4096, dtype=np.uint8)
    b = np.zeros_like(a)
    run = mod.passthrough(a, b)
    assert np.array_equal(b, a)
    assert run.cycles == twin_cycles("passthrough_kernel")
    assert run.cores[0]["kernel_calls"] == 4


def test_vector_scalar_mul_matches_numpy_and_its_cpp_twin(example):
    mod = example("vector_scalar_mul")
    program = mod.design(4096, 1024)
    a = np.random.default_rng(4).integers(-30000, 30000, 4096, dtype=np.int16)
    c = np.zeros_like(a)
    run = npusim.simulate(program, [a, c, np.array([7], dtype=np.int32)])
    assert np.array_equal(c, (a.astype(np.int64) * 7).astype(np.int16))  # int16 wraparound
    assert np.array_equal(run.outputs[1], c)
    assert run.cycles == twin_cycles("vector_scalar_mul")


def test_vector_vector_add_body_arithmetic_matches_numpy_and_its_cpp_twin(example):
    mod = example("vector_vector_add")
    rng = np.random.default_rng(5)
    a = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32)
    c = np.zeros(1024, dtype=np.int32)
    run = mod.vector_vector_add(a, b, c)
    assert np.array_equal(c, (a.astype(np.int64) + b).astype(np.int32))  # int32 wraparound
    assert run.cycles == twin_cycles("vector_vector_add")
    assert run.cores[0]["body_cycles"] == 3 * 1024  # two loads and a store per element (the add is free)


def test_resolved_program_prints_the_mlir_export(example):
    text = str(example("vector_scalar_mul").design(4096, 1024))
    assert "aie.device(npu2)" in text
    assert "aie.objectfifo @in0" in text
    assert "scf.for" in text  # range_ is one loop, as IRON emits it


def test_a_body_that_adds_elements_itself_exports_as_its_cpp_twins_body(example):
    # E4's `z[i] = x[i] + y[i]` in a range_: memref.load, arith.addi, memref.store, as the C++
    # twin's at<T>(i) accesses export
    a = np.zeros(1024, dtype=np.int32)
    program = example("vector_vector_add").vector_vector_add.build(a, a, a)[0]
    cores = core_regions(str(program))
    assert cores == core_regions(twin_export("vector_vector_add"))
    assert "arith.addi" in cores[0] and "memref.store" in cores[0]
    assert mlir_opt_verify(program.export_mlir(generic=True)) == ""


def test_jit_caches_the_resolved_program_per_signature(example):
    mod = example("passthrough")
    a = np.arange(4096, dtype=np.uint8)
    b = np.zeros_like(a)
    mod.passthrough(a, b)
    mod.passthrough(a, b)
    assert len(mod.passthrough._kernel_cache) == 1
    mod.passthrough(np.arange(2048, dtype=np.uint8), np.zeros(2048, dtype=np.uint8))
    assert len(mod.passthrough._kernel_cache) == 2


def test_run_iters_has_the_persistent_state_semantics_of_iters(example):
    import json
    import subprocess

    from conftest import CLI
    from npusim.utils.benchmark import run_iters

    mod = example("passthrough")
    a = np.arange(4096, dtype=np.uint8)
    b = np.zeros_like(a)
    bench = run_iters(mod.passthrough, a, b, warmup=1, iters=3)
    out = subprocess.run([CLI, "run", "passthrough_kernel", "--iters", "3", "--warmup", "1", "--json"],
                         capture_output=True, text=True, check=True).stdout
    twin = [i["cycles"] for i in json.loads(out)["invocations"] if not i["warmup"]]
    assert bench.cycles == twin
    assert np.array_equal(b, a)


def test_algorithms_transform_and_transform_binary_equal_their_cpp_twins():
    from npusim.iron import algorithms, kernels

    vec16 = np.ndarray[(4096,), np.dtype[np.int16]]
    prog = algorithms.transform(kernels.scale(tile_size=1024, dtype=np.int16), vec16,
                                np.ndarray[(1,), np.dtype[np.int32]], tile_size=1024)
    a = np.random.default_rng(6).integers(-1000, 1000, 4096, dtype=np.int16)
    c = np.zeros_like(a)
    run = npusim.simulate(prog, [a, c, np.array([-3], np.int32)])
    assert np.array_equal(c, (a.astype(np.int64) * -3).astype(np.int16))
    assert run.cycles == twin_cycles("vector_scalar_mul")

    vec32 = np.ndarray[(1024,), np.dtype[np.int32]]
    prog = algorithms.transform_binary(lambda x, y: x - y * 2, vec32, tile_size=16)
    x = np.arange(1024, dtype=np.int32)
    y = np.arange(1024, dtype=np.int32)[::-1].copy()
    z = np.zeros_like(x)
    run = npusim.simulate(prog, [x, y, z])
    assert np.array_equal(z, x - y * 2)
    assert run.cores[0]["body_cycles"] == 3 * 1024  # two loads and a store (mul, sub issue with them)


def test_simulate_runs_on_the_arrays_in_place_without_copying_them(tmp_path):
    """The run reads and writes the numpy arrays themselves: the peak memory of a 2 x 32 MiB run grows by
    far less than one tensor (copying each tensor in, as before, grew it by both)."""
    import subprocess
    import sys

    from conftest import EXAMPLES

    script = tmp_path / "peak.py"
    script.write_text(f"""
import resource, sys, importlib.util
import numpy as np
import npusim
npusim.install_import_hook()
spec = importlib.util.spec_from_file_location("pt", {repr(EXAMPLES + '/passthrough.py')})
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
n = 32 << 20
a = np.random.default_rng(0).integers(0, 256, n, dtype=np.uint8)
b = np.ones_like(a)
mod.passthrough(a[:4096].copy(), b[:4096].copy(), lines=1)  # warm up: the module's own memory
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
run = mod.passthrough(a, b, lines=n // 4096)
grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
assert np.array_equal(a, b)
print(grew // 1024)
""")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True)
    grew_mib = int(out.stdout.strip().splitlines()[-1])
    assert grew_mib < 16, f"peak memory grew by {grew_mib} MiB for two 32 MiB tensors"


def test_the_same_array_given_twice_runs_as_two_tensors(example):
    """In place needs memory of its own per tensor: an array given as input and output is copied for the
    second, so the run is that of two tensors (as in C++), and the array ends up holding the output."""
    mod = example("vector_scalar_mul")
    a = np.arange(4096, dtype=np.int16)
    want = (a.astype(np.int64) * 5).astype(np.int16)
    run = npusim.simulate(mod.design(4096, 1024), [a, a, np.array([5], dtype=np.int32)])
    assert np.array_equal(run.outputs[1], want)
    assert np.array_equal(a, want)
    assert run.cycles == twin_cycles("vector_scalar_mul")
