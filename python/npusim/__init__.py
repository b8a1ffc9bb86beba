"""npusim: a cycle-approximate simulator of AMD NPU tile arrays, for IRON designs written in Python.

    import npusim.iron as iron          # IRON's API (aie.iron), simulated
    run = npusim.simulate(program, [a, b, c])   # a resolved program on numpy arrays
    run.cycles, run.outputs

`npusim python design.py` (or `python3 -m npusim design.py`) runs an IRON design file unchanged:
its `aie.*` imports are served by npusim for that process only (docs/python.md).
"""
import json as _json
import sys as _sys

import numpy as _np

from . import _npusim
from ._errors import DeadlockError, DesignError, LimitError, NpusimError, SimulationError, design_error, where
from ._types import dtype_name as _dtype_name, numpy_name as _numpy_name

__all__ = ["simulate", "SimRun", "NpusimError", "DesignError", "SimulationError", "DeadlockError", "LimitError",
           "install_import_hook", "options", "depth"]

#: Process-wide run options (set by `npusim python --trace/--vcd/--json/--max-cycles`): every
#: simulate() call that does not give its own uses them.
options = {"trace": "", "vcd": "", "html": "", "json": "", "max_cycles": 0, "depth": False, "max_depth": 4,
           "core_stack": 0}
_in_depth = False


class SimRun:
    """The result of simulate(): cycles, outputs (every runtime tensor after the run), per-core figures."""

    def __init__(self, d, outputs, program):
        self.cycles = d["cycles"]
        self.clock_mhz = d["clock_mhz"]
        self.outputs = outputs
        self.cores = d["cores"]
        self.invocation_cycles = d["invocation_cycles"]
        self.warnings = d["warnings"]
        self.bytes_moved = d["bytes_moved"]
        self.program = program

    def report(self):
        return {"design": self.program._native.name, "device": self.program._native.device, "cycles": self.cycles,
                "clock_mhz": self.clock_mhz,
                "invocation_cycles": self.invocation_cycles, "cores": self.cores, "warnings": self.warnings}

    def __repr__(self):
        return f"<npusim run: {self.cycles} cycles>"


def _resolved(program):
    from .iron.program import Program, ResolvedProgram
    if isinstance(program, ResolvedProgram):
        return program
    if isinstance(program, Program):
        return program._resolved or program.resolve_program()
    raise TypeError(f"npusim.simulate: expected a Program or the result of resolve_program(), got "
                    f"{type(program).__name__}")


def _scalar_value(loc, i, t, x):
    """A runtime scalar input as the sequence receives it: a numpy scalar of the declared type."""
    dt = _np.dtype(t)
    v = x.numpy() if hasattr(x, "numpy") else x
    v = v.item() if isinstance(v, (_np.ndarray, _np.generic)) else v
    if dt.kind in "iu":
        info = _np.iinfo(dt)
        if isinstance(v, bool) or not isinstance(v, int) or not info.min <= v <= info.max:
            raise design_error(loc, f"simulate: runtime input {i} is a {dt.name} scalar; {v!r} is not one")
    elif not isinstance(v, (int, float)) or isinstance(v, bool):
        raise design_error(loc, f"simulate: runtime input {i} is a {dt.name} scalar; {v!r} is not one")
    return dt.type(v)


def _host_bytes(loc, program, inputs):
    """The tensors' arrays and their contiguous copies; runtime scalar inputs are set on the Runtime
    (its sequence receives them when the program is resolved for this run)."""
    types = program.tensor_types
    rt = program.program.rt
    kinds = getattr(rt, "input_kinds", ["tensor"] * len(types))
    if len(inputs) != len(kinds):
        n_s = kinds.count("scalar")
        scal = f" and {n_s} scalar(s)" if n_s else ""
        raise design_error(loc, f"simulate: the runtime sequence takes {len(types)} tensor(s){scal}, "
                                f"{len(inputs)} were given")
    scalars = [_scalar_value(loc, i, rt.scalar_types[len([k for k in kinds[:i] if k == "scalar"])], x)
               for i, (x, k) in enumerate(zip(inputs, kinds)) if k == "scalar"]
    rt.scalar_values = scalars or None
    arrays, host = [], []
    for i, (x, t) in enumerate(zip([x for x, k in zip(inputs, kinds) if k == "tensor"], types)):
        a = x.numpy() if hasattr(x, "numpy") else _np.asarray(x)
        try:
            name = _dtype_name(a.dtype)
        except TypeError:
            name = str(a.dtype)
        want = _numpy_name(t.dtype)
        if want == "v8bfp16ebs8" and name in ("uint8", "int8") and a.size == 9 * t.elements:
            name = want  # a block tensor's raw bytes (9 a block), as mlir-aie's C++ hosts hand them over
        elif name != want or a.size != t.elements:
            raise design_error(loc, f"simulate: tensor argument {i} is {name}{list(a.shape)}, the runtime sequence "
                                    f"declares {want}{list(t.shape)}")
        arrays.append(a)
        host.append(_np.ascontiguousarray(a))  # the array itself when it is contiguous
    return arrays, host


def simulate(program, inputs, *, iters=1, trace=None, vcd=None, html=None, json=None, max_cycles=None, depths=None):
    """Simulate a resolved program on host tensors (numpy arrays or iron tensors, one per runtime tensor
    argument, in order). Output arrays are updated in place; returns a SimRun. Raises DesignError,
    DeadlockError (with .case, .chain, .dot, .json), LimitError or SimulationError."""
    loc = where()
    prog = _resolved(program)
    global _in_depth
    if options["depth"] and not _in_depth:  # `npusim depth FILE.py`: analyse each run first
        from ._depth import depth as _depth, format_depth
        _in_depth = True
        try:
            rows = _depth(prog, list(inputs), options["max_depth"])
        finally:
            _in_depth = False
        print(f"depth analysis of '{prog._native.name}' on {prog._native.device}:")
        print(format_depth(rows))
    arrays, host = _host_bytes(loc, prog, list(inputs))
    native_depths = [_npusim.DepthOverride(f, c, d) for f, c, d in (depths or [])]
    from ._errors import _Located
    with _Located(loc):
        # an element type without a buffer-protocol format (bfloat16) goes in as its raw bytes, the
        # same memory, so the simulator's write-back still lands in the array
        native = [h.view(_np.uint8) if h.dtype.kind == "V" else h for h in host]
        # A kernel that crashes ends the process with the crash report (tools/CrashReporter.cpp),
        # which cannot flush Python's buffers: what the design printed so far goes out first.
        _sys.stdout.flush()
        _sys.stderr.flush()
        d = _npusim.simulate(prog._native, native, max_cycles=int(max_cycles if max_cycles is not None
                                                                  else options["max_cycles"]),
                             iters=int(iters), trace=trace if trace is not None else options["trace"],
                             vcd=vcd if vcd is not None else options["vcd"],
                             html=html if html is not None else options["html"], depths=native_depths,
                             resolved=prog._netlist, core_stack=int(options["core_stack"]))
    # The simulator wrote each tensor back into the contiguous array it was given (None), or returned
    # its bytes (a read-only array).
    outputs = []
    for a, c, b in zip(arrays, host, d["host"]):
        out = c if b is None else _np.frombuffer(b, dtype=a.dtype).reshape(a.shape).copy()
        if out is not a and a.flags.writeable:
            _np.copyto(a, out.reshape(a.shape))
        outputs.append(out.reshape(a.shape))
    run = SimRun(d, outputs, prog)
    # What the run warns about (tasks still in flight at the sequence's end, ...) goes to stderr, as
    # `npusim run` prints it.
    for w in run.warnings:
        print(f"npusim: warning: {w}", file=_sys.stderr)
    path = json if json is not None else options["json"]
    if path:
        with open(path, "w") as f:
            _json.dump(run.report(), f, indent=2)
    return run


def depth(program, inputs, max_depth=4):
    """Depth analysis of a Python design (npusim._depth): one row per fifo endpoint with buffers."""
    from ._depth import depth as _depth
    return _depth(program, inputs, max_depth)


def install_import_hook():
    """Serve IRON's module names (aie.iron, aie.helpers.taplib, aie.utils.verify, ...) from npusim in this
    process. Never installs a global `aie` package: only this interpreter's sys.meta_path changes."""
    from ._hook import install
    install()
