"""aie.iron.kernels' 3x3 and 14x14 convolutions (conv.py conv2dk3, conv2dk14 at 3ca0193): IRON's
signature, the refusals npusim names, and each kernel run in a one-core design, exact against numpy."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for
from kernel_designs import _one_core, _sig, _ycxc8, keep_current_device  # noqa: F401 (the autouse fixture)


def _k3_weights(m):
    """Weights [o][i][ky][kx] -> OIYXI8O8 [o/8][i/8][ky][kx][i%8][o%8]."""
    o, i = m.shape[:2]
    return np.ascontiguousarray(m.reshape(o // 8, 8, i // 8, 8, 3, 3).transpose(0, 2, 4, 5, 3, 1).ravel())


def test_conv2dk3_signature_and_refusals():
    k = kernels.conv2dk3(input_width=32, input_channels=64, output_channels=32, weight_output_channels=64,
                         act_dtype=np.uint8)
    assert _sig(k) == ("conv2dk3_ui8", ["u8[2048]"] * 3 + ["i8[36864]", "u8[1024]"] + ["i32 scalar"] * 8)
    with pytest.raises(npusim.DesignError, match=r"act_dtype=int8 builds aie2/conv2dk3.cc with -DINT8_ACT, which "
                                                 r"does not compile"):
        kernels.conv2dk3()
    with pytest.raises(npusim.DesignError, match="input_width=64: aie2/conv2dk3.cc's vector kernel computes 32 pixels"):
        kernels.conv2dk3(input_width=64, act_dtype=np.uint8)


@pytest.mark.parametrize("check", [0, 1, 2])
def test_conv2dk3_runs_exact_against_numpy(check):
    # a channel slice (channel_offset) of weights for twice the output channels, as ml/bottleneck's
    # two 3x3 workers share theirs; zero border, no row above at the top (0), none below at the bottom (2)
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, wco, offset, scale = 32, 16, 8, 16, 8, 6
    conv = kernels.conv2dk3(input_width=w, input_channels=ci, output_channels=co, weight_output_channels=wco,
                            act_dtype=np.uint8)
    rng = np.random.default_rng(12)
    rows = rng.integers(0, 256, (3, w, ci)).astype(np.uint8)
    wts = rng.integers(-128, 128, (wco, ci, 3, 3)).astype(np.int8)
    line_ty, out_ty = np.ndarray[(w * ci,), np.dtype[np.uint8]], np.ndarray[(w * co,), np.dtype[np.uint8]]
    lines_ty = np.ndarray[(3 * w * ci,), np.dtype[np.uint8]]
    fl, fo = ObjectFifo(line_ty, name="lines", depth=3), ObjectFifo(out_ty, name="out")
    bw = Buffer(np.ndarray[(9 * ci * wco,), np.dtype[np.int8]], name="wts", initial_value=_k3_weights(wts))

    def body(il, oo, bw, k):
        el, eo = il.acquire(3), oo.acquire(1)
        k(el[0], el[1], el[2], bw, eo, w, ci, co, 3, 3, check, scale, offset)
        il.release(3)
        oo.release(1)

    p = _one_core((body, [fl.cons(), fo.prod(), bw, conv]), [lines_ty, out_ty], [fl.prod()], fo.cons())
    out = np.zeros(w * co, np.uint8)
    npusim.simulate(p, [np.concatenate([_ycxc8(rows[i]) for i in range(3)]), out])

    img = np.zeros((3, w + 2, ci), np.int64)
    for r in range(3):
        if not ((r == 0 and check == 0) or (r == 2 and check == 2)):
            img[r, 1:w + 1] = rows[r]
    win = np.stack([img[:, x:x + 3] for x in range(w)])  # [x][ky][kx][ci]
    s = np.einsum("xyki,oiyk->xo", win, wts[offset:offset + co].astype(np.int64))
    want = np.clip((s + (1 << (scale - 1))) >> scale, 0, 255).astype(np.uint8)
    assert np.array_equal(out, _ycxc8(want))


def test_conv2dk14_signature_and_refusals():
    k = kernels.conv2dk14()
    assert _sig(k) == ("conv2dk14_i8", ["u8[12544]", "i8[12544]", "i8[2048]"] + ["i32 scalar"] * 5)
    with pytest.raises(npusim.DesignError, match="kernel_width=7: aie2p/conv2dk14.cc's vector kernel reads its second "
                                                 "tile group"):
        kernels.conv2dk14(kernel_width=7)


@pytest.mark.parametrize("dev", ["npu2", "npu1_1col"])
def test_conv2dk14_runs_exact_against_numpy(dev):
    # IRON's default row (224 pixels: 16 tiles of 14x14 RGBA), 16 channels; int8 out, ties away from zero
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for(dev))
    w, co, kw, scale = 224, 16, 14, 10
    tiles, px = w // kw, kw * kw
    conv = kernels.conv2dk14(input_width=w, output_channels=co, kernel_width=kw)
    rng = np.random.default_rng(14)
    img = rng.integers(0, 256, (tiles, px, 4)).astype(np.uint8)
    wts = rng.integers(-128, 128, (co, px, 4)).astype(np.int8)
    in_ty = np.ndarray[(tiles * px * 4,), np.dtype[np.uint8]]
    out_ty = np.ndarray[(co * tiles * 8,), np.dtype[np.int8]]
    fi, fo = ObjectFifo(in_ty, name="tiles"), ObjectFifo(out_ty, name="out")
    w_lay = wts.reshape(co // 8, 8, px // 2, 2, 4).transpose(0, 2, 3, 4, 1).ravel()
    bw = Buffer(np.ndarray[(co * px * 4,), np.dtype[np.int8]], name="wts", initial_value=np.ascontiguousarray(w_lay))

    def body(ii, oo, bw, k):
        ei, eo = ii.acquire(1), oo.acquire(1)
        k(ei, bw, eo, w, 4, co, kw, scale)
        ii.release(1)
        oo.release(1)

    p = _one_core((body, [fi.cons(), fo.prod(), bw, conv]), [in_ty, out_ty], [fi.prod()], fo.cons())
    out = np.zeros(co * tiles * 8, np.int8)
    x = img.reshape(tiles // 8, 8, px // 2, 2, 4).transpose(0, 2, 1, 3, 4).ravel()
    npusim.simulate(p, [np.ascontiguousarray(x), out])

    s = np.einsum("tpc,opc->to", img.astype(np.int64), wts.astype(np.int64))
    r = np.sign(s) * ((np.abs(s) + (1 << (scale - 1))) >> scale)
    want = np.clip(r, -128, 127).astype(np.int8).reshape(tiles // 8, 8, co // 8, 8).transpose(2, 0, 1, 3).ravel()
    assert np.array_equal(out[:co * tiles], want)


@pytest.mark.parametrize("call_ci", [16, 1])  # the kernel never reads input_channels; regular.py:535 passes 1
@pytest.mark.parametrize("stride", [1, 2])
def test_bn_conv2dk3_dw_runs_exact_against_numpy(stride, call_ci):
    # -DREGULAR -DSCALAR -DSTRIDE<stride>: each channel alone, zero border, to even, clamped to uint8
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, c, scale, check = 16, 16, 3, 1
    conv = kernels.bn_conv2dk3_dw(input_width=w, input_channels=c, output_channels=c, stride=stride)
    assert conv.name == f"conv2dk3_dw_stride{stride}_relu_ui8_ui8"
    with pytest.raises(npusim.DesignError, match="stride must be 1 or 2, got 4"):
        kernels.bn_conv2dk3_dw(stride=4)
    rng = np.random.default_rng(20 + stride)
    rows = rng.integers(0, 16, (3, w, c)).astype(np.uint8)
    wts = rng.integers(-128, 128, (c, 3, 3)).astype(np.int8)
    line_ty = np.ndarray[(w * c,), np.dtype[np.uint8]]
    out_ty = np.ndarray[(w // stride * c,), np.dtype[np.uint8]]
    fl, fo = ObjectFifo(line_ty, name="lines", depth=3), ObjectFifo(out_ty, name="out")
    w_lay = wts.reshape(c // 8, 8, 3, 3).transpose(0, 2, 3, 1).ravel()  # [c/8][ky][kx][c%8]
    bw = Buffer(np.ndarray[(9 * c,), np.dtype[np.int8]], name="wts", initial_value=np.ascontiguousarray(w_lay))

    def body(il, oo, bw, k):
        el, eo = il.acquire(3), oo.acquire(1)
        k(el[0], el[1], el[2], bw, eo, w, call_ci, c, 3, 3, check, scale, 0)
        il.release(3)
        oo.release(1)

    p = _one_core((body, [fl.cons(), fo.prod(), bw, conv]), [np.ndarray[(3 * w * c,), np.dtype[np.uint8]], out_ty],
                  [fl.prod()], fo.cons())
    out = np.zeros(w // stride * c, np.uint8)
    npusim.simulate(p, [np.concatenate([_ycxc8(rows[i]) for i in range(3)]), out])

    img = np.zeros((3, w + 2, c), np.int64)
    img[:, 1:w + 1] = rows
    s = sum(img[ky, kx:kx + w] * wts[:, ky, kx].astype(np.int64) for ky in range(3) for kx in range(3))[::stride]
    r = (s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale  # the source's formula
    assert np.any(s % (1 << scale) == (1 << (scale - 1)))  # ties
    assert np.array_equal(out, _ycxc8(np.clip(r, 0, 255).astype(np.uint8)))


def test_bn_conv2dk3_runs_exact_against_numpy():
    # bn_conv2dk3.cc (no flags): int8 rows, every second pixel, to even, clamped to uint8
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, scale, check = 16, 16, 8, 4, 1
    conv = kernels.bn_conv2dk3(input_width=w, input_channels=ci, output_channels=co)
    assert conv.name == "conv2dk3_stride2_i8"
    rng = np.random.default_rng(33)
    rows = rng.integers(-8, 8, (3, w, ci)).astype(np.int8)
    wts = rng.integers(-128, 128, (co, ci, 3, 3)).astype(np.int8)
    line_ty, out_ty = np.ndarray[(w * ci,), np.dtype[np.int8]], np.ndarray[(w // 2 * co,), np.dtype[np.uint8]]
    fl, fo = ObjectFifo(line_ty, name="lines", depth=3), ObjectFifo(out_ty, name="out")
    bw = Buffer(np.ndarray[(9 * ci * co,), np.dtype[np.int8]], name="wts", initial_value=_k3_weights(wts))

    def body(il, oo, bw, k):
        el, eo = il.acquire(3), oo.acquire(1)
        k(el[0], el[1], el[2], bw, eo, w, ci, co, 3, 3, check, scale, 0)
        il.release(3)
        oo.release(1)

    p = _one_core((body, [fl.cons(), fo.prod(), bw, conv]), [np.ndarray[(3 * w * ci,), np.dtype[np.int8]], out_ty],
                  [fl.prod()], fo.cons())
    out = np.zeros(w // 2 * co, np.uint8)
    npusim.simulate(p, [np.concatenate([_ycxc8(rows[i]) for i in range(3)]), out])

    img = np.zeros((3, w + 2, ci), np.int64)
    img[:, 1:w + 1] = rows
    win = np.stack([img[:, x:x + 3] for x in range(0, w, 2)])  # centred on 2x
    s = np.einsum("xyki,oiyk->xo", win, wts.astype(np.int64))
    r = (s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale
    assert np.array_equal(out, _ycxc8(np.clip(r, 0, 255).astype(np.uint8)))


def test_bn_conv2dk1_partial_halves_run_exact_across_a_cascade():
    # bn_conv2dk1_i8.cc -DBN13_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW puts the first channel half's sums of
    # pixels 0..6; bn_conv2dk1_relu.cc -DBN13_1_PARTIAL_GET_I8_CAS_WIDTH_NEW adds the second half's,
    # rounds to even and clamps to uint8 (ReLU)
    from npusim.iron import Buffer, CascadeFlow, ObjectFifo, Program, Runtime, Worker
    from npusim.iron.device import Tile
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, oc, scale = 7, 32, 16, 1, 8
    chunk, wc = ci // 2, 2 * 8 * (ci // 2)
    put = kernels.bn_conv2dk1_partial_put_i8(input_width=w, input_channels=ci, weight_count=wc)
    get = kernels.bn_conv2dk1_partial_get_relu_i8(input_width=w, input_channels=ci, output_channels=co,
                                                  weight_count=wc, block_index=13)
    assert _sig(put) == ("bn13_1_conv2dk1_i8_ui8_partial_width_put_new", [f"i8[{w * ci}]", f"i8[{wc}]"] +
                         ["i32 scalar"] * 7)
    assert _sig(get)[0] == "bn13_1_conv2dk1_i8_ui8_partial_width_get_new"
    with pytest.raises(npusim.DesignError, match=r"block_index must be 13 or 14 \(the only per-block symbols "
                                                 r"defined in the .cc\), got 12"):
        kernels.bn_conv2dk1_partial_put_i8(block_index=12)
    rng = np.random.default_rng(54)
    act = rng.integers(-128, 128, (w, ci)).astype(np.int8)
    wts = rng.integers(-128, 128, (2, co, ci)).astype(np.int8)  # [half][o][i]: each half's own chunk

    def chunk_layout(m):  # [o][i] of one half -> [o/8][i/8][i%8][o%8]
        return np.ascontiguousarray(m.reshape(co // 8, 8, chunk // 8, 8).transpose(0, 2, 3, 1).ravel())

    b_put = Buffer(np.ndarray[(wc,), np.dtype[np.int8]], name="wts_put",
                   initial_value=chunk_layout(wts[0][:, :chunk]))
    b_get = Buffer(np.ndarray[(wc,), np.dtype[np.int8]], name="wts_get",
                   initial_value=chunk_layout(wts[1][:, chunk:]))
    in_ty, out_ty = np.ndarray[(w * ci,), np.dtype[np.int8]], np.ndarray[(w * co,), np.dtype[np.uint8]]
    f_in, f_out = ObjectFifo(in_ty, name="act"), ObjectFifo(out_ty, name="out")

    def put_body(i, b, k):
        x = i.acquire(1)
        k(x, b, w, ci, co, 2, 0, 0, oc)
        i.release(1)

    def get_body(i, o, b, k):
        x, y = i.acquire(1), o.acquire(1)
        k(x, b, y, w, ci, co, scale, 2, 1, 0, 0, oc)
        i.release(1)
        o.release(1)

    w_put = Worker(put_body, [f_in.cons(), b_put, put], placement=Tile(0, 3))  # north of the get
    w_get = Worker(get_body, [f_in.cons(), f_out.prod(), b_get, get], placement=Tile(0, 2))
    CascadeFlow(w_put, w_get)

    def seq(a, c, hi, ho):
        hi.fill(a)
        ho.drain(c, wait=True)

    p = Program(npusim.iron.get_current_device(), Runtime(seq, [in_ty, out_ty, f_in.prod(), f_out.cons()]),
                workers=[w_put, w_get]).resolve_program()
    out = np.full(w * co, 0x77, np.uint8)
    npusim.simulate(p, [_ycxc8(act), out])
    s = (act[:, :chunk].astype(np.int64) @ wts[0][:, :chunk].T.astype(np.int64) +
         act[:, chunk:].astype(np.int64) @ wts[1][:, chunk:].T.astype(np.int64))
    r = np.clip((s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale, 0, 255).astype(np.uint8)
    want = np.zeros((co // 8, w, 8), np.uint8)  # the other group keeps the output buffer's zeros
    want[oc] = r[:, oc * 8:(oc + 1) * 8]
    assert np.array_equal(out, want.ravel())


def _round_even(s, scale):
    """The bottleneck sources' ties-to-even shift: (s + 2^(scale-1) - 1 + ((s >> scale) & 1)) >> scale."""
    return (s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale


def test_bn_conv2dk3_dw_out_split_runs_exact_against_numpy():
    # -DSCALAR -DBN13 -DSTRIDE1_OUT_SPLIT: each channel alone, zero border, to even, clamped to uint8,
    # the first half of the channel groups to the first output, the rest to the second
    from npusim.iron import Buffer, ObjectFifo, Program, Runtime, Worker
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, c, scale, check = 7, 32, 4, 1
    conv = kernels.bn_conv2dk3_dw_out_split(input_width=w, input_channels=c, output_split_channels=c // 2)
    assert _sig(conv) == ("bn13_conv2dk3_ui8_out_split", [f"u8[{w * c}]"] * 3 + [f"i8[{9 * c}]"] +
                          [f"u8[{w * c // 2}]"] * 2 + ["i32 scalar"] * 8)
    assert kernels.bn_conv2dk3_dw_out_split(block_index=14).name == "bn14_conv2dk3_ui8_out_split"
    with pytest.raises(npusim.DesignError, match=r"block_index must be 13 or 14 \(the only per-block symbols "
                                                 r"defined in the .cc\), got 15"):
        kernels.bn_conv2dk3_dw_out_split(block_index=15)
    rng = np.random.default_rng(31)
    rows = rng.integers(0, 256, (3, w, c)).astype(np.uint8)
    wts = rng.integers(-128, 128, (c, 3, 3)).astype(np.int8)
    line_ty = np.ndarray[(w * c,), np.dtype[np.uint8]]
    half_ty = np.ndarray[(w * c // 2,), np.dtype[np.uint8]]
    fl = ObjectFifo(line_ty, name="lines", depth=3)
    fa, fb = ObjectFifo(half_ty, name="out_a"), ObjectFifo(half_ty, name="out_b")
    bw = Buffer(np.ndarray[(9 * c,), np.dtype[np.int8]], name="wts",
                initial_value=np.ascontiguousarray(wts.reshape(c // 8, 8, 3, 3).transpose(0, 2, 3, 1).ravel()))

    def body(il, oa, ob, b, k):
        el, ea, eb = il.acquire(3), oa.acquire(1), ob.acquire(1)
        k(el[0], el[1], el[2], b, ea, eb, w, 1, c, 3, 3, check, scale, 0)  # input_channels 1, as mobilenet passes
        il.release(3)
        oa.release(1)
        ob.release(1)

    def seq(hl, ha, hb, pl, ca, cb):
        pl.fill(hl)
        ca.drain(ha, wait=True)
        cb.drain(hb, wait=True)

    wk = Worker(body, [fl.cons(), fa.prod(), fb.prod(), bw, conv])
    p = Program(npusim.iron.get_current_device(),
                Runtime(seq, [np.ndarray[(3 * w * c,), np.dtype[np.uint8]], half_ty, half_ty, fl.prod(), fa.cons(),
                              fb.cons()]), workers=[wk]).resolve_program()
    out_a, out_b = np.zeros(w * c // 2, np.uint8), np.zeros(w * c // 2, np.uint8)
    npusim.simulate(p, [np.concatenate([_ycxc8(rows[i]) for i in range(3)]), out_a, out_b])

    img = np.zeros((3, w + 2, c), np.int64)
    img[:, 1:w + 1] = rows
    s = sum(img[ky, kx:kx + w] * wts[:, ky, kx].astype(np.int64) for ky in range(3) for kx in range(3))
    assert np.any(s % (1 << scale) == (1 << (scale - 1)))  # ties
    full = np.clip(_round_even(s, scale), 0, 255).astype(np.uint8)  # [x][c]
    assert np.any(_round_even(s, scale) > 255) and np.any(_round_even(s, scale) < 0)  # both clamps
    assert np.array_equal(out_a, _ycxc8(full[:, :c // 2]))
    assert np.array_equal(out_b, _ycxc8(full[:, c // 2:]))


@pytest.mark.parametrize("skip_scale", [0, 1])
def test_bn_conv2dk1_input_split_pair_runs_exact_across_a_cascade(skip_scale):
    # bn_conv2dk1_i8.cc -DBN13_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW puts the sums over its own
    # uint8 half of pixels 0..6; bn_conv2dk1_skip.cc -DBN13_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW
    # adds its half's, to even, int8, adds the skip, to even at skip_scale (0: as it is), int8
    from npusim.iron import Buffer, CascadeFlow, ObjectFifo, Program, Runtime, Worker
    from npusim.iron.device import Tile
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, half, co, wi, scale = 7, 16, 16, 1, 9
    wc = 2 * 8 * half
    put = kernels.bn_conv2dk1_input_split_partial_put_ui8(input_width=w, input_channels=half, weight_count=wc)
    get = kernels.bn_conv2dk1_input_split_partial_skip_get(input_width=w, input_channels=half, output_channels=co,
                                                           weight_count=wc, block_index=13)
    assert _sig(put) == ("bn13_1_conv2dk1_ui8_ui8_input_split_partial_width_put_new",
                         [f"u8[{w * half}]", f"i8[{wc}]"] + ["i32 scalar"] * 7)
    assert _sig(get) == ("bn_13_2_conv2dk1_ui8_i8_i8_scalar_input_split_partial_width_get_new",
                         [f"u8[{w * half}]", f"i8[{wc}]", f"i8[{w * co}]", f"i8[{w * co}]"] + ["i32 scalar"] * 10)
    with pytest.raises(npusim.DesignError, match=r"bn_conv2dk1_input_split_partial_put_ui8\(\): block_index must be "
                                                 r"13 or 14"):
        kernels.bn_conv2dk1_input_split_partial_put_ui8(block_index=12)
    rng = np.random.default_rng(64)
    act = rng.integers(0, 256, (2, w, half)).astype(np.uint8)  # [half][x][c]: the depthwise's two outputs
    wts = rng.integers(-128, 128, (2, co, half)).astype(np.int8)  # [half][o][i]
    skip = rng.integers(-128, 128, (w, co)).astype(np.int8)

    def chunk_layout(m):  # [o][i] -> [o/8][i/8][i%8][o%8]
        return m.reshape(m.shape[0] // 8, 8, half // 8, 8).transpose(0, 2, 3, 1).ravel()

    def wi_weights(m):  # weight_index wi's weights first, as a weights fifo hands each WeightIndex its own
        return np.ascontiguousarray(np.concatenate([chunk_layout(m[8 * wi:]), chunk_layout(m[:8 * wi])]))

    b_put = Buffer(np.ndarray[(wc,), np.dtype[np.int8]], name="wts_put", initial_value=wi_weights(wts[0]))
    b_get = Buffer(np.ndarray[(wc,), np.dtype[np.int8]], name="wts_get", initial_value=wi_weights(wts[1]))
    half_ty, act_ty = np.ndarray[(w * half,), np.dtype[np.uint8]], np.ndarray[(w * co,), np.dtype[np.int8]]
    both_ty = np.ndarray[(2 * w * half,), np.dtype[np.uint8]]
    f_in = ObjectFifo(both_ty, name="act")  # the two halves, split at the mem tile (npu1_1col has 2 MM2S channels)
    f_a, f_b = f_in.cons().split(offsets=[0, w * half], obj_types=[half_ty, half_ty])
    f_skip, f_out = ObjectFifo(act_ty, name="skip"), ObjectFifo(act_ty, name="out")
    oc8 = co // (8 * 2)  # output_split 2: weight_index wi writes group oc + oc8 * wi

    def put_body(i, b, k):
        x = i.acquire(1)
        for oc in range(oc8):
            k(x, b, w, 2 * half, co, 2, wi, 0, oc)
        i.release(1)

    def get_body(i, s, o, b, k):
        x, y, z = i.acquire(1), s.acquire(1), o.acquire(1)
        for oc in range(oc8):
            k(x, b, z, y, w, 2 * half, co, scale, skip_scale, 2, 2, wi, 0, oc)
        i.release(1)
        s.release(1)
        o.release(1)

    w_put = Worker(put_body, [f_a.cons(), b_put, put], placement=Tile(0, 3))  # north of the get
    w_get = Worker(get_body, [f_b.cons(), f_skip.cons(), f_out.prod(), b_get, get], placement=Tile(0, 2))
    CascadeFlow(w_put, w_get)

    def seq(ha, hs, ho, pa, ps, co_):
        pa.fill(ha)
        ps.fill(hs)
        co_.drain(ho, wait=True)

    p = Program(npusim.iron.get_current_device(),
                Runtime(seq, [both_ty, act_ty, act_ty, f_in.prod(), f_skip.prod(), f_out.cons()]),
                workers=[w_put, w_get]).resolve_program()
    out = np.full(w * co, 0x55, np.int8)
    npusim.simulate(p, [np.concatenate([_ycxc8(act[0]), _ycxc8(act[1])]), _ycxc8(skip), out])
    s = act[0].astype(np.int64) @ wts[0].T.astype(np.int64) + act[1].astype(np.int64) @ wts[1].T.astype(np.int64)
    conv = np.clip(_round_even(s, scale), -128, 127)
    assert np.any(_round_even(s, scale) > 127) and np.any(_round_even(s, scale) < -128)  # both clamps
    t = conv + skip.astype(np.int64)
    r = np.clip(_round_even(t, skip_scale) if skip_scale else t, -128, 127).astype(np.int8)  # [x][o]
    want = np.zeros((co // 8, w, 8), np.int8)  # only group oc + oc8 * wi = 1 is written (the core buffer starts at 0)
    want[oc8 * wi:] = _ycxc8(r).reshape(co // 8, w, 8)[oc8 * wi:]
    assert np.array_equal(out, want.ravel())


def test_check_upstream_mobilenet_e2e_refuses_a_folder_that_is_no_checkout_and_an_unknown_target(tmp_path):
    # the run on a real checkout (its fixtures are tens of MB of text) is recorded in docs/python-upstream.md
    import os
    from conftest import SOURCE_DIR, run_cli
    tool = os.path.join(SOURCE_DIR, "tools", "check-upstream-mobilenet-e2e.py")
    r = run_cli("python", tool, str(tmp_path))
    assert r.returncode == 2
    assert (f"check-upstream-mobilenet-e2e: {tmp_path} has no programming_examples/ml/mobilenet/aie2_iron_per_block.py"
            in r.stderr)
    mb = tmp_path / "programming_examples" / "ml" / "mobilenet"
    mb.mkdir(parents=True)
    (mb / "aie2_iron_per_block.py").write_text("")
    r = run_cli("python", tool, str(tmp_path), "block:bn9")
    assert r.returncode == 2
    assert "check-upstream-mobilenet-e2e: unknown target 'block:bn9' (known: block:bn1," in r.stderr
