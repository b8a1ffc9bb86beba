"""A kernel whose native code crashes the process (a local array larger than the core's host stack, a
write far outside its views, SIGBUS, a division by zero, abort()) under `npusim python` and
`python3 -m npusim`: reported as `npusim run` reports it (the text of docs/errors.md's
process.crash_* entries, exit code 2), never a bare signal ending the interpreter."""
import os
import re
import subprocess
import sys

import pytest

import npusim
from conftest import CLI, SOURCE_DIR

# The package this test imports, for the child processes (which run in a temporary directory).
PACKAGE_PATH = os.path.dirname(os.path.dirname(os.path.abspath(npusim.__file__)))

DESIGN = '''
import sys
import numpy as np
import npusim
import npusim.iron as iron
from npusim.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker

TILE = np.ndarray[(16,), np.dtype[np.int32]]
VEC = np.ndarray[(64,), np.dtype[np.int32]]
SRC = {
    "stack": 'extern "C" void k(int* in, int* out) { volatile char big[64 << 20]; big[0] = 1; '
             'big[(64 << 20) - 1] = 2; for (int i = 0; i < 16; ++i) out[i] = in[i] + big[i]; }',
    "far": 'extern "C" void k(int* in, int* out) { for (long i = 0; i < (1L << 22); ++i) out[i] = in[i & 15]; }',
    "bus": '#include <csignal>\\nextern "C" void k(int* in, int* out) { std::raise(SIGBUS); out[0] = in[0]; }',
    "fpe": 'extern "C" void k(int* in, int* out) { volatile int z = in[0] - in[0]; '
           'for (int i = 0; i < 16; ++i) out[i] = in[i] / z; }',
    "abort": '#include <cstdlib>\\nextern "C" void k(int* in, int* out) { std::abort(); out[0] = in[0]; }',
    "exit": '#include <cstdlib>\\nextern "C" void k(int* in, int* out) { out[0] = in[0]; std::exit(0); }',
    "quick_exit": '#include <cstdlib>\\nextern "C" void k(int* in, int* out) { out[0] = in[0]; std::quick_exit(3); }',
    "none": 'extern "C" void k(int* in, int* out) { for (int i = 0; i < 16; ++i) out[i] = in[i]; }',
}[sys.argv[1]]
k = ExternalFunction("k", source_string=SRC, arg_types=[TILE, TILE])
of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")


def body(i, o, kk):
    x, y = i.acquire(1), o.acquire(1)
    kk(x, y)
    i.release(1)
    o.release(1)


def seq(a, b, hi, ho):
    hi.fill(a)
    ho.drain(b, wait=True)


w = Worker(body, [of_in.cons(), of_out.prod(), k])
rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
p = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
a = np.arange(64, dtype=np.int32) + 1
b = np.zeros_like(a)
print("before the run")
npusim.simulate(p, [a, b])
print("after the run")
if len(sys.argv) > 2:
    sys.exit(int(sys.argv[2]))
'''


def cpp_message(entry):
    """The C++ report of catalog entry `entry` (docs/errors.md), as a regex for this design's worker
    'worker_0' and kernel 'k'."""
    with open(os.path.join(SOURCE_DIR, "docs", "errors.md")) as f:
        row = next(line for line in f if line.startswith(f"| `{entry}` |"))
    text = row.split(" | ")[2].strip("`")
    text = re.sub(r"^worker 'w' was running kernel '[a-z_]+'", "worker 'worker_0' was running kernel 'k'", text)
    return "npusim: kernel error: " + re.escape(text).replace(re.escape("<N>"), r"\d+")


CASES = [("stack", "process.crash_stack"), ("far", "process.crash_far_outside"),
         ("fpe", "process.crash_arithmetic"), ("abort", "process.crash_abort")]


def run(tmp_path, how, front, *opts):
    path = tmp_path / "crash_design.py"
    path.write_text(DESIGN)
    if front == "cli":
        args = [CLI, "python", *opts, str(path), how]
    else:
        args = [sys.executable, "-m", "npusim", *opts, str(path), how]
    env = dict(os.environ, PYTHONPATH=PACKAGE_PATH)
    return subprocess.run(args, capture_output=True, text=True, timeout=240, cwd=tmp_path, env=env)


@pytest.mark.parametrize("front", ["cli", "module"])
@pytest.mark.parametrize("how,entry", CASES)
def test_a_crashing_kernel_is_reported_as_for_cpp(tmp_path, front, how, entry):
    r = run(tmp_path, how, front)
    assert r.returncode == 2, r.stderr
    assert re.fullmatch(cpp_message(entry), r.stderr.strip().splitlines()[-1]), r.stderr
    assert "interpreter ended" not in r.stderr
    # what the design printed before the run is not lost with the process
    assert r.stdout.splitlines() == ["before the run"]


@pytest.mark.parametrize("front", ["cli", "module"])
def test_a_bus_error_is_reported_as_a_kernel_error(tmp_path, front):
    # SIGBUS (what `npusim python` used to end with, "the interpreter ended with signal 7"): the
    # crash_stack wording, with the signal named
    r = run(tmp_path, "bus", front)
    assert r.returncode == 2, r.stderr
    expected = cpp_message("process.crash_stack").replace(re.escape("SIGSEGV (invalid memory access)"),
                                                          re.escape("SIGBUS (bus error)"))
    assert re.fullmatch(expected, r.stderr.strip().splitlines()[-1]), r.stderr


def test_core_stack_gives_the_large_local_array_room(tmp_path):
    # the report's advice works under `npusim python` too: 128 MiB of host stack for a 64 MiB array
    r = run(tmp_path, "stack", "cli", "--core-stack", str(128 << 20))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["before the run", "after the run"]
    r = run(tmp_path, "stack", "module", "--core-stack", "12")
    assert r.returncode == 2
    assert "--core-stack expects 1048576 up to 1073741824 bytes (1 GiB), got 12" in r.stderr


def test_a_crash_outside_design_code_keeps_the_hosts_handler(tmp_path):
    # After a run the reporter is installed, but a fault in the host program's own code is not a
    # kernel's: the handler that was there before (faulthandler here) reports it.
    script = tmp_path / "host_crash.py"
    script.write_text("import ctypes, faulthandler, sys\n"
                      "faulthandler.enable()\n"
                      "import npusim\n"
                      "npusim._npusim.install_crash_reporter()\n"
                      "ctypes.string_at(0)\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=PACKAGE_PATH))
    assert r.returncode == -11, r.stderr
    assert "Fatal Python error: Segmentation fault" in r.stderr
    assert "kernel error" not in r.stderr


def exit_message(status):
    """process.exit_in_run's text (docs/errors.md) for worker 'worker_0', kernel 'k' and `status`."""
    with open(os.path.join(SOURCE_DIR, "docs", "errors.md")) as f:
        row = next(line for line in f if line.startswith("| `process.exit_in_run` |"))
    text = row.split(" | ")[2].strip("`")
    text = text.replace("worker 'w' is running kernel 'quit'", "worker 'worker_0' is running kernel 'k'")
    text = text.replace("(exit status 0)", f"({status})")
    return "npusim: kernel error: " + re.escape(text).replace(re.escape("<N>"), r"\d+")


@pytest.mark.parametrize("front", ["cli", "module"])
@pytest.mark.parametrize("how,status", [("exit", "exit status 0"), ("quick_exit", "quick_exit")])
def test_a_kernel_ending_the_process_is_reported_as_for_cpp(tmp_path, front, how, status):
    # exit(0) in a kernel would otherwise end the interpreter with status 0, a passed test
    r = run(tmp_path, how, front)
    assert r.returncode == 2, r.stderr
    assert re.fullmatch(exit_message(status), r.stderr.strip().splitlines()[-1]), r.stderr
    assert r.stdout.splitlines() == ["before the run"]


@pytest.mark.parametrize("front", ["cli", "module"])
@pytest.mark.parametrize("code", [0, 5])
def test_the_scripts_own_exit_after_a_run_keeps_its_status(tmp_path, front, code):
    # the guard is disarmed once the simulation returns: sys.exit() ends the process as it asks
    path = tmp_path / "crash_design.py"
    path.write_text(DESIGN)
    prefix = [CLI, "python"] if front == "cli" else [sys.executable, "-m", "npusim"]
    r = subprocess.run([*prefix, str(path), "none", str(code)], capture_output=True, text=True, timeout=240,
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=PACKAGE_PATH))
    assert r.returncode == code, r.stderr
    assert "kernel error" not in r.stderr
    assert r.stdout.splitlines() == ["before the run", "after the run"]
