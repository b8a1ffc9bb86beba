"""aie.iron.kernels' 1x1 convolutions (mlir-aie python/iron/kernels/conv.py at 3ca0193): conv2dk1_i8,
conv2dk1, conv2dk1_skip, conv2dk1_skip_init and the bottleneck 1x1 factories, built with IRON's
signature and run in small designs, each output exact against numpy."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for

from kernel_designs import _oiyxi8o8, _one_core, _sig, _ycxc8, keep_current_device  # noqa: F401



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
