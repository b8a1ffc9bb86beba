"""aie.iron.kernels' linear algebra (mlir-aie python/iron/kernels/linalg.py at 3ca0193): mm's
emulate_bf16_mmul_with_bfp16 flag (its numerics are tested in C++, tests/kernels_ref), and mv and
cascade_mm run in small designs, each output exact against numpy (integer sums wrap at 32 bits as
the kernels' do)."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for

from kernel_designs import _one_core, _sig, keep_current_device  # noqa: F401 (the autouse fixture)


def test_mm_emulate_bf16_mmul_with_bfp16_as_iron_applies_it():
    # linalg.py l.181-189: AIE2P and bf16 inputs only, mac dims (8, 8, 8); ignored on AIE2 and for
    # other inputs. The numerics (bfp16 blocks, conv_even) are tested in C++ (MatmulViaBfp16_test,
    # AieMatmulViaBfp16_test).
    from ml_dtypes import bfloat16
    npusim.iron.set_current_device(device_for("npu2"))
    for out in (bfloat16, np.float32):
        k = kernels.mm(input_dtype=bfloat16, output_dtype=out, emulate_bf16_mmul_with_bfp16=True)
        assert k.mac_dims == (8, 8, 8)
        assert k.name == ("matmul_bf16_bf16" if out is bfloat16 else "matmul_bf16_f32")
    assert kernels.mm(input_dtype=np.int8, output_dtype=np.int8, emulate_bf16_mmul_with_bfp16=True).mac_dims == (8, 8, 8)
    assert kernels.mm(input_dtype=np.int16, output_dtype=np.int32, emulate_bf16_mmul_with_bfp16=True).mac_dims == (4, 4, 8)
    with pytest.raises(npusim.DesignError, match=r"dim_m=64, dim_k=64, dim_n=8 must be multiples of 16, 8 and 16 "
                                                 r"\(2 x 8x8x8 mmul blocks"):
        kernels.mm(dim_n=8, input_dtype=bfloat16, output_dtype=bfloat16, emulate_bf16_mmul_with_bfp16=True)
    npusim.iron.set_current_device(device_for("npu1_1col"))
    assert kernels.mm(input_dtype=bfloat16, output_dtype=bfloat16, emulate_bf16_mmul_with_bfp16=True).mac_dims == (4, 8, 4)


@pytest.mark.parametrize("vectorized", [True, False])
def test_mv_runs_exact_against_numpy(vectorized):
    from npusim.iron import ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    m, k = 32, 64
    mv = kernels.mv(dim_m=m, dim_k=k, vectorized=vectorized)
    assert _sig(mv) == (f"matvec_{'vectorized' if vectorized else 'scalar'}_i16_i32", ["i16[2048]", "i16[64]", "i32[32]"])
    assert mv.zero.name == f"zero_{'vectorized' if vectorized else 'scalar'}_i32"
    a_ty, b_ty, c_ty = (np.ndarray[(n,), np.dtype[t]] for n, t in ((m * k, np.int16), (k, np.int16), (m, np.int32)))
    fa, fb, fc = ObjectFifo(a_ty, name="A"), ObjectFifo(b_ty, name="b"), ObjectFifo(c_ty, name="c")

    def body(ia, ib, oc, zero, matvec):
        ea, eb, ec = ia.acquire(1), ib.acquire(1), oc.acquire(1)
        zero(ec)
        matvec(ea, eb, ec)
        for f in (ia, ib, oc):
            f.release(1)

    p = _one_core((body, [fa.cons(), fb.cons(), fc.prod(), mv.zero, mv]), [a_ty, b_ty, c_ty], [fa.prod(), fb.prod()],
                  fc.cons())
    rng = np.random.default_rng(3)
    A = rng.integers(-32768, 32768, (m, k)).astype(np.int16)
    b = rng.integers(-32768, 32768, k).astype(np.int16)
    # the vectorized kernel reads A transposed in 32-bit words (mv.cc:44-53): pairs of columns, row by row
    host_a = A.reshape(m, k // 2, 2).transpose(1, 0, 2).ravel() if vectorized else A.ravel()
    c = np.zeros(m, np.int32)
    npusim.simulate(p, [np.ascontiguousarray(host_a), b, c])
    want = ((A.astype(np.int64) @ b.astype(np.int64)) & 0xFFFFFFFF).astype(np.uint32).view(np.int32)  # wraps
    assert np.array_equal(c, want)


@pytest.mark.parametrize("out_dtype", [np.int16, np.int32])
def test_cascade_mm_put_only_to_get_only_runs_exact_against_numpy(out_dtype):
    from npusim.iron import Buffer, CascadeFlow, ObjectFifo, Program, Runtime, Worker
    from npusim.iron.device import Tile
    npusim.iron.set_current_device(device_for("npu1"))  # four input fifos: two columns' shim channels
    m, k, n = 8, 16, 8
    cm = kernels.cascade_mm(dim_m=m, dim_k=k, dim_n=n, input_dtype=np.int16, output_dtype=out_dtype)
    suffix = "i16_" + ("i16" if out_dtype == np.int16 else "i32")
    assert cm.get_only is cm and cm.mac_dims == (1, 1, 1)
    assert (cm.put_only.name, cm.put_get.name, cm.zero.name) == (
        f"matmul_scalar_cascade_put_only_{suffix}", f"matmul_scalar_cascade_put_get_{suffix}",
        f"zero_scalar_{suffix[4:]}")
    a_ty = np.ndarray[(m * k,), np.dtype[np.int16]]
    b_ty = np.ndarray[(k * n,), np.dtype[np.int16]]
    c_ty = np.ndarray[(m * n,), np.dtype[out_dtype]]
    fa0, fb0, fa1, fb1 = (ObjectFifo(t, name=nm) for t, nm in ((a_ty, "a0"), (b_ty, "b0"), (a_ty, "a1"), (b_ty, "b1")))
    fc = ObjectFifo(c_ty, name="c")

    def put(ia, ib, c_unused, k_put):
        ea, eb = ia.acquire(1), ib.acquire(1)
        k_put(ea, eb, c_unused)  # put_only leaves C alone (cascade_mm.cc: the three share one signature)
        ia.release(1)
        ib.release(1)

    def get(ia, ib, oc, zero, k_get):
        ea, eb, ec = ia.acquire(1), ib.acquire(1), oc.acquire(1)
        zero(ec)
        k_get(ea, eb, ec)
        for f in (ia, ib, oc):
            f.release(1)

    # cascades run north to south: the put core above the get core
    w_put = Worker(put, [fa0.cons(), fb0.cons(), Buffer(c_ty, name="c_put"), cm.put_only], tile=Tile(0, 3))
    w_get = Worker(get, [fa1.cons(), fb1.cons(), fc.prod(), cm.zero, cm], tile=Tile(0, 2))
    CascadeFlow(w_put, w_get)

    def seq(a0, b0, a1, b1, c, ha0, hb0, ha1, hb1, hc):
        for h, of in ((a0, ha0), (b0, hb0), (a1, ha1), (b1, hb1)):
            of.fill(h)
        hc.drain(c, wait=True)

    rt = Runtime(seq, [a_ty, b_ty, a_ty, b_ty, c_ty, fa0.prod(), fb0.prod(), fa1.prod(), fb1.prod(), fc.cons()])
    p = Program(npusim.iron.get_current_device(), rt, workers=[w_put, w_get]).resolve_program()
    rng = np.random.default_rng(4)
    A0, A1 = (rng.integers(-300, 300, (m, k)).astype(np.int16) for _ in range(2))
    B0, B1 = (rng.integers(-300, 300, (k, n)).astype(np.int16) for _ in range(2))
    c = np.zeros(m * n, out_dtype)
    npusim.simulate(p, [A0.ravel(), B0.ravel(), A1.ravel(), B1.ravel(), c])
    want = A0.astype(np.int64) @ B0.astype(np.int64) + A1.astype(np.int64) @ B1.astype(np.int64)
    assert np.array_equal(c, want.ravel().astype(out_dtype))
