"""Runtime (IRON python/iron/runtime/): the host-side sequence. Its function runs once, when the
program is resolved, with live handles: fill/drain/TaskGroup/Buffer writes/barrier sets record the
runtime sequence, as IRON's runtime_sequence records them."""
from .. import _npusim, _trace
from .._errors import _Located, design_error, where
from .._types import is_scalar_type, is_tensor_type, tensor_type
from .dataflow import ObjectFifo, ObjectFifoHandle


class RuntimeData:
    """A host tensor argument of the sequence."""

    def __init__(self, native, py_type):
        self._native = native
        self.arr_type = py_type

    @property
    def shape(self):
        return tuple(self._native.type.shape)

    @property
    def dtype(self):
        return self._native.type.dtype

    @property
    def op(self):
        """IRON's SSA value of the argument (what aiex tasks take): the argument itself here."""
        return self


class Task:
    def __init__(self, native):
        self._native = native

    def await_(self):
        with _Located(where()):
            self._native.await_()

    def free(self):
        with _Located(where()):
            self._native.free()


class TaskGroup:
    """IRON TaskGroup(): made inside the sequence; finish() awaits its waited transfers, then frees."""

    def __init__(self):
        loc = where()
        if not _trace.in_sequence():
            raise design_error(loc, "TaskGroup() outside the runtime sequence")
        with _Located(loc):
            self._native = _npusim.TaskGroup()

    def finish(self):
        with _Located(where()):
            self._native.finish()


class _ScalarArg:
    """A scalar runtime input (IRON: a scalar type such as np.int32 in the Runtime's fn_args): the
    sequence receives its value, given to npusim.simulate among the inputs. The sequence runs as
    Python each time the program is resolved for a run, so the value may decide its loops, offsets
    and RTP writes."""

    def __init__(self, index, scalar_type):
        self.index = index
        self.type = scalar_type


class Runtime:
    """IRON Runtime(sequence_fn, fn_args): fn_args are tensor types (host arguments), scalar types
    (np.int32: runtime scalars), ints (compile-time constants) or objects passed through (fifo
    handles, Buffers, barriers, kernels)."""

    def __init__(self, sequence_fn=None, fn_args=None, strict_task_groups=True, **unsupported):
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: Runtime({', '.join(k + '=' for k in unsupported)}) is not "
                                      "supported by npusim")
        if sequence_fn is None:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: Runtime() without a sequence function (the older "
                                      "rt.sequence(...) context-manager form) is not supported by npusim")
        self._loc = loc
        self.fn = sequence_fn
        self.fn_args = list(fn_args or [])
        tensors, handles, args, scalars, kinds = [], [], [], [], []
        for a in self.fn_args:
            if is_tensor_type(a) or isinstance(a, _npusim.TensorType) or hasattr(a, "ndarray_type"):
                t = tensor_type(a)
                args.append(RuntimeData(_npusim.RuntimeData(len(tensors), t), a))
                tensors.append(t)
                kinds.append("tensor")
            elif is_scalar_type(a):
                args.append(_ScalarArg(len(scalars), a))
                scalars.append(a)
                kinds.append("scalar")
                continue
            else:
                if isinstance(a, ObjectFifo):
                    raise design_error(loc, f"Runtime: fifo '{a.name}' was passed itself; pass a handle")
                # a handle, or a list/tuple of handles (IRON passes lists of them through as is)
                for h in (a if isinstance(a, (list, tuple)) else [a]):
                    if isinstance(h, ObjectFifo):
                        raise design_error(loc, f"Runtime: fifo '{h.name}' was passed itself; pass a handle")
                    if isinstance(h, ObjectFifoHandle):
                        handles.append(h._native)
                args.append(a)
        self.tensor_types = tensors
        self.scalar_types = scalars  # np.int32, ...: runtime scalars, valued per simulate() call
        self.input_kinds = kinds  # "tensor" / "scalar" per runtime input, in fn_args order
        self.scalar_values = None  # set by npusim.simulate before it resolves and runs the program
        self._args = args

        def run():
            values = self.scalar_values
            call = [values[a.index] if isinstance(a, _ScalarArg) else a for a in self._args]
            with _trace.sequence_active():
                sequence_fn(*call)

        with _Located(loc):
            self._native = _npusim.make_runtime(run, tensors, handles, strict_task_groups=bool(strict_task_groups))

    # ---- hand-written data movement (python/iron/runtime/runtime.py add_flow / add_lock / add_tile_dma) ----
    def add_flow(self, flow):
        with _Located(where()):
            _npusim.runtime_add_flow(self._native, flow._native)

    def add_lock(self, lock):
        with _Located(where()):
            _npusim.runtime_add_lock(self._native, lock._native)

    def add_tile_dma(self, tile_dma):
        with _Located(where()):
            _npusim.runtime_add_tile_dma(self._native, tile_dma._native)
