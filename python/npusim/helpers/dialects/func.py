"""aie.helpers.dialects.func under npusim: `func`, a kernel whose body is Python written with IRON's
body operations (mlir-aie's basic/passthrough_pykernel at 3ca0193: `@func def passthrough_fn(input:
line_ty, output: line_ty, line_width: np.int32)`, handed to a Worker and called in its body).

IRON emits the function once as a func.func and each call in a body as func.call; the core runs it.
npusim records the function's body into the calling worker's recording at each call, with the call's
arguments (elements, Buffers, scalars), as the tracer meets every other body operation: the body is
recorded once per call site and run natively with the worker, never as Python in a SystemC thread
(docs/python.md, "Worker bodies"). Tensor arguments are checked against the annotations as
func.call's verifier checks operand types. The call costs what its operations cost a recorded body
(element loads and stores), not a compiled function's call. Other names of the module raise
NotImplementedError naming them."""
import functools
import inspect

from ... import _trace
from ..._errors import design_error, where
from ..._types import is_tensor_type, tensor_type


class _Func:
    """The decorated function: called inside a worker body, its body is recorded there."""

    def __init__(self, fn):
        self._fn = fn
        self._sig = inspect.signature(fn)
        functools.update_wrapper(self, fn)

    def _check(self, args, loc):
        params = list(self._sig.parameters.values())
        if len(args) != len(params):
            raise design_error(loc, f"func '{self.__name__}' takes {len(params)} argument(s), called with {len(args)}")
        for p, a in zip(params, args):
            ann = p.annotation
            if ann is inspect.Parameter.empty or not is_tensor_type(ann):
                continue
            want = tensor_type(ann)
            view = a._view() if hasattr(a, "_view") else a
            if not isinstance(view, _trace.ElementView):
                raise design_error(loc, f"func '{self.__name__}': argument '{p.name}' is {want.shape} {want.dtype}, "
                                        f"given {a!r}")
            if list(view.shape) != list(want.shape) or view.dtype != want.dtype:
                raise design_error(loc, f"func '{self.__name__}': argument '{p.name}' is {list(want.shape)} "
                                        f"{want.dtype}, given {list(view.shape)} {view.dtype} ('{view._owner}')")

    def __call__(self, *args):
        loc = where()
        if _trace.current() is None:
            raise design_error(loc, f"func '{self.__name__}' called outside a worker body (npusim runs it where a "
                                    "core calls it)")
        self._check(args, loc)
        return self._fn(*args)

    def emit(self, *_, **__):
        """IRON emits the func.func here; npusim records the body at its calls instead."""
        return self


def func(f=None, *, sym_visibility=None, arg_attrs=None, res_attrs=None, func_attrs=None, emit=False, loc=None,
         ip=None):
    """@func or @func(...): a kernel written in Python (the attributes only shape IRON's MLIR)."""
    if f is None:
        return lambda g: _Func(g)
    return _Func(f)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.helpers.dialects.func.{name} is not supported by npusim")

