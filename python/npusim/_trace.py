"""Recording a worker body, as IRON traces one to emit MLIR.

While a body is recorded, the run-time operations of the objects it receives (acquire, release,
kernel calls, element reads and writes, Buffer access, barrier waits, range_ loops) append
statements to a native BodyBuilder instead of running; element values are registers (Value),
combined by Python's operators into recorded arithmetic. The simulator then runs the recording
natively (docs/python.md, "Worker bodies").
"""
import contextlib

from . import _npusim

_current = None  # the Recording being made, if any
_sequence_depth = 0  # > 0 while a runtime sequence runs (at resolve)


def current():
    return _current


def in_sequence():
    return _sequence_depth > 0


@contextlib.contextmanager
def sequence_active():
    global _sequence_depth
    _sequence_depth += 1
    try:
        yield
    finally:
        _sequence_depth -= 1


class Recording:
    """The statements of one body and the objects they refer to, by index."""

    def __init__(self, name):
        self.builder = _npusim.BodyBuilder(name)
        self.fifos, self.kernels, self.buffers, self.barriers, self.locks = [], [], [], [], []

    @staticmethod
    def _index(lst, native):
        for i, x in enumerate(lst):
            if x is native:
                return i
        lst.append(native)
        return len(lst) - 1

    def fifo(self, h):
        return self._index(self.fifos, h)

    def kernel(self, k):
        return self._index(self.kernels, k)

    def buffer(self, b):
        return self._index(self.buffers, b)

    def barrier(self, b):
        return self._index(self.barriers, b)

    def lock(self, lk):
        return self._index(self.locks, lk)

    @contextlib.contextmanager
    def active(self):
        global _current
        if _current is not None:
            raise RuntimeError("npusim: a worker body was recorded inside another one")
        _current = self
        try:
            yield self
        finally:
            _current = None


def operand(x):
    """What the builder takes for a value: ("r", register) or a number."""
    if isinstance(x, Value):
        return ("r", x._reg)
    if isinstance(x, (bool, int, float)):
        return x
    if hasattr(x, "__index__"):
        return int(x.__index__())
    if hasattr(x, "__float__"):
        return float(x)
    raise TypeError(f"npusim: a {type(x).__name__} cannot be used as a number inside a worker body")


def _binary(op):
    def f(self, other):
        return Value(_current_or_fail().builder.binary(op, operand(self), operand(other)))

    def r(self, other):
        return Value(_current_or_fail().builder.binary(op, operand(other), operand(self)))

    return f, r


def _current_or_fail():
    if _current is None:
        raise RuntimeError("npusim: an element value was used outside the worker body that read it")
    return _current


class Value:
    """A scalar inside a recorded body: an element read, a loop index, or arithmetic on them."""

    __slots__ = ("_reg",)

    def __init__(self, reg):
        self._reg = reg

    __add__, __radd__ = _binary("add")
    __sub__, __rsub__ = _binary("sub")
    __mul__, __rmul__ = _binary("mul")
    __floordiv__, __rfloordiv__ = _binary("floordiv")
    __truediv__, __rtruediv__ = _binary("truediv")
    __mod__, __rmod__ = _binary("mod")
    __and__, __rand__ = _binary("and")
    __or__, __ror__ = _binary("or")
    __xor__, __rxor__ = _binary("xor")
    __lshift__, __rlshift__ = _binary("lshift")
    __rshift__, __rrshift__ = _binary("rshift")
    __lt__, _ = _binary("lt")
    __le__, _ = _binary("le")
    __gt__, _ = _binary("gt")
    __ge__, _ = _binary("ge")
    __eq__, _ = _binary("eq")
    __ne__, _ = _binary("ne")
    __hash__ = object.__hash__

    def __neg__(self):
        return 0 - self

    def __pos__(self):
        return self

    def __bool__(self):
        raise NotImplementedError(
            "npusim: a value computed inside a worker body cannot decide Python control flow (if/while/and/or) "
            "while the body is recorded; IRON traces the body once too (use arithmetic, range_, or "
            "aie.helpers.dialects.scf's if_/else_)")

    def __index__(self):
        raise NotImplementedError(
            "npusim: a value computed inside a worker body cannot be used as a Python integer (a list index, "
            "range() bound or shape) while the body is recorded; use range_ for loops over it")

    def __repr__(self):
        return f"<npusim value r{self._reg}>"


def minimum(a, b):
    return Value(_current_or_fail().builder.binary("min", operand(a), operand(b)))


def maximum(a, b):
    return Value(_current_or_fail().builder.binary("max", operand(a), operand(b)))


class ElementView:
    """An acquired object (or a Buffer) inside a recorded body: elem[i], elem[i, j], elem[i] = v."""

    __slots__ = ("_reg", "shape", "dtype", "_owner")

    def __init__(self, reg, ttype, owner):
        self._reg = reg
        self.shape = tuple(ttype.shape)
        self.dtype = ttype.dtype
        self._owner = owner

    def _flat(self, idx):
        if isinstance(idx, slice) or (isinstance(idx, tuple) and any(isinstance(i, slice) for i in idx)):
            raise NotImplementedError(f"npusim: slicing an element of '{self._owner}' inside a worker body "
                                      "(index one value at a time)")
        if not isinstance(idx, tuple):
            return operand(idx)
        if len(idx) != len(self.shape):
            raise IndexError(f"npusim: element of '{self._owner}' has {len(self.shape)} dimension(s), "
                             f"indexed with {len(idx)}")
        flat = idx[0]
        for i, n in zip(idx[1:], self.shape[1:]):
            flat = flat * n + i
        return operand(flat)

    def __getitem__(self, idx):
        rec = _current_or_fail()
        return Value(rec.builder.load(self._reg, self._flat(idx)))

    def __setitem__(self, idx, value):
        rec = _current_or_fail()
        rec.builder.store(self._reg, self._flat(idx), operand(value))

    def __len__(self):
        return self.shape[0]

    @property
    def op(self):
        """IRON's MLIR value of the element (what memref.view takes): the view itself here."""
        return self

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __repr__(self):
        return f"<npusim element of '{self._owner}' {self.dtype}{list(self.shape)}>"


def kernel_operand(x):
    if isinstance(x, ElementView):
        return ("e", x._reg)
    from .iron.buffer import Buffer
    if isinstance(x, Buffer):  # a Buffer given to a kernel is its memory, as IRON passes the memref
        return ("e", x._view()._reg)
    return operand(x)
