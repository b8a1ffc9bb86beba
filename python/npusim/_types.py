"""IRON's numpy type descriptors (np.ndarray[(shape,), np.dtype[T]]) as npusim types."""
import numpy as np

from . import _npusim

_NAMES = {
    np.dtype(np.int8): "int8",
    np.dtype(np.uint8): "uint8",
    np.dtype(np.int16): "int16",
    np.dtype(np.int32): "int32",
    np.dtype(np.uint32): "uint32",
    np.dtype(np.float32): "float32",
}
from ._bfloat16 import bfloat16 as _bf16  # ml_dtypes' when installed, else npusim's own

_NAMES[np.dtype(_bf16)] = "bfloat16"

_NUMPY = {v: k for k, v in _NAMES.items()}
_NUMPY.update({"i8": np.dtype(np.int8), "u8": np.dtype(np.uint8), "i16": np.dtype(np.int16),
               "i32": np.dtype(np.int32), "u32": np.dtype(np.uint32), "f32": np.dtype(np.float32)})
_NUMPY["bf16"] = np.dtype(_bf16)


def dtype_name(dt):
    """npusim's name for a numpy dtype (or scalar type); TypeError for one it does not simulate."""
    if isinstance(dt, str) and dt in ("bfloat16", "bf16"):
        return "bfloat16"
    d = np.dtype(dt)
    try:
        return _NAMES[d]
    except KeyError:
        raise TypeError(f"element type {d} is not one npusim simulates "
                        "(int8, uint8, int16, int32, uint32, float32, bfloat16)") from None


def numpy_dtype(name):
    return _NUMPY[name]


def is_tensor_type(t):
    return getattr(t, "__origin__", None) is np.ndarray


def tensor_type(t):
    """A TensorType from np.ndarray[(shape,), np.dtype[T]] (or a TensorType, or a jit tensor spec)."""
    if isinstance(t, _npusim.TensorType):
        return t
    spec = getattr(t, "ndarray_type", None)
    if spec is not None and not is_tensor_type(t):
        t = spec
    if not is_tensor_type(t):
        raise TypeError(f"{t!r} is not a tensor type (np.ndarray[(shape,), np.dtype[T]])")
    shape, dt = t.__args__
    if isinstance(shape, int):
        shape = (shape,)
    scalar = dt.__args__[0] if hasattr(dt, "__args__") else dt
    return _npusim.TensorType(dtype_name(scalar), [int(s) for s in shape])


def is_scalar_type(t):
    """A scalar kernel argument: a numpy scalar type (np.int32) or a dtype (np.dtype(np.int32)), as
    IRON's arg_types take both (kernel.py: list[type[np.ndarray] | np.dtype])."""
    if isinstance(t, np.dtype):
        return t in _NAMES
    try:
        return isinstance(t, type) and issubclass(t, np.generic) and np.dtype(t) in _NAMES
    except TypeError:
        return False


def arg_type(t):
    """A kernel argument type: a TensorType or a ScalarType (np.int32)."""
    if is_scalar_type(t):
        return _npusim.ScalarType(dtype_name(t))
    return tensor_type(t)


def ndarray_type(shape, dtype):
    return np.ndarray[tuple(shape), np.dtype[dtype]]


def numpy_name(npusim_name):
    """numpy's name for npusim's element-type name ("u8" -> "uint8")."""
    short = {"i8": "int8", "u8": "uint8", "i16": "int16", "i32": "int32", "u32": "uint32", "f32": "float32",
             "bf16": "bfloat16"}
    return short.get(npusim_name, npusim_name)
