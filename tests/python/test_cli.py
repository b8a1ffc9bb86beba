"""`npusim python FILE` and `python3 -m npusim FILE`: IRON design files run unchanged."""
import json
import os
import re
import subprocess
import sys

from conftest import CLI, EXAMPLES, SOURCE_DIR, run_cli, twin_cycles


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
    f.write_text("import aie.compiler.aiecc\n")
    r = run_cli("python", str(f))
    assert r.returncode != 0
    assert "npusim does not provide the IRON module 'aie.compiler'" in r.stderr


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
    assert "the design builds and resolves; compiling it to an xclbin or ELF needs mlir-aie and the Peano " \
           "compiler" in r.stderr
    # the compile step builds the design first: a design npusim cannot build fails there, as for aiecc
    f.write_text(RUN_DESIGN_CLI_SCRIPT.replace("tile_size=128)\n", "tile_size=96)\n"))
    r = run_cli("python", str(f), "--xclbin-path", "x.xclbin", "--insts-path", "i.bin")
    assert r.returncode == 1 and "needs mlir-aie" not in r.stderr
    assert "Number of elements (512) must be a multiple of tile size (96)" in r.stderr


def test_npusim_depth_of_a_python_design():
    r = run_cli("depth", "--max-depth", "2", os.path.join(EXAMPLES, "vector_scalar_mul.py"))
    assert r.returncode == 0, r.stderr
    assert "depth analysis of 'design' on npu2:" in r.stdout
    assert "fifo 'out' producer: resolved depth 2, min depth 1 (1: " in r.stdout
    assert "PASS!" in r.stdout


def test_run_upstream_examples_table(tmp_path):
    # A fake mlir-aie checkout: a design that passes (with the arguments its run_strix.lit gives and
    # a kernel source from aie_kernels), one that fails, one that uses an unmodelled call, one that
    # imports a module npusim does not serve, and a .py that is not a design (skipped).
    ex = tmp_path / "programming_examples"
    (tmp_path / "aie_kernels").mkdir()
    (tmp_path / "aie_kernels" / "k.cc").write_text(
        '#include <cstdint>\nextern "C" void twice(int32_t* a, int32_t* b) { for (int i = 0; i < 16; ++i) '
        'b[i] = 2 * a[i]; }\n')
    files = {
        "basic/good/good.py": "import os, sys\nimport numpy as np\nfrom aie.iron import ExternalFunction\n"
                              "assert sys.argv[1:] == ['-n', '4'], sys.argv\n"
                              "ExternalFunction('twice', source_file='../../../aie_kernels/k.cc',\n"
                              "                 arg_types=[np.ndarray[(16,), np.dtype[np.int32]]] * 2)\n",
        "basic/good/run_strix.lit": "// RUN: %run_on_npu2% %python %S/good.py -n 4 | FileCheck %s\n",
        "basic/bad/bad.py": "import aie.iron as iron\nraise RuntimeError('the design broke')\n",
        "ml/gap/gap.py": "import aie.iron as iron\niron.NoSuchThing\n",
        "ml/mod/mod.py": "from aie.compiler.aiecc import main\n",
        "ml/mod/plot.py": "print('not a design')\n",
    }
    for rel, text in files.items():
        (ex / rel).parent.mkdir(parents=True, exist_ok=True)
        (ex / rel).write_text(text)
    script = os.path.join(SOURCE_DIR, "tools", "run-upstream-examples.sh")
    r = subprocess.run(["bash", script, str(tmp_path), "--npusim", CLI, "--timeout", "120"], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line for line in r.stdout.splitlines()[1:] if line.strip() and "/" in line.split()[0]}
    assert sorted(rows) == ["basic/bad/bad.py", "basic/good/good.py", "ml/gap/gap.py", "ml/mod/mod.py"]
    assert re.search(r"basic/good/good\.py +-n 4 +passed", rows["basic/good/good.py"])
    assert re.search(r"failed +RuntimeError: the design broke$", rows["basic/bad/bad.py"])
    assert re.search(r"unsupported +aie\.iron\.NoSuchThing is not supported by npusim$", rows["ml/gap/gap.py"])
    assert re.search(r"unsupported +npusim does not provide the IRON module 'aie\.compiler'$", rows["ml/mod/mod.py"])
    assert r.stdout.rstrip().endswith("passed 1, failed 1, unsupported 2, of 4")
    # the columns line up
    assert len({re.search(r" (passed|failed|unsupported) ", line).start() for line in rows.values()}) == 1
    bad = subprocess.run(["bash", script, str(tmp_path / "nowhere")], capture_output=True, text=True)
    assert bad.returncode == 2 and "nowhere: no such directory" in bad.stderr
