"""aie.iron.controlflow: range_ (python/helpers/dialects/scf.py _for). Inside a recorded worker body
the loop is recorded once, as one loop (IRON emits one scf.for); elsewhere it is Python's range."""
import sys

from .. import _trace


def range_(start, stop=None, step=None):
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    rec = _trace.current()
    if rec is None:
        yield from range(int(start), int(stop), int(step))
        return
    reg = rec.builder.loop_begin(_trace.operand(start), _trace.operand(stop), _trace.operand(step))
    yield _trace.Value(reg)
    rec.builder.loop_end()


def forever_():
    """`for _ in forever_():` (a worker with while_true=False that loops after its setup)."""
    return range_(0, sys.maxsize, 1)


def if_(*_, **__):
    raise NotImplementedError("aie.iron.controlflow.if_ is not supported by npusim")


def else_(*_, **__):
    raise NotImplementedError("aie.iron.controlflow.else_ is not supported by npusim")
