"""`npusim python FILE` and `python3 -m npusim FILE`: IRON design files run unchanged."""
import json
import os
import subprocess
import sys

from conftest import EXAMPLES, run_cli, twin_cycles


def test_npusim_python_runs_an_example_unchanged(tmp_path):
    report = tmp_path / "run.json"
    r = run_cli("python", "--json", str(report), os.path.join(EXAMPLES, "passthrough.py"))
    assert r.returncode == 0, r.stderr
    assert "PASS!" in r.stdout
    assert json.loads(report.read_text())["cycles"] == twin_cycles("passthrough_kernel")


def test_python_m_npusim_passes_the_design_its_arguments(tmp_path):
    trace = tmp_path / "t.json"
    r = subprocess.run([sys.executable, "-m", "npusim", "--trace", str(trace), os.path.join(EXAMPLES, "passthrough.py"),
                        "--size", "2048"], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    assert "PASS!" in r.stdout
    assert json.loads(trace.read_text())["traceEvents"]


def test_device_option_selects_the_device():
    r = run_cli("python", "--device", "npu1_1col", os.path.join(EXAMPLES, "vector_scalar_mul.py"))
    assert r.returncode == 0, r.stderr
    assert "aie.device(npu1_1col)" in r.stdout


def test_the_aie_modules_exist_only_under_npusim():
    r = subprocess.run([sys.executable, "-c", "import npusim, npusim.iron; import aie.iron"], capture_output=True,
                       text=True)
    assert r.returncode != 0
    assert "No module named 'aie'" in r.stderr


def test_an_aie_module_npusim_lacks_is_named(tmp_path):
    f = tmp_path / "d.py"
    f.write_text("import aie.dialects.aiex\n")
    r = run_cli("python", str(f))
    assert r.returncode != 0
    assert "npusim does not provide the IRON module 'aie.dialects'" in r.stderr


def test_a_deadlocking_design_exits_3(tmp_path):
    f = tmp_path / "dl.py"
    f.write_text("""
import numpy as np
import aie.iron as iron
from aie.iron import ObjectFifo, Program, Runtime, Worker
import npusim
t = np.ndarray[(16,), np.dtype[np.int32]]
v = np.ndarray[(64,), np.dtype[np.int32]]
a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")
def body(i, o):
    x = i.acquire(2); y = o.acquire(1); i.release(2); o.release(1)
w = Worker(body, [a.cons(), b.prod()])
def seq(x, y, hi, ho):
    hi.fill(x); ho.drain(y, wait=True)
rt = Runtime(seq, [v, v, a.prod(), b.cons()])
p = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
npusim.simulate(p, [np.zeros(64, np.int32), np.zeros(64, np.int32)])
""")
    html = f.parent / "dl.html"
    r = run_cli("python", "--html", str(html), str(f))
    assert r.returncode == 3, r.stderr
    assert "DeadlockError" in r.stderr
    assert "fill_less_than_consumed" in html.read_text()  # the report's diagnosis section


RUN_DESIGN_CLI_SCRIPT = """
import argparse
import numpy as np
import aie.iron as iron
from aie.iron import CompileTime, In, Out, kernels
from aie.iron.algorithms import transform
from aie.utils.hostruntime.argparse import add_compile_args, device_from_args
from aie.utils.hostruntime.cli import run_design_cli
from aie.utils.verify import assert_pass

@iron.jit
def copy(a: In, c: Out, *, n: CompileTime[int]):
    return transform(kernels.passthrough(tile_size=128, dtype=np.int32), np.ndarray[(n,), np.dtype[np.int32]],
                     tile_size=128)

def run(opts):
    a = iron.arange(512, dtype=np.int32)
    c = iron.zeros(512, dtype=np.int32)
    copy(a, c, n=512)
    assert_pass(c.numpy(), a.numpy())

p = argparse.ArgumentParser()
add_compile_args(p, with_emit_mlir=True)
opts = p.parse_args()
run_design_cli(copy, opts, compile_kwargs={"n": 512}, run_and_verify=run)
"""


def test_run_design_cli_modes(tmp_path):
    f = tmp_path / "design.py"
    f.write_text(RUN_DESIGN_CLI_SCRIPT)
    r = run_cli("python", str(f))
    assert r.returncode == 0, r.stderr
    assert "PASS!" in r.stdout
    r = run_cli("python", str(f), "--emit-mlir", "--dev", "npu")
    assert r.returncode == 0, r.stderr
    assert "aie.device(npu1)" in r.stdout
    r = run_cli("python", str(f), "--xclbin-path", "x.xclbin", "--insts-path", "i.bin")
    assert r.returncode != 0
    assert "needs mlir-aie and the Peano compiler" in r.stderr


def test_npusim_depth_of_a_python_design():
    r = run_cli("depth", "--max-depth", "2", os.path.join(EXAMPLES, "vector_scalar_mul.py"))
    assert r.returncode == 0, r.stderr
    assert "depth analysis of 'design' on npu2:" in r.stdout
    assert "fifo 'out' producer: resolved depth 2, min depth 1 (1: " in r.stdout
    assert "PASS!" in r.stdout
