"""Shared fixtures: the npusim package (PYTHONPATH=build/python), the CLI, the examples."""
import importlib.util
import json
import os
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
