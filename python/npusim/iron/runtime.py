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


class Runtime:
    """IRON Runtime(sequence_fn, fn_args): fn_args are tensor types (host arguments), ints (compile-time
    constants) or objects passed through (fifo handles, Buffers, barriers, kernels)."""

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
        tensors, handles, args = [], [], []
        for a in self.fn_args:
            if is_tensor_type(a) or isinstance(a, _npusim.TensorType) or hasattr(a, "ndarray_type"):
                t = tensor_type(a)
                args.append(RuntimeData(_npusim.RuntimeData(len(tensors), t), a))
                tensors.append(t)
            elif is_scalar_type(a):
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: Runtime: a scalar runtime argument ({a.__name__}) is "
                                          "not supported by npusim")
            else:
                if isinstance(a, ObjectFifo):
                    raise design_error(loc, f"Runtime: fifo '{a.name}' was passed itself; pass a handle")
                if isinstance(a, ObjectFifoHandle):
                    handles.append(a._native)
                elif isinstance(a, (list, tuple)):  # a list of handles (one per column, as E7 passes them)
                    handles += [h._native for h in a if isinstance(h, ObjectFifoHandle)]
                args.append(a)
        self.tensor_types = tensors
        self._args = args

        def run():
            with _trace.sequence_active():
                sequence_fn(*self._args)

        with _Located(loc):
            self._native = _npusim.make_runtime(run, tensors, handles, strict_task_groups=bool(strict_task_groups))
