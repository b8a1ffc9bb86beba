"""aie.helpers.dialects.scf under npusim: if_ and else_ (mlir-aie python/helpers/dialects/scf.py at
3ca0193, where they emit an scf.if with a then- and an else-region). Inside a worker body being
recorded they record an If statement (frontend/RecordedBody.hpp): the condition is a recorded
value (a comparison of elements) or a constant, and the simulator runs the branch it picks each
time the body runs. `with else_(if_op)` must directly follow its `with if_(...) as if_op` block."""
from ... import _trace
from ..._errors import _Located, design_error, where


class IfOp:
    """What `with if_(cond) as if_op` gives: the handle else_ takes."""

    def __init__(self, if_id):
        self.id = if_id


def _recording(call):
    rec = _trace.current()
    if rec is None:
        raise NotImplementedError(f"{':'.join(map(str, where()))}: aie.helpers.dialects.scf.{call} outside a worker "
                                  "body is not supported by npusim (a runtime sequence runs as plain Python: use if)")
    return rec


class if_:
    """`with if_(cond) as if_op:` records the then-block (hasElse is accepted: an else_ block is optional)."""

    def __init__(self, cond, hasElse=True, insert_yield=True, loc=None, ip=None):
        self._rec = _recording("if_")
        self._cond = _trace.operand(cond)

    def __enter__(self):
        return IfOp(self._rec.builder.if_begin(self._cond))

    def __exit__(self, exc_type, *_):
        if exc_type is None:
            self._rec.builder.if_end()
        return False


class else_:
    """`with else_(if_op):` records the else-block of the if_ block just closed."""

    def __init__(self, if_op, insert_yield=True):
        self._loc = where()  # the user's line: __enter__ runs from the with statement's machinery
        self._rec = _recording("else_")
        if not isinstance(if_op, IfOp):
            raise design_error(self._loc, f"else_: {if_op!r} is not what `with if_(...) as if_op` gave")
        self._op = if_op

    def __enter__(self):
        with _Located(self._loc):
            self._rec.builder.else_begin(self._op.id)

    def __exit__(self, exc_type, *_):
        if exc_type is None:
            self._rec.builder.else_end()
        return False


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.helpers.dialects.scf.{name} is not supported by npusim")
