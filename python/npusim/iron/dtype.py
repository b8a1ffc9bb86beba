"""aie.iron.dtype: IRON's short element-type names ('i32', 'bf16', ...) and the numpy types they
stand for (python/iron/dtype.py: str_to_dtype, dtype_to_str)."""
import numpy as np

from .._types import _bf16

dtype_map = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "f32": np.float32, "bf16": _bf16}


def str_to_dtype(dtype_str):
    """The numpy type of a short name; ValueError for a name IRON does not know."""
    if dtype_str in dtype_map:
        return dtype_map[dtype_str]
    raise ValueError(f"Unrecognized dtype: {dtype_str}")


def dtype_to_str(dtype):
    """The short name of a numpy type; ValueError for one IRON does not name."""
    for name, t in dtype_map.items():
        if np.dtype(t) == np.dtype(dtype):
            return name
    raise ValueError(f"Unrecognized dtype: {dtype}")
