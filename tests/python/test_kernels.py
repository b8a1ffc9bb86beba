"""aie.iron.kernels: each factory npusim serves, built with IRON's signature (mlir-aie
python/iron/kernels/ at 3ca0193: names, keyword arguments and defaults, the kernel symbol and
argument types each returns); the factories IRON ships that the library lacks say so. The kernels' numerics are tested in C++
(tests/kernels_ref, the ml/swiglu design)."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for


def _sig(k):
    n = k._native
    return k.name, [n.arg_type(i) for i in range(n.arg_count)]


BF16_TILE = "bf16[1024]"


@pytest.fixture(autouse=True)
def _keep_current_device():
    """Tests here pick devices; each leaves the current device as it found it."""
    dev = npusim.iron.get_current_device()
    yield
    npusim.iron.set_current_device(dev)


@pytest.mark.parametrize("call,name,types", [
    (lambda: kernels.passthrough(tile_size=4096, dtype=np.int32), "passThroughLine", ["i32[4096]", "i32[4096]", "i32 scalar"]),
    (lambda: kernels.scale(tile_size=1024, dtype=np.int16, vectorized=False, use_chess=False),
     "vector_scalar_mul_scalar", ["i16[1024]", "i16[1024]", "i32[1]", "i32 scalar"]),
    (lambda: kernels.add(tile_size=1024, vectorized=True), "eltwise_add_bf16_vector", [BF16_TILE] * 3),
    (lambda: kernels.mul(tile_size=1024, vectorized=False), "eltwise_mul_bf16_scalar", [BF16_TILE] * 3),
    (lambda: kernels.relu(tile_size=1024), "bf16_relu", [BF16_TILE] * 2),
    (lambda: kernels.reduce_add(tile_size=1024, dtype=np.int32, vectorized=True), "reduce_add_vector",
     ["i32[1024]", "i32[1]", "i32 scalar"]),
    (lambda: kernels.reduce_min(tile_size=512, dtype=np.int32, vectorized=False), "reduce_min_scalar",
     ["i32[512]", "i32[1]", "i32 scalar"]),
    (lambda: kernels.reduce_max(tile_size=1024, dtype="bfloat16", vectorized=True), "reduce_max_vector_bfloat16",
     [BF16_TILE, "bf16[2]", "i32 scalar"]),
    (lambda: kernels.compute_max(dtype=np.int32), "compute_max", ["i32[1]"] * 3),
    (lambda: kernels.bf16_exp(tile_size=1024), "exp_bf16_1024", [BF16_TILE] * 2),
    (lambda: kernels.softmax(tile_size=1024), "softmax_bf16", [BF16_TILE, BF16_TILE, "i32 scalar"]),
    (lambda: kernels.gelu(tile_size=1024), "gelu_bf16", [BF16_TILE] * 2),
    (lambda: kernels.silu(tile_size=1024), "silu_bf16", [BF16_TILE] * 2),
    (lambda: kernels.swiglu(tile_size=1024), "swiglu_bf16", [BF16_TILE] * 4),
    (lambda: kernels.rgba2hue(line_width=64), "rgba2hueLine", ["u8[256]", "u8[64]", "i32 scalar"]),
    (lambda: kernels.threshold(line_width=64, dtype=np.uint8), "thresholdLine",
     ["u8[64]", "u8[64]", "i32 scalar", "i16 scalar", "i16 scalar", "i8 scalar"]),
    (lambda: kernels.bitwise_or(line_width=64), "bitwiseORLine", ["u8[64]"] * 3 + ["i32 scalar"]),
    (lambda: kernels.bitwise_and(line_width=64, dtype=np.uint8), "bitwiseANDLine", ["u8[64]"] * 3 + ["i32 scalar"]),
    (lambda: kernels.gray2rgba(line_width=64), "gray2rgbaLine", ["u8[64]", "u8[256]", "i32 scalar"]),
    (lambda: kernels.rgba2gray(line_width=64), "rgba2grayLine", ["u8[256]", "u8[64]", "i32 scalar"]),
    (lambda: kernels.filter2d(line_width=64), "filter2dLine", ["u8[64]"] * 4 + ["i32 scalar", "i16[3,3]"]),
    (lambda: kernels.add_weighted(line_width=64), "addWeightedLine",
     ["u8[64]"] * 3 + ["i32 scalar", "i16 scalar", "i16 scalar", "i8 scalar"]),
])
def test_factory_with_irons_signature(call, name, types):
    for dev in (device_for("npu1_1col"), device_for("npu2")):
        npusim.iron.set_current_device(dev)
        assert _sig(call()) == (name, types)


def test_fixed_tile_factories_refuse_other_sizes_as_iron_does():
    for f in (kernels.gelu, kernels.silu, kernels.swiglu):
        with pytest.raises(Exception, match=r"tile_size must be 1024 to match the hard-coded C\+\+ loop bound, got 512"):
            f(tile_size=512)


def test_factories_npusim_lacks_name_themselves():
    # every factory of IRON's kernels/ at 3ca0193 is served; a name beyond them (a later IRON's) says so
    for name in ("bn_conv2dk5_dw", "conv2dk7"):
        with pytest.raises(NotImplementedError, match=f"aie.iron.kernels.{name} is not supported by npusim "
                                                      r"\(not in its kernel library\)"):
            getattr(kernels, name)(dim_m=64)


def test_mm_zero_and_mac_dims():
    for dev, dims in (("npu1_1col", (4, 4, 4)), ("npu2", (4, 4, 8))):
        npusim.iron.set_current_device(device_for(dev))
        k = kernels.mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=np.int16, output_dtype=np.int32, vectorized=True,
                       b_col_maj=False, c_col_maj=False, use_chess=False)
        assert k.name == "matmul_i16_i32"
        assert k.zero.name == "zero_i32"
        assert k.mac_dims == dims
    npusim.iron.set_current_device(device_for("npu2"))
    assert kernels.mm(input_dtype=np.int8, output_dtype=np.int8).mac_dims == (8, 8, 8)
    with pytest.raises(Exception, match="i32"):
        kernels.mm(input_dtype=np.int32, output_dtype=np.int32)
    # the harness library's refusal (one home for mm's rules), located at the call
    with pytest.raises(npusim.DesignError, match=r"test_kernels.py:\d+: mm\(\): b_col_maj=True is not in npusim's "
                                                 "kernel library"):
        kernels.mm(b_col_maj=True)


@pytest.mark.parametrize("dev", ["npu1_1col", "npu2"])
@pytest.mark.parametrize("name,atol", [("silu", 0.0), ("gelu", 0.05)])
def test_activations_run_through_transform_parallel_within_irons_reference(dev, name, atol):
    # eltwise_unary's shape: transform_parallel with pass_size_to_kernel=False; IRON's silu_ref / gelu_ref
    # with the tolerances their docstrings give (rtol 0.128; gelu atol 0.05)
    from ml_dtypes import bfloat16
    from npusim.iron import algorithms

    npusim.iron.set_current_device(device_for(dev))
    vec = np.ndarray[(8192,), np.dtype[bfloat16]]
    x = np.random.default_rng(0).uniform(-4, 4, 8192).astype(bfloat16)
    out = np.zeros(8192, dtype=bfloat16)
    prog = algorithms.transform_parallel(getattr(kernels, name)(tile_size=1024), vec, tile_size=1024,
                                         pass_size_to_kernel=False)
    npusim.simulate(prog, [x, out])
    got = out.astype(np.float32)
    want = getattr(kernels, name + "_ref")(x).astype(np.float32)
    assert np.all((got == want) | (np.abs(got - want) <= np.maximum(atol, 0.128 * (np.abs(got) + np.abs(want)))))
    assert not np.array_equal(got, x.astype(np.float32))


# mv, cascade_mm and the conv factories (linalg.py, conv.py): built with IRON's signature, run in
# small designs, each output exact against numpy (integer sums wrap at 32 bits as the kernels' do)
def _ycxc8(m):
    """[x][c] -> the YCXC8 layout [c/8][x][8] (conv2d.hpp)."""
    return np.ascontiguousarray(m.reshape(m.shape[0], -1, 8).transpose(1, 0, 2).ravel())


def _oiyxi8o8(m):
    """Weights [o][i] -> the OIYXI8O8 layout [o/8][i/8][i%8][o%8] of a 1x1 kernel."""
    return np.ascontiguousarray(m.reshape(m.shape[0] // 8, 8, m.shape[1] // 8, 8).transpose(0, 2, 3, 1).ravel())


def _one_core(worker, host_types, fills, drain):
    """A design of one worker ((body, its arguments)): the runtime fills the input fifos `fills` from
    the host and drains the output fifo `drain`."""
    from npusim.iron import Program, Runtime, Worker
    w = Worker(worker[0], worker[1])

    def seq(*a):
        n = len(host_types)
        hosts, handles = a[:n], a[n:]
        for h, of in zip(hosts[:-1], handles[:-1]):
            of.fill(h)
        handles[-1].drain(hosts[-1], wait=True)

    return Program(npusim.iron.get_current_device(), Runtime(seq, host_types + fills + [drain]),
                   workers=[w]).resolve_program()


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


def test_conv2dk1_i8_runs_exact_against_numpy():
    from npusim.iron import ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, scale = 8, 16, 16, 3
    conv = kernels.conv2dk1_i8(input_width=w, input_channels=ci, output_channels=co)
    assert _sig(conv) == ("conv2dk1_i8", ["i8[128]", "i8[256]", "i8[128]"] + ["i32 scalar"] * 4)
    in_ty, wt_ty, out_ty = (np.ndarray[(n,), np.dtype[np.int8]] for n in (w * ci, ci * co, w * co))
    fi, fw, fo = ObjectFifo(in_ty, name="act"), ObjectFifo(wt_ty, name="wts"), ObjectFifo(out_ty, name="out")

    def body(ia, iw, oo, k):
        ea, ew, eo = ia.acquire(1), iw.acquire(1), oo.acquire(1)
        k(ea, ew, eo, w, ci, co, scale)
        for f in (ia, iw, oo):
            f.release(1)

    p = _one_core((body, [fi.cons(), fw.cons(), fo.prod(), conv]), [in_ty, wt_ty, out_ty], [fi.prod(), fw.prod()],
                  fo.cons())
    rng = np.random.default_rng(6)
    x = rng.integers(-8, 9, (w, ci)).astype(np.int8)  # pixel x, channel c (small: many ties, few clamps)
    wts = rng.integers(-8, 9, (co, ci)).astype(np.int8)  # output channel o, input channel c
    # layouts (conv2d.hpp): input [ci/8][x][8], weights [co/8][ci/8][ci%8][co%8], output [co/8][x][8]
    host_in = _ycxc8(x)
    host_w = _oiyxi8o8(wts)
    out = np.zeros(w * co, np.int8)
    npusim.simulate(p, [host_in, host_w, out])
    s = x.astype(np.int64) @ wts.astype(np.int64).T  # [x][o]
    # ties away from zero (the vector kernel IRON builds: symmetric_inf, conv2dk1_i8.cc:98-101); the
    # data has negative ties, where rounding half up would differ
    assert np.any((s < 0) & ((-s) % (1 << scale) == (1 << (scale - 1))))
    want = np.clip(np.sign(s) * ((np.abs(s) + (1 << (scale - 1))) >> scale), -128, 127).astype(np.int8)
    assert np.array_equal(out, _ycxc8(want))


@pytest.mark.parametrize("act", [np.int8, np.uint8])
def test_conv2dk1_runs_exact_against_numpy(act):
    from npusim.iron import ObjectFifo
    npusim.iron.set_current_device(device_for("npu2"))
    w, ci, co, scale = 8, 16, 16, 3
    conv = kernels.conv2dk1(input_width=w, input_channels=ci, output_channels=co, act_dtype=act)
    a = "i8" if act == np.int8 else "u8"
    assert _sig(conv) == ("conv2dk1_i8" if act == np.int8 else "conv2dk1_ui8",
                          [f"{a}[128]", "i8[256]", "u8[128]"] + ["i32 scalar"] * 4)
    in_ty = np.ndarray[(w * ci,), np.dtype[act]]
    wt_ty, out_ty = np.ndarray[(ci * co,), np.dtype[np.int8]], np.ndarray[(w * co,), np.dtype[np.uint8]]
    fi, fw, fo = ObjectFifo(in_ty, name="act"), ObjectFifo(wt_ty, name="wts"), ObjectFifo(out_ty, name="out")

    def body(ia, iw, oo, k):
        ea, ew, eo = ia.acquire(1), iw.acquire(1), oo.acquire(1)
        k(ea, ew, eo, w, ci, co, scale)
        for f in (ia, iw, oo):
            f.release(1)

    p = _one_core((body, [fi.cons(), fw.cons(), fo.prod(), conv]), [in_ty, wt_ty, out_ty], [fi.prod(), fw.prod()],
                  fo.cons())
    rng = np.random.default_rng(7)
    x = rng.integers(0 if act == np.uint8 else -8, 16 if act == np.uint8 else 9, (w, ci)).astype(act)
    wts = rng.integers(-8, 9, (co, ci)).astype(np.int8)
    out = np.zeros(w * co, np.uint8)
    npusim.simulate(p, [_ycxc8(x),
                        _oiyxi8o8(wts), out])
    s = x.astype(np.int64) @ wts.astype(np.int64).T
    # half up, saturated to [0, 255] (conv2dk1.cc: positive_inf, saturate): negative sums give 0
    want = np.clip((s + (1 << (scale - 1))) >> scale, 0, 255).astype(np.uint8)
    assert np.any(want == 0) and np.any(want > 0)
    assert np.array_equal(out, _ycxc8(want))
    with pytest.raises(npusim.DesignError, match="conv2dk1\\(\\): act_dtype must be np.int8 or np.uint8, got i16"):
        kernels.conv2dk1(act_dtype=np.int16)


@pytest.mark.parametrize("act", [np.int8, np.uint8])
def test_conv2dk1_skip_runs_exact_against_numpy(act):
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu2"))
    w, ci, co, scale, skip_scale = 8, 32, 16, 4, 1
    conv = kernels.conv2dk1_skip(input_width=w, input_channels=ci, output_channels=co, act_dtype=act)
    a = "i8" if act == np.int8 else "u8"
    assert _sig(conv) == ("conv2dk1_skip_" + ("i8" if act == np.int8 else "ui8"),
                          ["u8[128]", "u8[128]", "i8[512]", "u8[128]", f"{a}[128]"] + ["i32 scalar"] * 5)
    half_ty, wt_ty = np.ndarray[(w * ci // 2,), np.dtype[np.uint8]], np.ndarray[(ci * co,), np.dtype[np.int8]]
    out_ty, skip_ty = np.ndarray[(w * co,), np.dtype[np.uint8]], np.ndarray[(w * co,), np.dtype[act]]
    rng = np.random.default_rng(8)
    x = rng.integers(0, 12, (w, ci)).astype(np.uint8)
    wts = rng.integers(-128, 128, (co, ci)).astype(np.int8)
    skip = rng.integers(np.iinfo(act).min, np.iinfo(act).max + 1, (w, co)).astype(act)

    # a core tile has two input DMA channels: the halves come through fifos, weights and skip are
    # the core's own buffers
    f0, f1, fo = ObjectFifo(half_ty, name="in0"), ObjectFifo(half_ty, name="in1"), ObjectFifo(out_ty, name="out")
    bw = Buffer(wt_ty, name="wts", initial_value=_oiyxi8o8(wts))
    bs = Buffer(skip_ty, name="skip", initial_value=_ycxc8(skip))

    def body(i0, i1, oo, bw, bs, k):
        e0, e1, eo = i0.acquire(1), i1.acquire(1), oo.acquire(1)
        k(e0, e1, bw, eo, bs, w, ci, co, scale, skip_scale)
        for f in (i0, i1, oo):
            f.release(1)

    p = _one_core((body, [f0.cons(), f1.cons(), fo.prod(), bw, bs, conv]), [half_ty, half_ty, out_ty],
                  [f0.prod(), f1.prod()], fo.cons())
    out = np.zeros(w * co, np.uint8)
    npusim.simulate(p, [_ycxc8(x[:, :ci // 2]), _ycxc8(x[:, ci // 2:]), out])
    s = x.astype(np.int64) @ wts.astype(np.int64).T
    conv = np.clip((s + (1 << (scale - 1))) >> scale, -128, 127)  # half up, saturated to int8
    want = np.clip((conv + skip.astype(np.int64) + (1 << (skip_scale - 1))) >> skip_scale, 0, 255).astype(np.uint8)
    assert np.array_equal(out, _ycxc8(want))


def test_conv2dk1_skip_init_runs_exact_against_numpy():
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, cs, scale, skip_scale, scale_skip = 8, 32, 16, 16, 5, 1, 4
    conv = kernels.conv2dk1_skip_init(input_width=w, input_channels=ci, output_channels=co, act_dtype=np.int8,
                                      skip_input_channels=cs)
    assert _sig(conv) == ("conv2dk1_skip_init_i8", ["u8[128]", "u8[128]", "i8[768]", "u8[128]", "i8[128]"] +
                          ["i32 scalar"] * 7)
    with pytest.raises(npusim.DesignError, match="it computes nothing"):
        kernels.conv2dk1_skip_init(act_dtype=np.uint8)
    half_ty, out_ty = np.ndarray[(w * ci // 2,), np.dtype[np.uint8]], np.ndarray[(w * co,), np.dtype[np.uint8]]
    rng = np.random.default_rng(9)
    x = rng.integers(0, 12, (w, ci)).astype(np.uint8)
    wts = rng.integers(-128, 128, (co, ci)).astype(np.int8)
    wskip = rng.integers(-128, 128, (co, cs)).astype(np.int8)
    skip = rng.integers(-128, 128, (w, cs)).astype(np.int8)

    f0, f1, fo = ObjectFifo(half_ty, name="in0"), ObjectFifo(half_ty, name="in1"), ObjectFifo(out_ty, name="out")
    bw = Buffer(np.ndarray[((ci + cs) * co,), np.dtype[np.int8]], name="wts",
                initial_value=np.concatenate([_oiyxi8o8(wts), _oiyxi8o8(wskip)]))
    bs = Buffer(np.ndarray[(w * cs,), np.dtype[np.int8]], name="skip", initial_value=_ycxc8(skip))

    def body(i0, i1, oo, bw, bs, k):
        e0, e1, eo = i0.acquire(1), i1.acquire(1), oo.acquire(1)
        k(e0, e1, bw, eo, bs, w, ci, co, cs, scale, skip_scale, scale_skip)
        for f in (i0, i1, oo):
            f.release(1)

    p = _one_core((body, [f0.cons(), f1.cons(), fo.prod(), bw, bs, conv]), [half_ty, half_ty, out_ty],
                  [f0.prod(), f1.prod()], fo.cons())
    out = np.zeros(w * co, np.uint8)
    npusim.simulate(p, [_ycxc8(x[:, :ci // 2]), _ycxc8(x[:, ci // 2:]), out])

    def half_up_i8(v, s):
        return np.clip((v + (1 << (s - 1))) >> s, -128, 127)

    a = half_up_i8(x.astype(np.int64) @ wts.astype(np.int64).T, scale)
    b = half_up_i8(skip.astype(np.int64) @ wskip.astype(np.int64).T, scale_skip)
    want = np.clip((a + b + (1 << (skip_scale - 1))) >> skip_scale, 0, 255).astype(np.uint8)
    assert np.array_equal(out, _ycxc8(want))


@pytest.mark.parametrize("w", [8, 14])  # the scalar loops take any width: mobilenet's bn6.. run 14
@pytest.mark.parametrize("skip_dtype", [np.int8, np.uint8])
def test_bn_conv2dk1_skip_runs_exact_against_numpy(skip_dtype, w):
    # -DREGULAR -DSCALAR [-DUNSIGNED_SKIP]: uint8 in, to even at scale, saturated to int8, + skip, to
    # even at skip_scale, saturated to int8
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    ci, co, scale, skip_scale = 16, 16, 4, 1
    conv = kernels.bn_conv2dk1_skip(input_width=w, input_channels=ci, output_channels=co, skip_dtype=skip_dtype)
    assert conv.name == ("conv2dk1_skip_ui8_i8_i8" if skip_dtype == np.int8 else "conv2dk1_skip_ui8_ui8_i8")
    with pytest.raises(npusim.DesignError, match="skip_dtype must be np.uint8 or np.int8, got i16"):
        kernels.bn_conv2dk1_skip(skip_dtype=np.int16)
    rng = np.random.default_rng(11)
    x = rng.integers(0, 16, (w, ci)).astype(np.uint8)
    wts = rng.integers(-128, 128, (co, ci)).astype(np.int8)
    skip = rng.integers(np.iinfo(skip_dtype).min, np.iinfo(skip_dtype).max + 1, (w, co)).astype(skip_dtype)

    in_ty, out_ty = np.ndarray[(w * ci,), np.dtype[np.uint8]], np.ndarray[(w * co,), np.dtype[np.int8]]
    fi, fo = ObjectFifo(in_ty, name="act"), ObjectFifo(out_ty, name="out")
    bw = Buffer(np.ndarray[(ci * co,), np.dtype[np.int8]], name="wts",
                initial_value=_oiyxi8o8(wts))
    bs = Buffer(np.ndarray[(w * co,), np.dtype[skip_dtype]], name="skip", initial_value=_ycxc8(skip))

    def body(ia, oo, bw, bs, k):
        ea, eo = ia.acquire(1), oo.acquire(1)
        k(ea, bw, eo, bs, w, ci, co, scale, skip_scale)
        ia.release(1)
        oo.release(1)

    p = _one_core((body, [fi.cons(), fo.prod(), bw, bs, conv]), [in_ty, out_ty], [fi.prod()], fo.cons())
    out = np.zeros(w * co, np.int8)
    npusim.simulate(p, [_ycxc8(x), out])

    def even(v, s):  # the source's formula
        return (v + (1 << (s - 1)) - 1 + ((v >> s) & 1)) >> s

    c = np.clip(even(x.astype(np.int64) @ wts.astype(np.int64).T, scale), -128, 127)
    want = np.clip(even(c + skip.astype(np.int64), skip_scale), -128, 127).astype(np.int8)
    assert np.array_equal(out, _ycxc8(want))


@pytest.mark.parametrize("w", [8, 14, 3])  # any width, as the scalar loops (pipeline.py:79, regular.py:91: 14)
@pytest.mark.parametrize("factory", ["bn_conv2dk1_relu", "bn_conv2dk1_i8"])
def test_bottleneck_1x1_runs_exact_against_numpy(factory, w):
    # -DREGULAR builds: int8 -> uint8 (relu) or uint8 -> int8, the shifted sums rounded to even
    from npusim.iron import ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    ci, co, scale = 16, 16, 2
    tin, tout = (np.int8, np.uint8) if factory == "bn_conv2dk1_relu" else (np.uint8, np.int8)
    conv = getattr(kernels, factory)(input_width=w, input_channels=ci, output_channels=co)
    assert conv.name == ("conv2dk1_relu_i8_ui8" if factory == "bn_conv2dk1_relu" else "conv2dk1_ui8_i8")
    in_ty, wt_ty = np.ndarray[(w * ci,), np.dtype[tin]], np.ndarray[(ci * co,), np.dtype[np.int8]]
    out_ty = np.ndarray[(w * co,), np.dtype[tout]]
    fi, fw, fo = ObjectFifo(in_ty, name="act"), ObjectFifo(wt_ty, name="wts"), ObjectFifo(out_ty, name="out")

    def body(ia, iw, oo, k):
        ea, ew, eo = ia.acquire(1), iw.acquire(1), oo.acquire(1)
        k(ea, ew, eo, w, ci, co, scale)
        for f in (ia, iw, oo):
            f.release(1)

    p = _one_core((body, [fi.cons(), fw.cons(), fo.prod(), conv]), [in_ty, wt_ty, out_ty], [fi.prod(), fw.prod()],
                  fo.cons())
    rng = np.random.default_rng(10)
    x = (rng.integers(-8, 9, (w, ci)) if tin == np.int8 else rng.integers(0, 9, (w, ci))).astype(tin)
    wts = rng.integers(-8, 9, (co, ci)).astype(np.int8)
    out = np.zeros(w * co, tout)
    npusim.simulate(p, [_ycxc8(x),
                        _oiyxi8o8(wts), out])
    s = x.astype(np.int64) @ wts.astype(np.int64).T
    assert np.any(s % (1 << scale) == (1 << (scale - 1)))  # ties, where half-to-even matters
    r = (s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale  # the sources' formula
    want = np.clip(r, np.iinfo(tout).min, np.iinfo(tout).max).astype(tout)
    assert np.array_equal(out, _ycxc8(want))
