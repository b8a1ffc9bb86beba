"""IRON pieces beyond the basic design API, from Python: algorithms.reduce and for_each,
ObjectFifoLink (with a padded output fifo), aie.helpers.dialects.scf if_/else_ in recorded bodies,
ensure_current_device; outputs against numpy."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim.helpers.dialects.scf import else_, if_
from npusim.iron import Buffer, ObjectFifo, ObjectFifoLink, Program, Runtime, Worker, kernels
from npusim.iron.algorithms import for_each, reduce
from npusim.iron.controlflow import range_


def _run(program, *arrays):
    npusim.simulate(program, list(arrays))


def test_reduce_hands_the_whole_input_to_the_kernel():
    in_ty = np.ndarray[(1024,), np.dtype[np.int32]]
    out_ty = np.ndarray[(1,), np.dtype[np.int32]]
    x = np.random.default_rng(1).integers(-1000, 1000, 1024).astype(np.int32)
    for factory, ref in ((kernels.reduce_add, np.sum), (kernels.reduce_min, np.min), (kernels.reduce_max, np.max)):
        y = np.zeros(1, np.int32)
        _run(reduce(factory(tile_size=1024, dtype=np.int32), in_ty, out_ty), x, y)
        assert int(y[0]) == int(ref(x)), factory.__name__
    with pytest.raises(TypeError, match="reduce requires a kernel"):
        reduce(lambda a: a, in_ty, out_ty)


def test_for_each_transforms_one_tensor_in_place():
    ty = np.ndarray[(256,), np.dtype[np.int32]]
    x = np.arange(256, dtype=np.int32) * 3
    want = x * 2 - 1
    _run(for_each(lambda a: a * 2 - 1, ty, tile_size=32), x)
    assert np.array_equal(x, want)
    with pytest.raises(ValueError, match=r"Number of elements \(256\) must be a multiple of tile size \(24\)"):
        for_each(lambda a: a, ty, tile_size=24)


def test_object_fifo_link_pads_into_a_bigger_output():
    small = np.ndarray[(16,), np.dtype[np.int32]]
    big = np.ndarray[(24,), np.dtype[np.int32]]
    of_in = ObjectFifo(small, name="in")
    of_out = ObjectFifo(big, name="out", dims_to_stream=[(16, 1)], pad_dimensions=[(4, 4)], pad_value=-7)
    link = ObjectFifoLink(of_in.cons(), of_out.prod())
    assert len(link.srcs) == 1 and len(link.dsts) == 1

    def seq(a, c, hi, ho):
        hi.fill(a)
        ho.drain(c, wait=True)

    rt = Runtime(seq, [small, big, of_in.prod(), of_out.cons()])
    p = Program(iron.get_current_device(), rt).resolve_program()
    x, y = np.arange(1, 17, dtype=np.int32), np.zeros(24, np.int32)
    _run(p, x, y)
    assert np.array_equal(y, np.concatenate([np.full(4, -7), x, np.full(4, -7)]).astype(np.int32))
    with pytest.raises(TypeError, match="is not an ObjectFifoHandle"):
        ObjectFifoLink(of_in, of_out.prod())


def _branch_program(body, size=32):
    t = np.ndarray[(size,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")
    best = Buffer(np.ndarray[(1,), np.dtype[np.int32]], initial_value=np.array([-(2 ** 31)], np.int32))

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    w = Worker(body, [a.cons(), b.prod(), best])
    return Program(iron.get_current_device(), Runtime(seq, [t, t, a.prod(), b.cons()]), workers=[w]).resolve_program()


def test_if_else_in_a_recorded_body_picks_per_element():
    def body(i, o, best):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(32):
            with if_(x[k] > 10) as op:
                y[k] = x[k] * 2
            with else_(op):
                y[k] = 0 - x[k]
            with if_(x[k] > best[0]):  # a running maximum, IRON's vector_reduce_max_1col pattern
                best[0] = x[k]
        y[0] = best[0]
        i.release(1)
        o.release(1)

    x = np.random.default_rng(5).integers(-50, 50, 32).astype(np.int32)
    y = np.zeros(32, np.int32)
    _run(_branch_program(body), x, y)
    want = np.where(x > 10, x * 2, -x)
    want[0] = x.max()
    assert np.array_equal(y, want)


def test_if_else_misuse_is_refused_by_name():
    def else_late(i, o, best):
        x, y = i.acquire(1), o.acquire(1)
        with if_(x[0] > 1) as op:
            y[0] = 1
        y[1] = 2
        with else_(op):
            y[0] = 3
        i.release(1)
        o.release(1)

    with pytest.raises(npusim.DesignError, match=r"test_iron_extras.py:\d+: recorded body 'else_late': else_ must "
                                                  r"directly follow its if_ block"):
        _branch_program(else_late)
    with pytest.raises(NotImplementedError, match=r"aie.helpers.dialects.scf.if_ outside a worker body is not "
                                                  r"supported by npusim"):
        with if_(True):
            pass


def test_ensure_current_device_binds_the_simulated_device():
    assert iron.ensure_current_device() == iron.get_current_device()


# Two kernels talking over the cascade with the AIE API's put_mcd / get_scd (as cascade_mm.cc does).
CASCADE_SRC = """
#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void put_plus1(int32_t* in) { put_mcd(aie::add(aie::load_v<16>(in), int32_t(1))); }
extern "C" void get_times2(int32_t* out) { aie::store_v(out, aie::mul(get_scd_v16int32(), int32_t(2)).to_vector<int32_t>(0)); }
"""


def test_cascade_flow_connects_two_workers_kernels():
    from npusim.iron import CascadeFlow, ExternalFunction
    from npusim.iron.dataflow import CascadeFlow as DataflowCascadeFlow
    assert DataflowCascadeFlow is CascadeFlow
    tile = np.ndarray[(16,), np.dtype[np.int32]]
    vec = np.ndarray[(64,), np.dtype[np.int32]]
    put = ExternalFunction("put_plus1", source_string=CASCADE_SRC, arg_types=[tile])
    get = ExternalFunction("get_times2", source_string=CASCADE_SRC, arg_types=[tile])
    of_in, of_out = ObjectFifo(tile, name="in"), ObjectFifo(tile, name="out")

    def producer(i, k):
        x = i.acquire(1)
        k(x)
        i.release(1)

    def consumer(o, k):
        y = o.acquire(1)
        k(y)
        o.release(1)

    w_put = Worker(producer, [of_in.cons(), put])
    w_get = Worker(consumer, [of_out.prod(), get])
    CascadeFlow(w_put, w_get)

    def seq(a, c, hi, ho):
        hi.fill(a)
        ho.drain(c, wait=True)

    rt = Runtime(seq, [vec, vec, of_in.prod(), of_out.cons()])
    p = Program(iron.get_current_device(), rt, workers=[w_put, w_get]).resolve_program()
    x, y = np.arange(64, dtype=np.int32) * 5, np.zeros(64, np.int32)
    _run(p, x, y)
    assert np.array_equal(y, (x + 1) * 2)
    with pytest.raises(npusim.DesignError, match="CascadeFlow: 3 is not a Worker"):
        CascadeFlow(w_put, 3)


def test_scalar_runtime_arguments_reach_the_sequence_per_run():
    from npusim.iron import Buffer
    t = np.ndarray[(16,), np.dtype[np.int32]]
    v = np.ndarray[(64,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")
    rtp = Buffer(np.ndarray[(1,), np.dtype[np.int32]], name="factor", use_write_rtp=True)

    def body(i, o, rtp):
        x, y = i.acquire(1), o.acquire(1)
        f = rtp[0]
        for k in range_(16):
            y[k] = x[k] * f
        i.release(1)
        o.release(1)

    seen = []

    def seq(x, factor, y, tiles, hi, ho):
        seen.append((type(factor), int(factor), tiles))
        rtp[0] = int(factor)  # the runtime scalar decides the RTP write
        hi.fill(x)
        ho.drain(y, wait=True)

    w = Worker(body, [a.cons(), b.prod(), rtp], while_true=True)
    rt = Runtime(seq, [v, np.int32, v, 4, a.prod(), b.cons()])
    p = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
    x = np.arange(64, dtype=np.int32)
    for factor in (3, -5):
        y = np.zeros(64, np.int32)
        npusim.simulate(p, [x, factor, y])
        assert np.array_equal(y, x * factor)
    assert seen == [(np.int32, 3, 4), (np.int32, -5, 4)]  # an int in fn_args is a constant, passed as is
    with pytest.raises(npusim.DesignError, match=r"test_iron_extras.py:\d+: simulate: runtime input 1 is a int32 "
                                                  r"scalar; 2.5 is not one"):
        npusim.simulate(p, [x, 2.5, np.zeros(64, np.int32)])
    with pytest.raises(npusim.DesignError, match=r"simulate: the runtime sequence takes 2 tensor\(s\) and 1 "
                                                  r"scalar\(s\), 2 were given"):
        npusim.simulate(p, [x, np.zeros(64, np.int32)])
    with pytest.raises(NotImplementedError, match="MLIR export of a runtime sequence with scalar arguments"):
        str(p)


def test_index_cast_stores_a_loop_index():
    import aie.extras.dialects.arith as arith
    from aie.helpers.util import np_dtype_to_mlir_type

    def body(i, o, best):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(32):
            y[k] = arith.index_cast(k, to=np_dtype_to_mlir_type(np.int32)) + x[k]
        i.release(1)
        o.release(1)

    x, y = np.full(32, 100, np.int32), np.zeros(32, np.int32)
    _run(_branch_program(body), x, y)
    assert np.array_equal(y, np.arange(32) + 100)


def test_trunci_keeps_the_low_bits_sign_extended_as_an_iN_register():
    import aie.extras.dialects.arith as arith
    from aie.extras import types as T

    assert arith.trunci(T.i16(), 40000) == 40000 - 65536
    assert arith.trunci(T.i8(), 255) == -1 and arith.trunci(T.i8(), 50) == 50
    assert arith.extsi(T.i32(), -5) == -5 and arith.extui(T.i32(), -1, from_width=8) == 255

    def body(i, o, best):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(32):
            y[k] = arith.trunci(T.i16(), x[k])  # recorded: the body's own arithmetic
        i.release(1)
        o.release(1)

    x = np.random.default_rng(8).integers(-2**31, 2**31, 32, dtype=np.int64).astype(np.int32)
    y = np.zeros(32, np.int32)
    _run(_branch_program(body), x, y)
    assert np.array_equal(y, x.astype(np.int16).astype(np.int32))
    with pytest.raises(NotImplementedError, match=r"aie.extras.dialects.arith.trunci to 'bf16' is not supported"):
        arith.trunci("bf16", 3)
    with pytest.raises(NotImplementedError, match=r"aie.extras.types.f32 is not supported by npusim"):
        T.f32()


def test_kernels_report_irons_arg_types():
    k = kernels.reduce_max(tile_size=64, dtype=np.int32)
    assert k.arg_types() == [np.ndarray[(64,), np.dtype[np.int32]], np.ndarray[(1,), np.dtype[np.int32]], np.int32]
    src = 'extern "C" void noop(int* a, int n) {}'
    tile = np.ndarray[(16,), np.dtype[np.int32]]
    f = iron.ExternalFunction("noop", source_string=src, arg_types=[tile, np.int32])
    assert f.arg_types() == [tile, np.int32] and f.tile_size() == 16


def test_a_buffer_is_a_kernel_argument():
    reduce_max = kernels.reduce_max(tile_size=128, dtype=np.int32)

    def body(i, o, best):
        x, y = i.acquire(1), o.acquire(1)
        reduce_max(x, best, 128)  # the kernel writes the Buffer's memory
        y[0] = best[0] + 1
        i.release(1)
        o.release(1)

    x, y = np.random.default_rng(9).integers(-99, 99, 128).astype(np.int32), np.zeros(128, np.int32)
    _run(_branch_program(body, size=128), x, y)
    assert int(y[0]) == int(x.max()) + 1


def test_the_runtime_sequence_runs_once_per_resolved_program():
    # IRON traces the sequence exactly once (into the MLIR module), so a sequence may keep Python
    # state across its calls (matmul single_core.py's nonlocal drain counter); npusim resolves once and
    # runs that resolution for every simulate() and every invocation of run_iters.
    calls = []
    t = np.ndarray[(256,), np.dtype[np.int32]]
    a = ObjectFifo(np.ndarray[(64,), np.dtype[np.int32]], name="a")
    b = a.cons().forward(name="b")
    taps = iter([None])  # a second run of the sequence would find the iterator exhausted

    def seq(x, y, hi, ho):
        calls.append(next(taps))
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [t, t, a.prod(), b.cons()])).resolve_program()
    x = np.arange(256, dtype=np.int32)
    for iters in (1, 3):
        y = np.zeros_like(x)
        npusim.simulate(p, [x, y], iters=iters)
        assert np.array_equal(y, x)
    assert calls == [None]


def test_objectfifo_endpoint_puts_a_producer_on_a_mem_tile_and_refuses_other_endpoints():
    from npusim.iron import ObjectFifo
    from npusim.iron.dataflow import ObjectFifoEndpoint
    from npusim.iron.device import AnyComputeTile, AnyMemTile
    ty = np.ndarray[(16,), np.dtype[np.int32]]
    f = ObjectFifo(ty, depth=1, name="k", init_values=[np.arange(16, dtype=np.int32)])
    ep = ObjectFifoEndpoint(AnyMemTile)
    f.prod().endpoint = ep
    assert f.prod().endpoint is ep and ep.tile is AnyMemTile
    with pytest.raises(npusim.DesignError, match=r"test_iron_extras.py:\d+: fifo 'k' consumer 0: set_endpoint\(\) on "
                                                 "a consumer handle"):
        f.cons().endpoint = ObjectFifoEndpoint(AnyMemTile)
    g = ObjectFifo(ty, name="g")
    with pytest.raises(npusim.DesignError, match=r"set_endpoint\(AnyComputeTile\) needs a mem tile"):
        g.prod().endpoint = ObjectFifoEndpoint(AnyComputeTile)
    with pytest.raises(NotImplementedError, match=r"test_iron_extras.py:\d+: ObjectFifoHandle.endpoint = "):
        g.prod().endpoint = AnyMemTile
