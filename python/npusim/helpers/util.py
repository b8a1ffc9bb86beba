"""aie.helpers.util: type-descriptor helpers."""


def np_ndarray_type_get_shape(t):
    spec = getattr(t, "ndarray_type", t)
    return tuple(spec.__args__[0])


def np_ndarray_type_get_dtype(t):
    spec = getattr(t, "ndarray_type", t)
    return spec.__args__[1].__args__[0]


def np_dtype_to_mlir_type(dtype):
    """IRON's MLIR element type for a numpy type; under npusim the numpy dtype itself, which is what
    aie.extras.dialects.arith.index_cast takes as `to=`."""
    import numpy as np
    return np.dtype(dtype)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.helpers.util.{name} is not supported by npusim")
