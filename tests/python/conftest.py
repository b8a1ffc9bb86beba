"""Shared fixtures: the npusim package (PYTHONPATH=build/python), the CLI, the examples."""
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import npusim

SOURCE_DIR = os.environ.get("NPUSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("NPUSIM_CLI", os.path.join(SOURCE_DIR, "build", "tools", "npusim"))
EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")

npusim.install_import_hook()  # this test process only: the examples import aie.iron


def load_example(name):
    spec = importlib.util.spec_from_file_location(f"npusim_example_{name}", os.path.join(EXAMPLES, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def twin_cycles(design, *params):
    """Cycles of the registered C++ design `design` (npusim run DESIGN --json)."""
    args = [CLI, "run", design, "--json"]
    for p in params:
        args += ["--param", p]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["cycles"]


def run_cli(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=e, timeout=240, cwd=cwd)


@pytest.fixture
def example():
    return load_example


def pytest_configure(config):
    config.addinivalue_line("markers", "timeout(seconds): this test's time limit (default 60 s)")


@pytest.fixture(autouse=True)
def _time_limit(request):
    """Every test has a time limit (SIGALRM; pytest-timeout is not packaged in Debian 12): 60 s, or
    its timeout(seconds) marker's. A simulation's own limits (max_cycles) end a hang inside a run."""
    marker = request.node.get_closest_marker("timeout")
    seconds = int(marker.args[0]) if marker else 60

    def expired(signum, frame):
        raise TimeoutError(f"{request.node.name}: over its time limit of {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def twin_export(design, device="npu2", generic=False, **params):
    """The C++ twin's MLIR export: npusim export DESIGN --device DEVICE [--generic] --param K=V ..."""
    args = [CLI, "export", design, "--device", device] + (["--generic"] if generic else [])
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


def core_regions(text):
    """The aie.core regions of an MLIR export, each with its %names numbered in order of appearance
    (two exports of one body compare equal whatever their buffers and locks are called)."""
    out, at = [], 0
    while (at := text.find("aie.core(", at)) >= 0:
        depth, end = 0, at
        for end in range(text.index("{", at), len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        names = {}
        out.append(re.sub(r"%[A-Za-z_]\w*", lambda m: names.setdefault(m.group(0), f"%v{len(names)}"),
                          text[at:end + 1]))
        at = end
    return out


def mlir_opt_verify(generic_text):
    """Parse and verify a generic-form export with Debian's mlir-opt-16 (--allow-unregistered-dialect),
    as tests/tools/export_mlir_opt.sh does for the C++ designs; returns its stderr ('' if it verified)."""
    tool = shutil.which("mlir-opt-16") or shutil.which("mlir-opt")
    if tool is None:
        pytest.skip("mlir-opt not found (Debian package mlir-16-tools; tools/install-deps.sh)")
    r = subprocess.run([tool, "--allow-unregistered-dialect", "-o", os.devnull], input=generic_text,
                       capture_output=True, text=True, timeout=120)
    return r.stderr if r.returncode else ""
