"""aie.iron.kernels: the built-in kernel factories with IRON's signatures (python/iron/kernels/),
bound to npusim's kernel library."""
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


class _NativeKernel(_KernelBase):
    def __init__(self, native):
        self._native = native
        self._name = native.name


def mm(dim_m=64, dim_k=64, dim_n=64, input_dtype=np.int16, output_dtype=np.int16, b_col_maj=False, c_col_maj=False,
       use_chess=False, emulate_bf16_mmul_with_bfp16=False, vectorized=True, **_):
    """IRON kernels.mm: C += A.B on m x k and k x n blocks in the mmul-blocked layout (mm.cc), with
    `.zero` (its zero-fill kernel) and `.mac_dims` (r, s, t): npusim's matmul kernel and cost model,
    the ones `npusim run matmul_*` binds."""
    loc = where()
    for flag, given in (("b_col_maj", b_col_maj), ("c_col_maj", c_col_maj),
                        ("emulate_bf16_mmul_with_bfp16", emulate_bf16_mmul_with_bfp16), ("vectorized=False", not vectorized)):
        if given:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.iron.kernels.mm({flag}) is not supported by npusim")
    with _Located(loc):
        mmk, zero, dims = _npusim.matmul_kernels(int(dim_m), int(dim_k), int(dim_n), dtype_name(input_dtype),
                                                 dtype_name(output_dtype), _arch())
    k = _NativeKernel(mmk)
    k.zero = _NativeKernel(zero)
    k.mac_dims = tuple(dims)
    return k


class _VisionKernel(_NativeKernel):
    def __init__(self, kind, line_width, dtype=np.uint8):
        loc = where()
        if np.dtype(dtype) != np.uint8:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.iron.kernels.{kind}(dtype={np.dtype(dtype).name}) is "
                                      "not supported by npusim (uint8 lines only)")
        with _Located(loc):
            super().__init__(_npusim.vision_kernel(kind, int(line_width)))


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
    # An IRON kernel factory npusim's library lacks (gelu, conv2dk1, ...): a clear error naming it,
    # also for `from aie.iron.kernels import X`, never an AttributeError without the reason.
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.iron.kernels.{name} is not supported by npusim (not in its kernel library)")
