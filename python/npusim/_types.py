"""IRON's numpy type descriptors (np.ndarray[(shape,), np.dtype[T]]) as npusim types."""
import numpy as np

from . import _npusim

_NAMES = {
    np.dtype(np.int8): "int8",
    np.dtype(np.uint8): "uint8",
    np.dtype(np.int16): "int16",
    np.dtype(np.uint16): "uint16",
    np.dtype(np.int32): "int32",
    np.dtype(np.uint32): "uint32",
    np.dtype(np.float32): "float32",
}
from ._bfloat16 import bfloat16 as _bf16  # ml_dtypes' when installed, else npusim's own

_NAMES[np.dtype(_bf16)] = "bfloat16"

_NUMPY = {v: k for k, v in _NAMES.items()}
_NUMPY.update({"i8": np.dtype(np.int8), "u8": np.dtype(np.uint8), "i16": np.dtype(np.int16), "u16": np.dtype(np.uint16),
               "i32": np.dtype(np.int32), "u32": np.dtype(np.uint32), "f32": np.dtype(np.float32)})
_NUMPY["bf16"] = np.dtype(_bf16)


class v8bfp16ebs8(np.generic):
    """AIE2P block floating point as IRON names it (aie.helpers.util.v8bfp16ebs8): one element is a
    block of 8 values sharing an 8-bit exponent, 9 bytes. A type descriptor (np.dtype[v8bfp16ebs8]);
    host arrays of it have the dtype BFP16EBS8 (npusim.bfp)."""


#: The host array type of v8bfp16ebs8: one 9-byte element a block, the shared biased exponent then the
#: 8 two's-complement mantissas (the bytes the device reads; value = mantissa * 2^(exponent - 133)).
BFP16EBS8 = np.dtype([("exponent", np.uint8), ("mantissas", np.int8, (8,))])
_NAMES[BFP16EBS8] = "v8bfp16ebs8"
_NUMPY["v8bfp16ebs8"] = BFP16EBS8


def is_block_name(name):
    return name in ("v8bfp16ebs8", "bfp16ebs8")


def host_dtype(dt):
    """The numpy dtype of host arrays of element type `dt` (v8bfp16ebs8 and its names: BFP16EBS8)."""
    if dt is v8bfp16ebs8 or (isinstance(dt, str) and is_block_name(dt)):
        return BFP16EBS8
    return dt


def scalar_type(d):
    """The type descriptor np.ndarray[..., np.dtype[T]] takes for a host array's dtype."""
    return v8bfp16ebs8 if np.dtype(d) == BFP16EBS8 else np.dtype(d).type


def dtype_name(dt):
    """npusim's name for a numpy dtype (or scalar type); TypeError for one it does not simulate."""
    if isinstance(dt, str) and dt in ("bfloat16", "bf16"):
        return "bfloat16"
    if dt is v8bfp16ebs8 or (isinstance(dt, str) and is_block_name(dt)):
        return "v8bfp16ebs8"
    d = np.dtype(dt)
    try:
        return _NAMES[d]
    except KeyError:
        raise TypeError(f"element type {d} is not one npusim simulates "
                        "(int8, uint8, int16, uint16, int32, uint32, float32, bfloat16, v8bfp16ebs8)") from None


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
        return t in _NAMES and t != BFP16EBS8
    try:
        return isinstance(t, type) and issubclass(t, np.generic) and t is not v8bfp16ebs8 and np.dtype(t) in _NAMES
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
    short = {"i8": "int8", "u8": "uint8", "i16": "int16", "u16": "uint16", "i32": "int32", "u32": "uint32", "f32": "float32",
             "bf16": "bfloat16"}
    return short.get(npusim_name, npusim_name)
