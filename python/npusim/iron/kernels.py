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
