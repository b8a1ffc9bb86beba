"""aie.extras.dialects.arith under npusim: the integer casts IRON bodies use on scalars.

index_cast stores a range_ index into an element (elem[i] = arith.index_cast(i, to=T)): in a
recorded body the index is a recorded value, and a store converts to the element's type as the core
does, so the cast is the value itself. trunci(T.iN(), v) keeps the low N bits of v, sign-extended
(the value an iN register holds, as MLIR's arith.trunci gives it; color_threshold's bodies truncate
i32 run-time parameters to the kernel's i16/i8 scalars); on a recorded value it is recorded as
((v & (2^N - 1)) ^ 2^(N-1)) - 2^(N-1). extsi / extui widen: a signed value is itself, an unsigned
one keeps the low bits of its source type. Other arith ops raise NotImplementedError naming them."""
from .types import _IntType


def index_cast(value, to=None, **_):
    return value


def _width(t, op):
    if not isinstance(t, _IntType):
        raise NotImplementedError(f"aie.extras.dialects.arith.{op} to {t!r} is not supported by npusim (integer types "
                                  "of aie.extras.types only)")
    return t.width


def trunci(result_type, value, **_):
    n = _width(result_type, "trunci")
    mask, sign = (1 << n) - 1, 1 << (n - 1)
    return ((value & mask) ^ sign) - sign  # a Python int, or a recorded value (recorded as these ops)


def extsi(result_type, value, **_):
    _width(result_type, "extsi")
    return value


def extui(result_type, value, from_width=None, **_):
    _width(result_type, "extui")
    if from_width is None:
        return value
    return value & ((1 << from_width) - 1)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.extras.dialects.arith.{name} is not supported by npusim")
