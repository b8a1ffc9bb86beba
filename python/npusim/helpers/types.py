"""aie.extras.types under npusim: the MLIR scalar types IRON bodies name in casts (T.i8(), T.i16(),
T.i32(), T.i64(), T.index()); as markers with their bit width, used by aie.extras.dialects.arith's
casts. Other names raise NotImplementedError naming them."""


class _IntType:
    __slots__ = ("width",)

    def __init__(self, width):
        self.width = width

    def __eq__(self, other):
        return isinstance(other, _IntType) and other.width == self.width

    def __hash__(self):
        return hash(("i", self.width))

    def __repr__(self):
        return f"i{self.width}"


def i8():
    return _IntType(8)


def i16():
    return _IntType(16)


def i32():
    return _IntType(32)


def i64():
    return _IntType(64)


def index():
    return _IntType(64)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.extras.types.{name} is not supported by npusim")
