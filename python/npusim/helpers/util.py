"""aie.helpers.util: type-descriptor helpers and IRON's block floating-point type."""
from .._types import v8bfp16ebs8  # noqa: F401  (IRON: from aie.helpers.util import v8bfp16ebs8)


def np_ndarray_type_get_shape(t):
    spec = getattr(t, "ndarray_type", t)
    return tuple(spec.__args__[0])


def np_ndarray_type_get_dtype(t):
    spec = getattr(t, "ndarray_type", t)
    return spec.__args__[1].__args__[0]
