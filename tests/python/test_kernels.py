"""aie.iron.kernels: each factory npusim serves, built with IRON's signature (mlir-aie
python/iron/kernels/ at 3ca0193: names, keyword arguments and defaults, the kernel symbol and
argument types each returns); the factories IRON ships that the library lacks say so. The kernels' numerics are tested in C++
(tests/kernels_ref, the ml/swiglu design)."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for

from kernel_designs import _sig, keep_current_device  # noqa: F401 (the autouse fixture)


BF16_TILE = "bf16[1024]"


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
