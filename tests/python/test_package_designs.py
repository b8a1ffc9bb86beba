"""The constructs mlir-aie's ml/mobilenet designs use at 3ca0193, from Python: memref.view of a weights
Buffer in a body (aie.extras.dialects.memref), the dataflow package's modules
(aie.iron.dataflow.endpoint / .cascadeflow), the conv-pipeline body templates of aie.iron.algorithms
(row_at_a_time, row_at_a_time_with_skip, sliding_3row), and `npusim python -m PKG.MOD` for a
package's module with relative imports, as upstream runs them. Outputs against numpy."""
import os
import sys

import numpy as np
import pytest

import npusim
import npusim.iron as iron
from aie.extras.dialects.memref import view as memref_view
from aie.iron import Buffer, ObjectFifo, Program, Runtime, Worker, kernels
from aie.iron.algorithms import row_at_a_time, row_at_a_time_with_skip, sliding_3row
from aie.iron.controlflow import range_
from conftest import run_cli

W = 128  # int32 values per row (passThroughLine copies at least 96)


def _vec(n):
    return np.ndarray[(n,), np.dtype[np.int32]]


def _one_worker(body_fn, fn_args_fn, n_in, n_out, extra_in=0):
    """A worker between an input fifo of W-value rows (n_in of them) and an output fifo (n_out rows);
    with extra_in, a second input fifo of that many rows (a skip path)."""
    of_in, of_out = ObjectFifo(_vec(W), depth=3, name="rows_in"), ObjectFifo(_vec(W), depth=2, name="rows_out")
    of_skip = ObjectFifo(_vec(W), depth=2, name="skip") if extra_in else None
    w = Worker(body_fn, fn_args_fn(of_in.cons(), of_out.prod(), of_skip.cons() if of_skip else None),
               while_true=False)
    types = [_vec(n_in * W), _vec(n_out * W)] + ([_vec(extra_in * W)] if extra_in else [])
    handles = [of_in.prod(), of_out.cons()] + ([of_skip.prod()] if extra_in else [])

    def seq(a, c, *rest):
        h_in, h_out = rest[-len(handles)], rest[-len(handles) + 1]
        h_in.fill(a)
        if extra_in:
            rest[-1].fill(rest[0])
        h_out.drain(c, wait=True)

    rt = Runtime(seq, types + handles)
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


@pytest.mark.timeout(30)
def test_memref_view_slices_a_weights_buffer_for_indexing_and_for_a_kernel():
    wts = Buffer(initial_value=np.arange(100, 100 + 3 * W, dtype=np.int32), name="wts")
    copy = kernels.passthrough(tile_size=W, dtype=np.int32)

    def body(i_h, o_h, _s, w, k):
        part0 = memref_view(w.op, [W], shift=0)
        part2 = memref_view(w.op, [W], shift=2 * W)  # in elements of the view's dtype
        r, o = i_h.acquire(1), o_h.acquire(1)
        for j in range_(W):
            o[j] = r[j] + part0[j]
        i_h.release(1)
        o_h.release(1)
        o2 = o_h.acquire(1)
        k(part2, o2, W)  # a view given to a kernel is its memory
        o_h.release(1)

    prog = _one_worker(body, lambda i, o, s: [i, o, s, wts, copy], 1, 2)
    a = np.arange(W, dtype=np.int32) * 7
    c = np.zeros(2 * W, dtype=np.int32)
    npusim.simulate(prog, [a, c])
    assert np.array_equal(c[:W], a + np.arange(100, 100 + W))
    assert np.array_equal(c[W:], np.arange(100 + 2 * W, 100 + 3 * W))
    # the export gives part of a buffer memref.view, which takes a 1-D i8 source: not this int32 one
    with pytest.raises(npusim.DesignError, match=r"kernel 'passThroughLine' argument 0 is part of 'wts' "
                                                 r"\(i32\[384\], at byte 1024\): the op that gives such a view, "
                                                 r"memref.view, takes a 1-D i8 source"):
        str(prog)


@pytest.mark.timeout(30)
def test_a_view_of_an_i8_weights_buffer_exports_as_memref_view():
    # mobilenet's weights: one i8 Buffer sliced per layer and given to its 1x1 convolution kernel
    # (bottleneck/regular.py l.511-516 and l.523)
    w8, ch = 8, 8
    n = w8 * ch
    wts = Buffer(initial_value=np.arange(3 * ch * ch, dtype=np.int8), name="wts8")
    pw = kernels.conv2dk1_i8(input_width=w8, input_channels=ch, output_channels=ch)
    t = np.ndarray[(n,), np.dtype[np.int8]]
    of_in, of_out = ObjectFifo(t, name="i8_in"), ObjectFifo(t, name="i8_out")

    def body(i_h, o_h, w, k):
        wa2 = memref_view(w.op, [ch * ch], shift=2 * ch * ch)
        x, o = i_h.acquire(1), o_h.acquire(1)
        k(x, wa2, o, w8, ch, ch, 1)
        k(x, wa2, o, w8, ch, ch, 1)
        i_h.release(1)
        o_h.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), wts, pw], while_true=False)
    rt = Runtime(lambda a, c, i, o: (i.fill(a), o.drain(c, wait=True)), [t, t, of_in.prod(), of_out.cons()])
    prog = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
    text = str(prog)
    shift = 2 * ch * ch  # bytes: the view's dtype is i8
    assert f"%c{shift} = arith.constant {shift} : index" in text
    assert text.count(f"memref.view %wts8[%c{shift}][] : memref<{3 * ch * ch}xi8> to memref<{ch * ch}xi8>") == 1
    assert text.count(", %view, ") == 2  # both calls take the one view


@pytest.mark.timeout(30)
def test_an_unsynchronized_self_loop_fifo_on_a_delegate_tile():
    # bottleneck/regular.py l.472-486: a fifo whose producer and consumer are the one worker, with
    # no locks, its buffers on a neighbour's memory. Row r becomes r+1 in the loop; from the second
    # row on, the sum of the two newest loop rows goes out.
    from aie.iron.device import Tile
    n, rows = 16, 5
    row = np.ndarray[(n,), np.dtype[np.int32]]
    of_in, of_out = ObjectFifo(row, name="l_in"), ObjectFifo(row, name="l_out")
    loop = ObjectFifo(row, depth=3, name="loop", disable_synchronization=True, delegate_tile=Tile(0, 2))

    def body(i_h, o_h, lp, lc):
        for t in range(rows):
            x, y = i_h.acquire(1), lp.acquire(1)
            for j in range_(n):
                y[j] = x[j] + 1
            lp.release(1)
            i_h.release(1)
            if t:
                win, z = lc.acquire(2), o_h.acquire(1)
                for j in range_(n):
                    z[j] = win[0][j] + win[1][j]
                o_h.release(1)
                lc.release(1)
        lc.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), loop.prod(), loop.cons()], tile=Tile(1, 2), while_true=False)
    rt = Runtime(lambda a, c, i, o: (i.fill(a), o.drain(c, wait=True)),
                 [np.ndarray[(rows * n,), np.dtype[np.int32]], np.ndarray[((rows - 1) * n,), np.dtype[np.int32]],
                  of_in.prod(), of_out.cons()])
    prog = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
    a = (np.arange(rows * n, dtype=np.int32) * 5) % 37 - 18
    c = np.zeros((rows - 1) * n, dtype=np.int32)
    npusim.simulate(prog, [a, c])
    y = a.reshape(rows, n) + 1
    assert np.array_equal(c.reshape(rows - 1, n), y[:-1] + y[1:])
    text = str(prog)
    assert "aie.objectfifo @loop(" in text and "{disable_synchronization = true}" in text
    assert "aie.objectfifo.allocate @loop(%logical_core_" in text


def test_memref_view_errors_name_the_line():
    wts = Buffer(initial_value=np.zeros(2 * W, dtype=np.int32), name="wts2")

    def past_end(i_h, o_h, _s, w):
        memref_view(w.op, [W], shift=W + 1)

    with pytest.raises(npusim.DesignError, match=rf"test_package_designs.py:\d+: memref.view of \[{W}\] int32 at "
                                                 rf"shift {W + 1} ends outside 'wts2' \({2 * W * 4} bytes\)"):
        _one_worker(past_end, lambda i, o, s: [i, o, s, wts], 1, 1)

    def dynamic(i_h, o_h, _s, w):
        r = i_h.acquire(1)
        memref_view(w.op, [W], shift=r[0])

    with pytest.raises(NotImplementedError, match="a shift computed in the body is not supported"):
        _one_worker(dynamic, lambda i, o, s: [i, o, s, wts], 1, 1)
    with pytest.raises(npusim.DesignError, match="memref.view outside a worker body"):
        memref_view(wts.op, [W])
    with pytest.raises(NotImplementedError, match="aie.extras.dialects.memref.alloc is not supported by npusim"):
        from aie.extras.dialects import memref
        memref.alloc


def test_the_dataflow_package_modules_serve_their_names():
    from aie.iron.dataflow.cascadeflow import CascadeFlow
    from aie.iron.dataflow.endpoint import ObjectFifoEndpoint
    from aie.iron.dataflow.objectfifo import ObjectFifo as OF
    from aie.iron.dataflow.tile_dma import TileDma
    assert CascadeFlow is iron.CascadeFlow and OF is iron.ObjectFifo and TileDma is iron.TileDma
    assert ObjectFifoEndpoint is iron.dataflow.ObjectFifoEndpoint


@pytest.mark.timeout(30)
def test_row_at_a_time_and_its_skip_variant_drive_rows_through_do_kernel():
    n = 5

    def plus_one(i_h, o_h, _s):
        def do(r_in, r_out, wts):
            assert wts is None  # no weights fifo: None in that slot
            for j in range_(W):
                r_out[j] = r_in[j] + 1
        row_at_a_time(i_h, o_h, n_rows=n, do_kernel=do)

    a = np.arange(n * W, dtype=np.int32)
    c = np.zeros_like(a)
    npusim.simulate(_one_worker(plus_one, lambda i, o, s: [i, o, s], n, n), [a, c])
    assert np.array_equal(c, a + 1)

    def add_skip(i_h, o_h, s_h):
        def do(r_in, r_out, r_skip, wts):
            for j in range_(W):
                r_out[j] = r_in[j] + r_skip[j]
        row_at_a_time_with_skip(i_h, o_h, s_h, n_rows=n, do_kernel=do)

    skip = np.arange(n * W, dtype=np.int32) * 100
    c = np.zeros_like(a)
    npusim.simulate(_one_worker(add_skip, lambda i, o, s: [i, o, s], n, n, extra_in=n), [a, c, skip])
    assert np.array_equal(c, a + skip)


@pytest.mark.timeout(30)
def test_sliding_3row_replicates_the_border_rows():
    n = 6

    def body(i_h, o_h, _s):
        def do(top, mid, bot, r_out, wts, border):
            for j in range_(W):
                r_out[j] = top[j] + mid[j] * 10 + bot[j] * 100 + border * 1000
        sliding_3row(i_h, o_h, n_out_rows=n, do_kernel=do)

    rows = np.random.default_rng(2).integers(0, 9, (n, W), dtype=np.int32)
    c = np.zeros(n * W, dtype=np.int32)
    npusim.simulate(_one_worker(body, lambda i, o, s: [i, o, s], n, n), [rows.reshape(-1), c])
    padded = np.vstack([rows[:1], rows, rows[-1:]])  # the border rows repeated
    border = np.array([0] + [1] * (n - 2) + [2], dtype=np.int32)[:, None]
    want = padded[:-2] + padded[1:-1] * 10 + padded[2:] * 100 + border * 1000
    assert np.array_equal(c.reshape(n, W), want)


def test_npusim_python_runs_a_package_module_as_python_m_does(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text("SIZE = 4\n")
    (pkg / "design.py").write_text(
        "import sys\nimport aie.iron as iron\nfrom .helper import SIZE\n"
        "print('module', __name__, __package__, SIZE, sys.argv[1:], type(iron.get_current_device()).__name__)\n")
    env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    r = run_cli("python", "--device", "npu1", "-m", "mypkg.design", "x", "--y", env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "module __main__ mypkg 4 ['x', '--y'] NPU1"
    r = run_cli("python", "-m", env=env)
    assert r.returncode == 2 and "-m needs a module name" in r.stderr
    r = run_cli("python", "-m", "no_such_pkg.mod", env=env, cwd=str(tmp_path))
    assert r.returncode == 1 and "No module named 'no_such_pkg'" in r.stderr
