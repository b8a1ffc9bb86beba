"""Recorded worker bodies from Python: Buffers (RTPs and state), barriers, task groups, nested range_,
2-D element indexing, float arithmetic; outputs against numpy."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim.iron import Buffer, ObjectFifo, Program, Runtime, TaskGroup, Worker, WorkerRuntimeBarrier
from npusim.iron.controlflow import range_


def test_rtp_buffer_state_barrier_and_task_group():
    t = np.ndarray[(16,), np.dtype[np.int32]]
    v = np.ndarray[(64,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")
    rtp = Buffer(np.ndarray[(4,), np.dtype[np.int32]], name="rtp", use_write_rtp=True)
    acc = Buffer(np.ndarray[(1,), np.dtype[np.int32]], name="acc", initial_value=np.array([100], np.int32))
    bar = WorkerRuntimeBarrier()

    def body(i, o, rtp, acc, bar):
        bar.wait_for_value(1)
        s = rtp[0]
        for _ in range_(4):
            x, y = i.acquire(1), o.acquire(1)
            for k in range_(16):
                y[k] = x[k] * s + acc[0]
            acc[0] = acc[0] + 1
            i.release(1)
            o.release(1)

    w = Worker(body, [a.cons(), b.prod(), rtp, acc, bar], while_true=False)

    def seq(x, y, hi, ho):
        rtp[0] = 5
        bar.set(1)
        tg = TaskGroup()
        hi.fill(x, group=tg)
        ho.drain(y, wait=True, group=tg)
        tg.finish()

    p = Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]), workers=[w]).resolve_program()
    x, y = np.arange(64, dtype=np.int32), np.zeros(64, np.int32)
    npusim.simulate(p, [x, y])
    assert np.array_equal(y, x * 5 + 100 + np.repeat(np.arange(4), 16))


def test_two_dimensional_elements_nested_loops_and_floats():
    t = np.ndarray[(4, 8), np.dtype[np.float32]]
    v = np.ndarray[(64,), np.dtype[np.float32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def transpose_scale(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for r in range_(4):
            for c in range_(0, 8, 2):  # even columns: x * 0.5; odd ones: x / 4 - 1
                y[r, c] = x[r, c] * 0.5
                y[r, c + 1] = x[r, c + 1] / 4 - 1
        i.release(1)
        o.release(1)

    w = Worker(transpose_scale, [a.cons(), b.prod()])

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]), workers=[w]).resolve_program()
    x = np.random.default_rng(2).standard_normal(64).astype(np.float32)
    y = np.zeros(64, np.float32)
    npusim.simulate(p, [x, y])
    want = x.reshape(-1, 8).copy()
    want[:, 0::2] = want[:, 0::2] * 0.5
    want[:, 1::2] = want[:, 1::2] / 4 - 1
    assert np.allclose(y, want.ravel(), rtol=1e-6)


def test_a_python_loop_unrolls_into_the_recording():
    t = np.ndarray[(4,), np.dtype[np.int16]]
    v = np.ndarray[(16,), np.dtype[np.int16]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def body(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range(4):  # unrolled, as in IRON's MLIR
            y[k] = (x[k] << 2) - k  # int16 wraparound
        i.release(1)
        o.release(1)

    w = Worker(body, [a.cons(), b.prod()])

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]), workers=[w]).resolve_program()
    x = np.array([30000, -5, 7, 8191] * 4, dtype=np.int16)
    y = np.zeros(16, np.int16)
    run = npusim.simulate(p, [x, y])
    assert np.array_equal(y, ((x.astype(np.int64) << 2) - np.tile(np.arange(4), 4)).astype(np.int16))
    assert run.cores[0]["body_cycles"] == 2 * 4 * 4  # per element: a load and a store (shift, subtract are free)


def test_depth_analysis_of_a_python_design():
    t = np.ndarray[(16,), np.dtype[np.int32]]
    v = np.ndarray[(64,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def two_at_once(i, o):
        x = i.acquire(2)  # holds two objects of 'in': its consumer end needs depth 2
        y = o.acquire(1)
        for k in range_(16):
            y[k] = x[0][k] + x[1][k]
        i.release(2)
        o.release(1)

    w = Worker(two_at_once, [a.cons(), b.prod()])

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [v, np.ndarray[(32,), np.dtype[np.int32]], a.prod(),
                                                         b.cons()]), workers=[w]).resolve_program()
    rows = {r["end"]: r for r in npusim.depth(p, [np.arange(64, dtype=np.int32), np.zeros(32, np.int32)], 3)}
    cons = rows["fifo 'in' consumer 0"]
    assert cons["min_depth"] == 2
    assert cons["by_depth"][1][0] != "ok"
    assert rows["fifo 'out' producer"]["min_depth"] == 1


def test_host_arrays_non_contiguous_and_read_only():
    t = np.ndarray[(16,), np.dtype[np.int32]]
    v = np.ndarray[(64,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def inc(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k] + 1
        i.release(1)
        o.release(1)

    w = Worker(inc, [a.cons(), b.prod()])

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]), workers=[w]).resolve_program()
    x = np.arange(128, dtype=np.int32)[::2]  # strided views: copied in, and the output copied back
    y = np.zeros(128, np.int32)[::2]
    run = npusim.simulate(p, [x, y])
    assert np.array_equal(y, x + 1)
    assert np.array_equal(run.outputs[1], x + 1)
    ro_in = np.arange(64, dtype=np.int32)
    ro_out = np.zeros(64, np.int32)
    ro_in.flags.writeable = ro_out.flags.writeable = False  # read-only: the results are in run.outputs only
    run = npusim.simulate(p, [ro_in, ro_out])
    assert np.array_equal(run.outputs[1], ro_in + 1)
    assert not ro_out.any()


def test_integer_division_by_data_divisors():
    # The resolve-time trace runs the body on zeroed scratch memory: a divisor read from the data is
    # 0 there and must not fail the design; at run time a real zero divisor still does.
    from npusim.iron.algorithms import transform_binary
    vec = np.ndarray[(32,), np.dtype[np.int32]]
    p_mod = transform_binary(lambda x, y: x % y, vec, tile_size=16)
    p_div = transform_binary(lambda x, y: x // y, vec, tile_size=16)
    a = np.arange(-5, 27, dtype=np.int32)
    b = np.full(32, 7, np.int32)
    out = np.zeros(32, np.int32)
    npusim.simulate(p_mod, [a, b, out])
    assert np.array_equal(out, a % b)
    npusim.simulate(p_div, [a, b, out])
    assert np.array_equal(out, a // b)
    b[3] = 0
    with pytest.raises(npusim.SimulationError, match="worker body .body.: integer division by zero"):
        npusim.simulate(p_mod, [a, b, out])


def test_a_constant_zero_divisor_fails_at_resolve():
    # A divisor that is 0 whatever the data is (here from the loop index) is refused when the
    # program is resolved, as for a C++ twin.
    tile = np.ndarray[(16,), np.dtype[np.int32]]
    vec = np.ndarray[(64,), np.dtype[np.int32]]
    of_in, of_out = ObjectFifo(tile, name="in"), ObjectFifo(tile, name="out")

    def body(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k] // (k - k)
        i.release(1)
        o.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod()])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [vec, vec, of_in.prod(), of_out.cons()])
    with pytest.raises(npusim.DesignError, match="worker body 'body': integer division by zero"):
        Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def _pykernel_design(kernel_or_none, n=256, line=64):
    """A worker copying `n` uint8 values line by line, through the @func kernel given (called with the
    elements and the line width), or, with None, with the same copy written in the body itself."""
    line_ty = np.ndarray[(line,), np.dtype[np.uint8]]
    of_in, of_out = ObjectFifo(line_ty, name="in"), ObjectFifo(line_ty, name="out")

    def core_fn(i_h, o_h, *k):
        e_out, e_in = o_h.acquire(1), i_h.acquire(1)
        if k:
            k[0](e_in, e_out, line)
        else:
            for j in range_(line):
                e_out[j] = e_in[j] + 1
        i_h.release(1)
        o_h.release(1)

    w = Worker(core_fn, [of_in.cons(), of_out.prod()] + ([kernel_or_none] if kernel_or_none else []))
    vec = np.ndarray[(n,), np.dtype[np.uint8]]
    rt = Runtime(lambda a, b, hi, ho: (hi.fill(a), ho.drain(b, wait=True)), [vec, vec, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


@pytest.mark.timeout(30)
def test_a_func_kernel_written_in_python_is_recorded_into_the_calling_body():
    # basic/passthrough_pykernel's @func: the function's body is recorded where a body calls it
    from aie.helpers.dialects.func import func

    @func
    def plus_one(src: np.ndarray[(64,), np.dtype[np.uint8]], dst: np.ndarray[(64,), np.dtype[np.uint8]],
                 width: np.int32):
        for j in range_(width):
            dst[j] = src[j] + 1

    a = np.random.default_rng(9).integers(0, 255, 256, dtype=np.uint8)
    b = np.zeros_like(a)
    run = npusim.simulate(_pykernel_design(plus_one), [a, b])
    assert np.array_equal(b, a + 1)
    b2 = np.zeros_like(a)
    inline = npusim.simulate(_pykernel_design(None), [a, b2])
    assert np.array_equal(b2, b) and run.cycles == inline.cycles  # the same recorded operations

    @func(sym_visibility="private")
    def wrong(src: np.ndarray[(32,), np.dtype[np.uint8]], dst: np.ndarray[(64,), np.dtype[np.uint8]], width: np.int32):
        pass

    with pytest.raises(npusim.DesignError, match=r"func 'wrong': argument 'src' is \[32\] u8, given \[64\] u8 \('in'\)"):
        _pykernel_design(wrong)
    with pytest.raises(npusim.DesignError, match=r"test_bodies.py:\d+: func 'plus_one' called outside a worker body"):
        plus_one(a, b, 64)
    with pytest.raises(NotImplementedError, match="aie.helpers.dialects.func.call is not supported by npusim"):
        from aie.helpers.dialects import func as func_module
        func_module.call


def test_uint16_elements_wrap_in_the_body_and_export_as_ui16():
    # np.uint16 (MobileNet's pooled activations): a body's arithmetic wraps to 16 unsigned bits, the
    # host arrays keep the dtype, and the MLIR export spells the element type ui16
    t = np.ndarray[(16,), np.dtype[np.uint16]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def add_wrap(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k] + 40000
        i.release(1)
        o.release(1)

    w = Worker(add_wrap, [a.cons(), b.prod()])

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    prog = Program(iron.get_current_device(), Runtime(seq, [t, t, a.prod(), b.cons()]), workers=[w])
    p = prog.resolve_program()
    x = np.array([0, 1, 21845, 21846, 65535, 40000] + list(range(10)), np.uint16)
    y = np.zeros(16, np.uint16)
    npusim.simulate(p, [x, y])
    assert np.array_equal(y, (x.astype(np.int64) + 40000).astype(np.uint16))
    assert y[1] == 40001 and y[2] == 61845 and y[4] == 39999  # 65535 + 40000 wraps
    assert "memref<16xui16>" in p.export_mlir()
