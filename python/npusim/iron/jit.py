"""@iron.jit: a generator function called with tensors. The call builds the design from the
tensors' shapes and dtypes (the generator sees In/Out specs, never the data), resolves it (once
per signature: the resolved program is cached, as IRON caches the xclbin) and simulates it on the
tensors; the output tensors then hold the results."""
import functools
import inspect
import typing

import numpy as np

from .. import _errors
from .._types import ndarray_type, scalar_type
from .tensor import Tensor


class _Marker:
    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return self.kind


In, Out, InOut = _Marker("In"), _Marker("Out"), _Marker("InOut")


class _CompileTime:
    def __getitem__(self, t):
        return typing.Annotated[t, "CompileTime"]


CompileTime = _CompileTime()


class TensorSpec:
    """What the generator sees of a tensor argument: its shape, dtype and type descriptor."""

    def __init__(self, arr, kind):
        self.shape = tuple(arr.shape)
        self.dtype = arr.dtype
        self.kind = kind
        self.ndarray_type = ndarray_type(self.shape, scalar_type(arr.dtype))

    def numel(self):
        return int(np.prod(self.shape))

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"{self.kind}({self.shape}, {self.dtype})"


def _array(x):
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, np.ndarray):
        return x
    return None


class JitFunction:
    def __init__(self, fn, **config):
        self.fn = fn
        self.config = config
        self.sig = inspect.signature(fn)
        # Resolved programs per signature; IRON's CallableDesign keeps its compiled kernels in an
        # attribute of this name (utils/callabledesign.py:137), which designs clear to rebuild.
        self._kernel_cache = {}
        functools.update_wrapper(self, fn)

    def _kind(self, name):
        ann = self.sig.parameters[name].annotation
        if isinstance(ann, str):  # from __future__ import annotations
            return ann if ann in ("In", "Out", "InOut") else "InOut"
        return ann.kind if isinstance(ann, _Marker) else "InOut"

    def build(self, *args, **kwargs):
        """The resolved program for these arguments (cached per shapes, dtypes and compile-time values)."""
        bound = self.sig.bind(*args, **kwargs)
        call_args, key, tensors = {}, [], []
        for name, v in bound.arguments.items():
            arr = _array(v)
            if arr is not None:
                spec = TensorSpec(arr, self._kind(name))
                call_args[name] = spec
                tensors.append((name, v, arr))
                key.append((name, spec.shape, str(spec.dtype)))
            else:
                call_args[name] = v
                try:
                    hash(v)
                    key.append((name, v))
                except TypeError:
                    key.append((name, id(v)))
        k = tuple(key)
        if k not in self._kernel_cache:
            result = self.fn(**call_args)
            from .program import Program, ResolvedProgram
            if isinstance(result, Program):
                result = result.resolve_program()
            if not isinstance(result, ResolvedProgram):
                raise _errors.design_error(_errors.where(), f"@jit function '{self.fn.__name__}' must return "
                                           "Program(...).resolve_program()")
            self._kernel_cache[k] = result
        return self._kernel_cache[k], tensors

    def specialize(self, **kwargs):
        """The design for these compile-time arguments (tensor parameters given as None), as IRON's
        CallableDesign.specialize: .as_mlir() prints npusim's MLIR export."""
        params = {n: None for n, p in self.sig.parameters.items()
                  if n not in kwargs and p.default is inspect.Parameter.empty}
        return _Specialized(self, {**params, **kwargs})

    def __call__(self, *args, **kwargs):
        from .. import simulate
        program, tensors = self.build(*args, **kwargs)
        arrays = [arr for _, _, arr in tensors]
        run = simulate(program, arrays)
        return run


class _Specialized:
    def __init__(self, jit_fn, kwargs):
        self.jit_fn, self.kwargs = jit_fn, kwargs

    def resolve(self):
        """The resolved program (IRON's compile builds the same MLIR module)."""
        from .program import Program
        result = self.jit_fn.fn(**self.kwargs)
        if isinstance(result, Program):
            result = result.resolve_program()
        return result

    def as_mlir(self):
        return str(self.resolve())

    def compile(self, **_):
        raise NotImplementedError("compiling a design to an xclbin needs mlir-aie and Peano; npusim simulates it")


def jit(fn=None, **config):
    if fn is None:
        return lambda f: JitFunction(f, **config)
    return JitFunction(fn, **config)
