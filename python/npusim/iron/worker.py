"""Worker and WorkerRuntimeBarrier (IRON python/iron/worker.py). A Worker records its body once,
when it is constructed, by calling it with its fn_args (docs/python.md, "Worker bodies")."""
from .. import _npusim, _trace
from .._errors import DesignError, _Located, design_error, where
from .buffer import Buffer
from .dataflow import ObjectFifo, ObjectFifoHandle
from .lowlevel import Lock


class WorkerRuntimeBarrier:
    """IRON WorkerRuntimeBarrier(initial_value=0)."""

    def __init__(self, initial_value=0, name=""):
        self._native = _npusim.WorkerRuntimeBarrier(int(initial_value), name)

    def wait_for_value(self, value):
        rec = _trace.current()
        if rec is None:
            raise design_error(where(), "WorkerRuntimeBarrier.wait_for_value() outside a worker body")
        rec.builder.barrier_wait(rec.barrier(self._native), int(value))

    def release_with_value(self, value):
        rec = _trace.current()
        if rec is None:
            raise design_error(where(), "WorkerRuntimeBarrier.release_with_value() outside a worker body")
        rec.builder.barrier_release(rec.barrier(self._native), int(value))

    def set(self, value):
        loc = where()
        if not _trace.in_sequence():
            raise design_error(loc, "WorkerRuntimeBarrier.set() outside the runtime sequence")
        with _Located(loc):
            self._native.set(int(value))


def _flatten(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flatten(a)
        else:
            yield a


def _resolve_user_objects(fn_args, loc):
    """Resolves the user-side Resolvables among fn_args (each once), before the body is recorded, as
    IRON's Program does before tracing it; returns what they wrote: (switchboxes, low-level objects)."""
    from .aie_ops import resolving
    from .aie_ops import take_written as take_lowlevel
    from .resolvable import is_user_resolvable
    from .switchbox import take_written as take_switchboxes
    for a in _flatten(fn_args):
        if not is_user_resolvable(a) or getattr(a, "_npusim_resolved", False):
            continue
        try:
            with resolving():
                a.resolve()
        except (DesignError, NotImplementedError):
            raise
        except Exception as e:
            raise design_error(loc, f"Worker: resolve() of its argument {type(a).__name__} raised "
                                    f"{type(e).__name__}: {e}") from e
        try:
            a._npusim_resolved = True
        except AttributeError:  # __slots__: resolved again by another Worker, as IRON would not
            pass
    return take_switchboxes(), take_lowlevel()


class Worker:
    """IRON Worker(core_fn, fn_args=[], tile=AnyComputeTile, while_true=True, stack_size=..., trace=None)."""

    _count = 0

    def __init__(self, core_fn, fn_args=None, tile=None, while_true=True, stack_size=None, allocation_scheme=None,
                 trace=None, trace_events=None, dynamic_objfifo_lowering=None, name=None, placement=None, **unsupported):
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: Worker({', '.join(k + '=' for k in unsupported)}) is not "
                                      "supported by npusim")
        fn_args = list(fn_args or [])
        self.fn = core_fn
        self.fn_args = fn_args
        self._loc = loc
        body_name = getattr(core_fn, "__name__", "core_fn")
        self._resolved = _resolve_user_objects(fn_args, loc)
        rec = _trace.Recording(body_name)
        # Every handle, Buffer and barrier among the fn_args belongs to this worker, used or not.
        for a in _flatten(fn_args):
            if isinstance(a, ObjectFifo):
                raise design_error(loc, f"Worker: fifo '{a.name}' was passed itself; pass a handle (prod() or cons())")
            if isinstance(a, ObjectFifoHandle):
                rec.fifo(a._native)
            elif isinstance(a, Buffer):
                rec.buffer(a._native)
            elif isinstance(a, WorkerRuntimeBarrier):
                rec.barrier(a._native)
            elif isinstance(a, Lock):
                rec.lock(a._native)
        try:
            with rec.active():
                core_fn(*fn_args)
        except (DesignError, NotImplementedError):
            raise
        except Exception as e:  # the body itself failed while it was recorded
            raise design_error(loc, f"Worker: its body '{body_name}' raised {type(e).__name__}: {e}") from e
        if rec.builder.depth:
            raise design_error(loc, f"Worker: body '{body_name}' left a range_ loop early (break or return inside "
                                    "range_ is not supported in a recorded body)")
        t = tile if tile is not None else placement
        with _Located(loc):
            self._native = _npusim.make_worker(
                rec.builder.finish(), rec.fifos, rec.kernels, rec.buffers, rec.barriers,
                tile=getattr(t, "_native", None), while_true=bool(while_true),
                stack_size=int(stack_size) if stack_size else 0x400, name=name or "", trace=bool(trace),
                locks=rec.locks)
        self.tile = t

    @staticmethod
    def grid(rows, cols, factory):
        """IRON Worker.grid: a rows x cols nested list of factory(r, c)."""
        return [[factory(r, c) for c in range(cols)] for r in range(rows)]

    @property
    def name(self):
        return self._native.name


class CascadeFlow:
    """IRON CascadeFlow(src, dst) (python/iron/dataflow/cascadeflow.py): a directed cascade edge from
    one Worker's core to another's; the kernels their bodies call move the 512-bit words (put_mcd /
    get_scd). Resolve checks the toolchain's cascade rules (docs/resolve.md, "Cascades")."""

    def __init__(self, src, dst):
        loc = where()
        for w in (src, dst):
            if not isinstance(w, Worker):
                raise design_error(loc, f"CascadeFlow: {w!r} is not a Worker")
        with _Located(loc):
            self._native = _npusim.CascadeFlow(src._native, dst._native)
        self.src, self.dst = src, dst
