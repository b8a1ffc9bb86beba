"""aie.extras.dialects.arith under npusim: index_cast, the one arith op IRON bodies use to store a
range_ index into an element (elem[i] = arith.index_cast(i, to=T)). In a recorded body the index is
a recorded value, and a store converts to the element's type as the core does, so the cast is the
value itself. Other arith ops raise NotImplementedError naming them."""


def index_cast(value, to=None, **_):
    return value


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.extras.dialects.arith.{name} is not supported by npusim")
