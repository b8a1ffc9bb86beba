"""aie.iron.kernels: the built-in kernel factories with IRON's signatures (mlir-aie python/iron/kernels/
at 3ca0193: eltwise.py, reduce.py, activation.py, linalg.py mm / mv / cascade_mm, vision.py, conv.py
conv2dk1, conv2dk1_i8, conv2dk1_skip,
conv2dk1_skip_init, conv2dk3, conv2dk14, bn_conv2dk1_relu, bn_conv2dk1_i8,
bn_conv2dk1_skip, bn_conv2dk3, bn_conv2dk3_dw, bn_conv2dk1_partial_put_i8, bn_conv2dk1_partial_get_relu_i8,
bn_conv2dk3_dw_out_split, bn_conv2dk1_input_split_partial_put_ui8, bn_conv2dk1_input_split_partial_skip_get,
bn_conv2dk1_relu_xy_pool_padded, bn_fc_relu_ui16_pad), each resolved through npusim's kernel library
(harness/KernelLibrary*.hpp), the home
the C++ designs bind too. The activations pick the current device's generation, as IRON's _detect_arch does; a
factory npusim's library lacks raises NotImplementedError naming itself."""
import numpy as np

from .. import _npusim
from .._errors import _Located, where
from .._types import dtype_name
from .kernel import _KernelBase


class _LibraryKernel(_KernelBase):
    def __init__(self, kind, tile_size, dtype, vectorized=True):
        with _Located(where()):
            self._native = _npusim.library_kernel(kind, int(tile_size), dtype_name(dtype), vectorized=bool(vectorized),
                                                  arch=_arch())
        self._name = self._native.name
        self.tile_size = int(tile_size)


def _arch():
    from .device import get_current_device
    return get_current_device()._arch


def passthrough(tile_size=4096, dtype=np.int32, **_):
    return _LibraryKernel("passthrough", tile_size, dtype)


def scale(tile_size=1024, dtype=np.int32, vectorized=True, use_chess=False, **_):
    return _LibraryKernel("scale", tile_size, dtype, vectorized)


def add(tile_size=1024, dtype=None, vectorized=True, **_):
    return _LibraryKernel("add", tile_size, dtype if dtype is not None else "bfloat16", vectorized)


def mul(tile_size=1024, dtype=None, vectorized=True, **_):
    return _LibraryKernel("mul", tile_size, dtype if dtype is not None else "bfloat16", vectorized)


def relu(tile_size=1024, **_):
    return _LibraryKernel("relu", tile_size, np.int32)


def reduce_add(tile_size=1024, dtype=np.int32, vectorized=True, **_):
    return _LibraryKernel("reduce_add", tile_size, dtype, vectorized)


def reduce_min(tile_size=1024, dtype=np.int32, vectorized=True, **_):
    return _LibraryKernel("reduce_min", tile_size, dtype, vectorized)


def reduce_max(tile_size=1024, dtype=np.int32, vectorized=True, **_):
    return _LibraryKernel("reduce_max", tile_size, dtype, vectorized)


def softmax(tile_size=1024, **_):
    """IRON kernels.softmax: the bf16 softmax of a tile (AIE2's table exp, AIE2P's exp2, by the device)."""
    return _LibraryKernel("softmax", tile_size, "bfloat16")


def bf16_exp(tile_size=1024, **_):
    """IRON kernels.bf16_exp: exp of each bf16 element."""
    return _LibraryKernel("bf16_exp", tile_size, "bfloat16")


def compute_max(dtype=np.int32, **_):
    """IRON kernels.compute_max: out[0] = max(a[0], b[0])."""
    return _LibraryKernel("compute_max", 1, dtype)


def gelu(tile_size=1024, **_):
    """IRON kernels.gelu: gelu_bf16(in, out) of bf16[1024] (tanh approximation; the device's generation)."""
    return _LibraryKernel("gelu", tile_size, "bfloat16")


def silu(tile_size=1024, **_):
    """IRON kernels.silu: silu_bf16(in, out) of bf16[1024]."""
    return _LibraryKernel("silu", tile_size, "bfloat16")


def swiglu(tile_size=1024, **_):
    """IRON kernels.swiglu: swiglu_bf16(in, w1, w2, out) of bf16[1024]."""
    return _LibraryKernel("swiglu", tile_size, "bfloat16")


# activation.py's numpy references (float32 math, cast back to the input's dtype)
def relu_ref(x):
    return np.maximum(x.astype(np.float32), 0.0).astype(x.dtype)


def silu_ref(x):
    xf = x.astype(np.float32)
    return (xf / (1.0 + np.exp(-xf))).astype(x.dtype)


def gelu_ref(x):
    xf = x.astype(np.float32)
    c = np.float32(np.sqrt(2.0 / np.pi))
    return (0.5 * xf * (1.0 + np.tanh(c * (xf + np.float32(0.044715) * xf ** 3)))).astype(x.dtype)


def bf16_exp_ref(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x.astype(np.float32)).astype(x.dtype)


def softmax_ref(x, *, tile_size=1024):
    xf = x.astype(np.float32)
    if xf.size % tile_size != 0:
        raise ValueError(f"softmax_ref: x has {xf.size} elements; not a multiple of tile_size={tile_size}")
    flat = xf.reshape(-1, tile_size)
    e = np.exp(flat - flat.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(x.shape).astype(x.dtype)


class _NativeKernel(_KernelBase):
    def __init__(self, native):
        self._native = native
        self._name = native.name


def mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=np.int16, output_dtype=np.int16, b_col_maj=False, c_col_maj=False,
       use_chess=False, emulate_bf16_mmul_with_bfp16=False, vectorized=True, **_):
    """IRON kernels.mm (linalg.py): C += A.B on m x k and k x n blocks in the mmul-blocked layout (mm.cc),
    with `.zero` (its zero-fill kernel) and `.mac_dims` (r, s, t): the harness library's mm, the
    kernels the C++ matmul designs bind. emulate_bf16_mmul_with_bfp16 (AIE2P, bf16 inputs; ignored
    otherwise, as IRON ignores it): the bf16 mmul on the bfp16 datapath, mac_dims (8, 8, 8)."""
    with _Located(where()):
        mmk, zero, dims = _npusim.mm_kernels(int(dim_m), int(dim_k), int(dim_n), dtype_name(input_dtype),
                                             dtype_name(output_dtype), bool(vectorized), bool(b_col_maj),
                                             bool(c_col_maj), _arch(), bool(emulate_bf16_mmul_with_bfp16))
    k = _NativeKernel(mmk)
    k.zero = _NativeKernel(zero)
    k.mac_dims = tuple(dims)
    return k


def mv(dim_m=32, dim_k=32, input_dtype=np.int16, output_dtype=np.int32, vectorized=True, use_chess=False, **_):
    """IRON kernels.mv (linalg.py): c += A * b, int16 -> int32, with `.zero`. The vectorized kernel
    reads A transposed at 32-bit-word granularity, as mv.cc does; the scalar one row-major."""
    with _Located(where()):
        mvk, zero = _npusim.mv_kernels(int(dim_m), int(dim_k), dtype_name(input_dtype), dtype_name(output_dtype),
                                       bool(vectorized))
    k = _NativeKernel(mvk)
    k.zero = _NativeKernel(zero)
    return k


def cascade_mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=np.int16, output_dtype=np.int16, use_chess=False, **_):
    """IRON kernels.cascade_mm (linalg.py): the get_only kernel, with `.get_only`, `.put_only`,
    `.put_get`, `.zero` and `.mac_dims` (1, 1, 1): the scalar kernels read row-major blocks."""
    with _Located(where()):
        get_only, put_only, put_get, zero = _npusim.cascade_mm_kernels(int(dim_m), int(dim_k), int(dim_n),
                                                                       dtype_name(input_dtype),
                                                                       dtype_name(output_dtype))
    k = _NativeKernel(get_only)
    k.get_only = k
    k.put_only = _NativeKernel(put_only)
    k.put_get = _NativeKernel(put_get)
    k.zero = _NativeKernel(zero)
    k.mac_dims = (1, 1, 1)
    return k


def conv2dk1_i8(input_width=32, input_channels=64, output_channels=64, **_):
    """IRON kernels.conv2dk1_i8 (conv.py): a 1x1 convolution of one image row, int8 in, weights and out."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("conv2dk1_i8", int(input_width), int(input_channels),
                                                 int(output_channels)))


def conv2dk1(input_width=32, input_channels=64, output_channels=64, act_dtype=np.int8, **_):
    """IRON kernels.conv2dk1 (conv.py): a 1x1 convolution of one image row, int8 or uint8 activations,
    uint8 output (conv2dk1_i8 / conv2dk1_ui8 of aie2/conv2dk1.cc)."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("conv2dk1", int(input_width), int(input_channels),
                                                 int(output_channels), dtype_name(act_dtype)))


def conv2dk1_skip(input_width=32, input_channels=64, output_channels=64, act_dtype=np.int8, **_):
    """IRON kernels.conv2dk1_skip (conv.py): a 1x1 convolution of two uint8 channel halves plus a skip
    input (int8 or uint8), uint8 output (conv2dk1_skip_i8 / conv2dk1_skip_ui8 of aie2/conv2dk1_skip.cc)."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("conv2dk1_skip", int(input_width), int(input_channels),
                                                 int(output_channels), dtype_name(act_dtype)))


def conv2dk1_skip_init(input_width=32, input_channels=64, output_channels=64, act_dtype=np.int8,
                       skip_input_channels=None, **_):
    """IRON kernels.conv2dk1_skip_init (conv.py): conv2dk1_skip with a 1x1 projection of the int8 skip
    input (its weights after the main ones); conv2dk1_skip_init_i8 of aie2/conv2dk1_skip_init.cc."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("conv2dk1_skip_init", int(input_width), int(input_channels),
                                                 int(output_channels), dtype_name(act_dtype),
                                                 -1 if skip_input_channels is None else int(skip_input_channels)))


def conv2dk3(input_width=32, input_channels=64, output_channels=64, act_dtype=np.int8, weight_output_channels=None,
             **_):
    """IRON kernels.conv2dk3 (conv.py): a 3x3 convolution of three uint8 rows into one uint8 row (conv2dk3_ui8
    of aie2/conv2dk3.cc); weight_output_channels sizes a weights buffer shared by workers computing channel
    slices (the call's channel_offset). act_dtype=np.int8 is refused: upstream's -DINT8_ACT build does not
    compile."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv2dk3_kernel(int(input_width), int(input_channels), int(output_channels),
                                                     dtype_name(act_dtype),
                                                     -1 if weight_output_channels is None
                                                     else int(weight_output_channels)))


def conv2dk14(input_width=224, input_channels=16, output_channels=16, kernel_width=14, **_):
    """IRON kernels.conv2dk14 (conv.py): a 14x14 stride-14 convolution of RGBA tiles to int8 channels
    (conv2dk14_i8 of aie2p/conv2dk14.cc); the output type is conv.py's (output_channels * tiles * 8)."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv2dk14_kernel(int(input_width), int(input_channels), int(output_channels),
                                                      int(kernel_width), _arch()))


def bn_conv2dk1_relu(input_width=32, input_channels=64, output_channels=64, **_):
    """IRON kernels.bn_conv2dk1_relu (conv.py): conv2dk1_relu_i8_ui8 of bottleneck/bn_conv2dk1_relu.cc
    (-DREGULAR -DINT8_ACT): int8 in, uint8 out, the shifted sums rounded to even. Any positive input_width
    (upstream's scalar loops visit every pixel; mobilenet runs 14), channels in groups of 8."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("bn_conv2dk1_relu", int(input_width), int(input_channels),
                                                 int(output_channels)))


def bn_conv2dk1_i8(input_width=32, input_channels=64, output_channels=64, **_):
    """IRON kernels.bn_conv2dk1_i8 (conv.py): conv2dk1_ui8_i8 of bottleneck/bn_conv2dk1_i8.cc (-DREGULAR
    -DSCALAR): uint8 in, int8 out, the shifted sums rounded to even; any positive input_width, as above."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("bn_conv2dk1_i8", int(input_width), int(input_channels),
                                                 int(output_channels)))


def bn_conv2dk1_skip(input_width=32, input_channels=64, output_channels=64, skip_dtype=np.uint8, **_):
    """IRON kernels.bn_conv2dk1_skip (conv.py): conv2dk1_skip_ui8_ui8_i8 / conv2dk1_skip_ui8_i8_i8 of
    bottleneck/bn_conv2dk1_skip.cc (-DREGULAR -DSCALAR): uint8 in, a skip added, int8 out, to even."""
    with _Located(where()):
        return _NativeKernel(_npusim.conv_kernel("bn_conv2dk1_skip", int(input_width), int(input_channels),
                                                 int(output_channels), dtype_name(skip_dtype)))


def bn_conv2dk3(input_width=32, input_channels=64, output_channels=64, **_):
    """IRON kernels.bn_conv2dk3 (conv.py): the stride-2 3x3 of bottleneck/bn_conv2dk3.cc (conv2dk3_stride2_i8:
    int8 rows, uint8 out at half the width, to even)."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk3_kernel(int(input_width), int(input_channels), int(output_channels)))


def bn_conv2dk3_dw(input_width=32, input_channels=64, output_channels=64, stride=1, **_):
    """IRON kernels.bn_conv2dk3_dw (conv.py): the depthwise 3x3 + ReLU of bottleneck/bn_conv2dk3_dw.cc
    (-DREGULAR -DSCALAR -DSTRIDE<stride>): conv2dk3_dw_stride1_relu_ui8_ui8 / _stride2_, uint8 in and out, to even."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk3_dw_kernel(int(input_width), int(input_channels), int(output_channels),
                                                           int(stride)))


def bn_conv2dk1_partial_put_i8(input_width=7, input_channels=80, weight_count=4800, *, block_index=13, **_):
    """IRON kernels.bn_conv2dk1_partial_put_i8 (conv.py): the cascade-put half of bottleneck/bn_conv2dk1_i8.cc
    (-DBN<block_index>_1_PARTIAL_PUT_I8_CAS_WIDTH_NEW): the first input-channel chunk of pixels 0..6, one
    v16acc64 per pixel put on the worker's cascade (join the pair with CascadeFlow)."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk1_partial_kernel("put", int(input_width), int(input_channels), 0,
                                                                int(weight_count), int(block_index)))


def bn_conv2dk1_partial_get_relu_i8(input_width=7, input_channels=80, output_channels=480, weight_count=4800, *,
                                    block_index=13, **_):
    """IRON kernels.bn_conv2dk1_partial_get_relu_i8 (conv.py): the cascade-get half of bottleneck/bn_conv2dk1_relu.cc
    (-DBN<block_index>_1_PARTIAL_GET_I8_CAS_WIDTH_NEW): the next chunk plus the cascade's partial sums, to even,
    clamped to uint8 (ReLU)."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk1_partial_kernel("get", int(input_width), int(input_channels),
                                                                int(output_channels), int(weight_count),
                                                                int(block_index)))


def bn_conv2dk3_dw_out_split(input_width=7, input_channels=480, output_split_channels=240, *, block_index=13, **_):
    """IRON kernels.bn_conv2dk3_dw_out_split (conv.py): the stride-1 depthwise 3x3 of bottleneck/bn_conv2dk3_dw.cc
    (-DSCALAR -DBN<block_index> -DSTRIDE1_OUT_SPLIT): uint8 in and out, to even, the first half of the channel
    groups written to the first output buffer and the rest to the second."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk3_dw_out_split_kernel(int(input_width), int(input_channels),
                                                                     int(output_split_channels), int(block_index)))


def bn_conv2dk1_input_split_partial_put_ui8(input_width=7, input_channels=240, weight_count=9600, *, block_index=13,
                                            **_):
    """IRON kernels.bn_conv2dk1_input_split_partial_put_ui8 (conv.py): the cascade-put half of
    bottleneck/bn_conv2dk1_i8.cc (-DBN<block_index>_1_INPUT_SPLIT_PARTIAL_PUT_UI8_UI8_CAS_WIDTH_NEW): the sums of
    its own uint8 input's channels for pixels 0..6, one v16acc64 per pixel put on the worker's cascade."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk1_input_split_kernel("put", int(input_width), int(input_channels), 0,
                                                                    int(weight_count), int(block_index)))


def bn_conv2dk1_input_split_partial_skip_get(input_width=7, input_channels=240, output_channels=80,
                                             weight_count=9600, *, block_index=13, **_):
    """IRON kernels.bn_conv2dk1_input_split_partial_skip_get (conv.py): the cascade-get half of
    bottleneck/bn_conv2dk1_skip.cc (-DBN<block_index>_1_INPUT_SPLIT_PARTIAL_GET_UI8_I8_I8_CAS_WIDTH_NEW): its own
    sums plus the cascade's, to even, int8, plus the skip, to even at skip_scale, int8."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk1_input_split_kernel("get", int(input_width), int(input_channels),
                                                                    int(output_channels), int(weight_count),
                                                                    int(block_index)))


def bn_conv2dk1_relu_xy_pool_padded(input_width=7, input_channels=80, output_channels=1280, weight_chunk_count=None,
                                    **_):
    """IRON kernels.bn_conv2dk1_relu_xy_pool_padded (conv.py): the fused 1x1 + ReLU + 7x7 average pool of
    bottleneck/bn_conv2dk1_relu.cc (-DSCALAR -DCONV_XYPOOL_FUSED_LARGE_PADDED -DINT8_ACT): one int8 row a call
    summed into the uint16 output for one weight chunk, the last row averaged, the channels past the chunk's
    output_channels padded with zeros."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_conv2dk1_relu_xy_pool_padded_kernel(
            int(input_width), int(input_channels), int(output_channels),
            None if weight_chunk_count is None else int(weight_chunk_count)))


def bn_fc_relu_ui16_pad(input_channels=1280, output_channels=16, weight_chunk_count=None, **_):
    """IRON kernels.bn_fc_relu_ui16_pad (conv.py): the fully connected layer + ReLU of bottleneck/bn_conv2dk1_relu.cc
    (-DSCALAR -DPOSTL2_PAD -DUINT16_ACT): uint16 in and out, weight rows input_channels_pad long, to even,
    clamped to [0, 255]."""
    with _Located(where()):
        return _NativeKernel(_npusim.bn_fc_relu_ui16_pad_kernel(
            int(input_channels), int(output_channels),
            None if weight_chunk_count is None else int(weight_chunk_count)))


class _VisionKernel(_NativeKernel):
    def __init__(self, kind, line_width, dtype=np.uint8):
        with _Located(where()):
            super().__init__(_npusim.vision_kernel(kind, int(line_width), dtype_name(dtype)))


# IRON's vision factories (python/iron/kernels/vision.py): one line of `line_width` pixels a call.
def rgba2gray(line_width=1920, use_chess=False, **_):
    return _VisionKernel("rgba2gray", line_width)


def gray2rgba(line_width=1920, use_chess=False, **_):
    return _VisionKernel("gray2rgba", line_width)


def filter2d(line_width=1920, use_chess=False, **_):
    return _VisionKernel("filter2d", line_width)


def threshold(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _VisionKernel("threshold", line_width, dtype)


def add_weighted(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _VisionKernel("add_weighted", line_width, dtype)


def rgba2hue(line_width=1920, use_chess=False, **_):
    return _VisionKernel("rgba2hue", line_width)


def bitwise_or(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _VisionKernel("bitwise_or", line_width, dtype)


def bitwise_and(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _VisionKernel("bitwise_and", line_width, dtype)


def __getattr__(name):
    # An IRON kernel factory npusim's library lacks (or a name IRON does not have): a clear error naming it,
    # also for `from aie.iron.kernels import X`, never an AttributeError without the reason.
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.iron.kernels.{name} is not supported by npusim (not in its kernel library)")
