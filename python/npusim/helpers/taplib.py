"""aie.helpers.taplib: TensorAccessPattern (offset, sizes, strides over a host tensor)."""
from .. import _npusim
from .._errors import _Located, where


class TensorAccessPattern:
    """IRON TensorAccessPattern(tensor_dims, offset, sizes, strides)."""

    def __init__(self, tensor_dims, offset, sizes, strides):
        with _Located(where()):
            self._native = _npusim.TensorAccessPattern([int(d) for d in tensor_dims], int(offset),
                                                       [int(s) for s in sizes], [int(s) for s in strides])

    tensor_dims = property(lambda self: self._native.tensor_dims)
    offset = property(lambda self: self._native.offset)
    sizes = property(lambda self: self._native.sizes)
    strides = property(lambda self: self._native.strides)

    def access_order(self):
        return self._native.access_order()

    def visualize(self, *_, **__):
        print(self._native.visualize())

    def __repr__(self):
        return repr(self._native)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.helpers.taplib.{name} is not supported by npusim")
