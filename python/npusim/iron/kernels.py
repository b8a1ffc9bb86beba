"""aie.iron.kernels: the built-in kernel factories with IRON's signatures (mlir-aie python/iron/kernels/
at 3ca0193: eltwise.py, reduce.py, activation.py), bound to npusim's kernel library
(harness/KernelLibrary.hpp). The activations pick the current device's generation, as IRON's
_detect_arch does. Factories IRON ships that npusim's library lacks raise NotImplementedError naming
themselves."""
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


def compute_max(dtype=np.int32, **_):
    return _LibraryKernel("compute_max", 1, dtype)


def bf16_exp(tile_size=1024, **_):
    return _LibraryKernel("bf16_exp", tile_size, "bfloat16")


def softmax(tile_size=1024, **_):
    return _LibraryKernel("softmax", tile_size, "bfloat16")


def gelu(tile_size=1024, **_):
    """gelu_bf16(in, out) of bf16[1024] (activation.py gelu)."""
    return _LibraryKernel("gelu", tile_size, "bfloat16")


def silu(tile_size=1024, **_):
    """silu_bf16(in, out) of bf16[1024] (activation.py silu)."""
    return _LibraryKernel("silu", tile_size, "bfloat16")


def swiglu(tile_size=1024, **_):
    """swiglu_bf16(in, w1, w2, out) of bf16[1024] (activation.py swiglu)."""
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


def mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=np.int16, output_dtype=np.int16, vectorized=True, b_col_maj=False,
       c_col_maj=False, use_chess=False, emulate_bf16_mmul_with_bfp16=False, **_):
    """linalg.py mm: matmul_<in>_<out>(a, b, c) of the device generation's mm.cc, C += A.B in the blocked
    layout of .mac_dims; .zero is its zero_<out>(c). The scalar and column-major builds are not in
    npusim's library."""
    with _Located(where()):
        native, zero, dims = _npusim.library_mm(int(dim_m), int(dim_k), int(dim_n), dtype_name(input_dtype),
                                                dtype_name(output_dtype), bool(vectorized), bool(b_col_maj),
                                                bool(c_col_maj), _arch())
    k = _NativeKernel(native)
    k.zero = _NativeKernel(zero)
    k.mac_dims = tuple(dims)
    return k


# vision.py: the uint8 builds (npusim's library has no int16 / int32 vision kernels)
def rgba2hue(line_width=1920, use_chess=False, **_):
    return _LibraryKernel("rgba2hue", line_width, np.uint8)


def threshold(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _LibraryKernel("threshold", line_width, dtype)


def bitwise_or(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _LibraryKernel("bitwise_or", line_width, dtype)


def bitwise_and(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _LibraryKernel("bitwise_and", line_width, dtype)


def gray2rgba(line_width=1920, use_chess=False, **_):
    return _LibraryKernel("gray2rgba", line_width, np.uint8)


def rgba2gray(line_width=1920, use_chess=False, **_):
    return _LibraryKernel("rgba2gray", line_width, np.uint8)


def filter2d(line_width=1920, use_chess=False, **_):
    return _LibraryKernel("filter2d", line_width, np.uint8)


def add_weighted(line_width=1920, dtype=np.uint8, use_chess=False, **_):
    return _LibraryKernel("add_weighted", line_width, dtype)


def _not_in_library(name):
    def factory(*_args, **_kwargs):
        raise NotImplementedError(f"aie.iron.kernels.{name}: not in npusim's kernel library (use an "
                                  "ExternalFunction with the kernel's source)")
    factory.__name__ = name
    return factory


for _name in ("mv", "cascade_mm", "conv2dk1", "conv2dk3", "conv2dk1_skip", "conv2dk1_i8",
              "conv2dk14", "conv2dk1_skip_init", "bn_conv2dk1_relu", "bn_conv2dk3", "bn_conv2dk1_i8",
              "bn_conv2dk1_skip", "bn_conv2dk3_dw", "bn_conv2dk1_relu_xy_pool_padded", "bn_fc_relu_ui16_pad",
              "bn_conv2dk1_partial_put_i8", "bn_conv2dk1_partial_get_relu_i8", "bn_conv2dk3_dw_out_split",
              "bn_conv2dk1_input_split_partial_put_ui8", "bn_conv2dk1_input_split_partial_skip_get"):
    globals()[_name] = _not_in_library(_name)
del _name
