"""aie.iron.kernels' post-stage 1x1 kernels of MobileNet's head (conv.py bn_conv2dk1_relu_xy_pool_padded,
bn_fc_relu_ui16_pad at 3ca0193): IRON's signature, and each kernel run in a one-core design shaped as
ml/mobilenet's post_l1 / post_l2 use it, exact against numpy."""
import numpy as np

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for
from kernel_designs import _oiyxi8o8, _one_core, _sig, _ycxc8, keep_current_device  # noqa: F401 (the autouse fixture)


def _pool_average49(acc):
    """bn_conv2dk1_relu.cc:1531-1539 as written, in float32: a tenths digit of 5 keeps an even integer part
    and raises an odd one; anything else rounds to nearest."""
    avg = acc.astype(np.float32) / np.float32(49)
    whole = avg.astype(np.int32)
    tenths5 = (avg * np.float32(10)).astype(np.int32) % 10 == 5
    return np.where(tenths5, whole + whole % 2, (avg + np.float32(0.5)).astype(np.int32)), tenths5


def test_bn_conv2dk1_relu_xy_pool_padded_runs_exact_against_numpy():
    # post_l1's shape, smaller: a 7x7 int8 image, one row a call per weight chunk, pooled into one uint16
    # output held across the rows, the channels past output_channels padded with zeros
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    w, ci, co, padd, split, scale = 7, 16, 32, 40, 2, 7
    chunk = co // split * ci
    k = kernels.bn_conv2dk1_relu_xy_pool_padded(input_width=w, input_channels=ci, output_channels=padd,
                                                weight_chunk_count=chunk)
    assert _sig(k) == ("conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8",
                       [f"i8[{w * ci}]", f"i8[{chunk}]", f"u16[{padd}]"] + ["i32 scalar"] * 8)
    assert _sig(kernels.bn_conv2dk1_relu_xy_pool_padded())[1][:3] == ["i8[560]", "i8[102400]", "u16[1280]"]
    rng = np.random.default_rng(63)
    img = rng.integers(-128, 128, (w, w, ci)).astype(np.int8)  # [y][x][c]
    wts = rng.integers(-128, 128, (co, ci)).astype(np.int8)
    tile = co // split
    bufs = [Buffer(np.ndarray[(chunk,), np.dtype[np.int8]], name=f"wts{i}",
                   initial_value=_oiyxi8o8(wts[i * tile:(i + 1) * tile])) for i in range(split)]
    row_ty, out_ty = np.ndarray[(w * ci,), np.dtype[np.int8]], np.ndarray[(padd,), np.dtype[np.uint16]]
    fi, fo = ObjectFifo(row_ty, name="rows"), ObjectFifo(out_ty, name="out")

    def body(ii, oo, b0, b1, kern):
        eo = oo.acquire(1)
        for y in range(w):
            ei = ii.acquire(1)
            for wi, b in enumerate((b0, b1)):
                kern(ei, b, eo, w, ci, co, padd, scale, y, split, wi)
            ii.release(1)
        oo.release(1)

    p = _one_core((body, [fi.cons(), fo.prod(), bufs[0], bufs[1], k]),
                  [np.ndarray[(w * w * ci,), np.dtype[np.int8]], out_ty], [fi.prod()], fo.cons())
    out = np.full(padd, 0x7777, np.uint16)
    npusim.simulate(p, [np.concatenate([_ycxc8(img[y]) for y in range(w)]), out])
    s = img.astype(np.int64) @ wts.T.astype(np.int64)  # [y][x][o]
    r = np.clip((s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale, 0, 255)
    avg, tenths5 = _pool_average49(r.sum(axis=(0, 1)).astype(np.uint32))
    assert np.any(tenths5) and np.any(r == 0) and np.any(r == 255)
    want = np.zeros(padd, np.uint16)
    want[:co] = avg
    assert np.array_equal(out, want)


def test_bn_fc_relu_ui16_pad_runs_exact_against_numpy():
    # post_l2's call: width 1, the first 48 of 64 channels (FC1's 960 of 1280), weight rows 64 long
    from npusim.iron import Buffer, ObjectFifo
    npusim.iron.set_current_device(device_for("npu1_1col"))
    ci, ci_used, co, scale = 64, 48, 16, 8
    k = kernels.bn_fc_relu_ui16_pad(input_channels=ci, output_channels=co)
    assert _sig(k) == ("post_L2_conv2dk1_relu_i16_ui16_pad",
                       [f"u16[{ci}]", f"i8[{ci * co}]", f"u16[{co}]"] + ["i32 scalar"] * 5)
    assert _sig(kernels.bn_fc_relu_ui16_pad(weight_chunk_count=10240))[1][:3] == ["u16[1280]", "i8[10240]", "u16[16]"]
    rng = np.random.default_rng(64)
    act = rng.integers(0, 256, ci).astype(np.uint16)  # pooled uint8 values, as post_l1 leaves them
    wts = rng.integers(-128, 128, (co, ci)).astype(np.int8)
    bw = Buffer(np.ndarray[(ci * co,), np.dtype[np.int8]], name="wts", initial_value=_oiyxi8o8(wts))
    in_ty, out_ty = np.ndarray[(ci,), np.dtype[np.uint16]], np.ndarray[(co,), np.dtype[np.uint16]]
    fi, fo = ObjectFifo(in_ty, name="act"), ObjectFifo(out_ty, name="out")

    def body(ii, oo, b, kern):
        ei, eo = ii.acquire(1), oo.acquire(1)
        kern(ei, b, eo, 1, ci_used, ci, co, scale)
        ii.release(1)
        oo.release(1)

    p = _one_core((body, [fi.cons(), fo.prod(), bw, k]), [in_ty, out_ty], [fi.prod()], fo.cons())
    out = np.full(co, 0x7777, np.uint16)
    npusim.simulate(p, [act, out])
    s = wts[:, :ci_used].astype(np.int64) @ act[:ci_used].astype(np.int64)
    want = np.clip((s + (1 << (scale - 1)) - 1 + ((s >> scale) & 1)) >> scale, 0, 255).astype(np.uint16)
    assert np.any(want == 0) and np.any(want == 255) and np.any((want > 0) & (want < 255))
    assert np.array_equal(out, want)


def test_check_upstream_mobilenet_post_names_a_folder_that_is_no_checkout(tmp_path):
    # the run on a real checkout (its weights are tens of MB of text) is recorded in docs/python-upstream.md
    import os
    from conftest import SOURCE_DIR, run_cli
    r = run_cli("python", os.path.join(SOURCE_DIR, "tools", "check-upstream-mobilenet-post.py"), str(tmp_path))
    assert r.returncode == 2
    assert (f"check-upstream-mobilenet-post: {tmp_path} has no programming_examples/ml/mobilenet/bottleneck/post_l1.py"
            in r.stderr)
