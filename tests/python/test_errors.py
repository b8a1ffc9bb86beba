"""Errors of Python designs: Python exceptions naming the file and line of the call that caused
them, deadlock and limit reports with what --json carries, NotImplementedError for IRON calls npusim
does not model."""
import json
import sys

import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim.iron import ObjectFifo, Program, Runtime, Worker
from npusim.iron.controlflow import range_

VEC = np.ndarray[(64,), np.dtype[np.int32]]
TILE = np.ndarray[(16,), np.dtype[np.int32]]


def line_of(marker):
    """The line of this file holding `marker` (a comment on the line that causes an error)."""
    with open(__file__) as f:
        for i, text in enumerate(f, 1):
            if marker in text and "line_of(" not in text:
                return i
    raise AssertionError(marker)


def copy_design(body=None, fills=1, depth=2):
    of_in, of_out = ObjectFifo(TILE, name="in", depth=depth), ObjectFifo(TILE, name="out", depth=depth)

    def copy(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k]
        i.release(1)
        o.release(1)

    w = Worker(body or copy, [of_in.cons(), of_out.prod()])

    def seq(a, b, hi, ho):
        for _ in range(fills):
            hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w])


def test_a_plain_copy_runs():
    p = copy_design().resolve_program()
    a = np.arange(64, dtype=np.int32)
    b = np.zeros_like(a)
    npusim.simulate(p, [a, b])
    assert np.array_equal(a, b)


def test_wrong_tensor_dtype_names_the_argument_and_the_call():
    p = copy_design().resolve_program()
    with pytest.raises(npusim.DesignError) as e:
        npusim.simulate(p, [np.zeros(64, np.float32), np.zeros(64, np.int32)])  # WRONG-DTYPE
    msg = str(e.value)
    assert f"test_errors.py:{line_of('# WRONG-DTYPE')}:" in msg
    assert "tensor argument 0 is float32[64], the runtime sequence declares int32[64]" in msg
    assert e.value.line == line_of("# WRONG-DTYPE")


def test_wrong_tensor_shape_and_count():
    p = copy_design().resolve_program()
    with pytest.raises(npusim.DesignError, match=r"tensor argument 1 is int32\[32\], the runtime sequence declares "
                                                 r"int32\[64\]"):
        npusim.simulate(p, [np.zeros(64, np.int32), np.zeros(32, np.int32)])
    with pytest.raises(npusim.DesignError, match="the runtime sequence takes 2 tensor"):
        npusim.simulate(p, [np.zeros(64, np.int32)])


def test_a_body_that_raises_names_the_worker_call():
    def broken(i, o):
        i.acquire(1)
        raise ValueError("no such thing")

    with pytest.raises(npusim.DesignError) as e:
        copy_design(body=broken)
    msg = str(e.value)
    assert "Worker: its body 'broken' raised ValueError: no such thing" in msg
    assert "test_errors.py:" in msg  # the Worker(...) call inside copy_design
    assert isinstance(e.value.__cause__, ValueError)


def test_python_control_flow_on_recorded_values_is_refused():
    def branchy(i, o):
        x, y = i.acquire(1), o.acquire(1)
        if x[0] > 0:
            y[0] = 1

    with pytest.raises(NotImplementedError, match="cannot decide Python control flow"):
        copy_design(body=branchy)


def test_resolve_errors_name_the_resolve_program_line():
    def greedy(i, o):
        i.acquire(3)  # more than the fifo's depth of 2 allows

    with pytest.raises(npusim.DesignError) as e:
        copy_design(body=greedy).resolve_program()  # RESOLVE-LINE
    assert f"test_errors.py:{line_of('# RESOLVE-LINE')}:" in str(e.value)
    assert "in" in str(e.value)


def test_unsupported_iron_calls_raise_not_implemented_naming_them():
    with pytest.raises(NotImplementedError, match="aie.iron.NoSuchThing is not supported by npusim"):
        iron.NoSuchThing
    with pytest.raises(NotImplementedError, match="aie.iron.controlflow.if_ is not supported"):
        iron.controlflow.if_(True)
    with pytest.raises(NotImplementedError, match=r"ObjectFifo\(plio=\) is not supported|ObjectFifo\(plio=True\)"):
        ObjectFifo(TILE, name="p", plio=True)
    with pytest.raises(NotImplementedError, match=r"Kernel\('mystery', 'mystery.o'\): npusim cannot run"):
        iron.Kernel("mystery", "mystery.o", [TILE, TILE])


def test_a_deadlock_is_a_deadlock_error_with_the_report():
    # A second Program over the same Runtime and Worker resolves and runs again (the sequence and the
    # body are replayed, not consumed).
    p = copy_design(fills=1).resolve_program()
    a, b = np.zeros(64, np.int32), np.zeros(64, np.int32)
    again = Program(iron.get_current_device(), p.program.rt, workers=p.program.workers)
    assert npusim.simulate(again, [a, b]).cycles == npusim.simulate(p, [a, b]).cycles

    # The worker turns 2 objects of 'in' into 1 of 'out': the 4 objects the sequence fills make 2 of the
    # 4 the drain waits for.

    of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")

    def two_in(i, o):
        x = i.acquire(2)
        y = o.acquire(1)
        y[0] = x[0][0] + x[1][0]
        i.release(2)
        o.release(1)

    w = Worker(two_in, [of_in.cons(), of_out.prod()])
    out_ty = np.ndarray[(64,), np.dtype[np.int32]]

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, out_ty, of_in.prod(), of_out.cons()])
    prog = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
    with pytest.raises(npusim.DeadlockError) as e:
        npusim.simulate(prog, [a, b])
    err = e.value
    assert isinstance(err, npusim.SimulationError)
    assert err.exit_code == 3
    assert err.case
    assert err.chain
    assert err.dot.startswith("digraph")
    assert json.loads(err.json)["case"] == err.case


def test_a_cycle_limit_is_a_limit_error():
    p = copy_design().resolve_program()
    with pytest.raises(npusim.LimitError) as e:
        npusim.simulate(p, [np.zeros(64, np.int32), np.zeros(64, np.int32)], max_cycles=50)
    assert e.value.exit_code == 4
