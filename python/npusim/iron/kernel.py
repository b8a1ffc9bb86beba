"""Kernel and ExternalFunction (IRON python/iron/kernel.py), bound to npusim's kernels.

A Kernel names a compiled core object (Kernel("passThroughLine", "passThrough.cc.o", types)); npusim
runs no core objects, so the name is looked up in npusim's kernel library (the reference kernels
of aie.iron.kernels, and the upstream kernel symbols the C++ twins bind: row_wise_bias_add_f32_f32,
conv2dk1_i8, eltwise_mul_add_bf16_vector, the cascade matmul's matmul_scalar_cascade_* and zero_*). An ExternalFunction goes through one native entry point
that finds a registered build of its source or has the run-time kernel compiler (harness/KernelCompiler) build it
for the host, for the generation of the run's device; a source that does not compile is a
DesignError at the ExternalFunction call naming the compiler's first error.
"""
import numpy as np

from .. import _npusim, _trace
from .._errors import _Located, design_error, where
from .._types import arg_type, dtype_name


class _KernelBase:
    _native = None
    _name = ""

    def __call__(self, *args):
        rec = _trace.current()
        if rec is None:
            raise design_error(where(), f"kernel '{self._name}' called outside a worker body")
        n = self._native.arg_count
        if len(args) != n:
            raise design_error(where(), f"kernel '{self._name}' takes {n} argument(s), called with {len(args)}")
        from .buffer import Buffer  # a Buffer argument is its memory, as an acquired element is
        args = [a._view() if isinstance(a, Buffer) else a for a in args]
        rec.builder.call(rec.kernel(self._native), [_trace.kernel_operand(a) for a in args])

    @property
    def name(self):
        return self._name

    def arg_types(self):
        """IRON's arg_types(): the numpy types of the kernel's arguments, as given to it (a library
        kernel's from its signature: np.ndarray[(n,), np.dtype[T]] for a tensor, T for a scalar)."""
        given = getattr(self, "_arg_types", None)
        if given is not None:
            return list(given)
        return [_numpy_arg_type(self._native.arg_type(i)) for i in range(self._native.arg_count)]


def _library_for_symbol(name, types):
    """A kernel of npusim's library for an upstream kernel symbol, or None."""
    tensors = [t for t in types if isinstance(t, _npusim.TensorType)]
    if not tensors:
        return None
    first = tensors[0]
    if name == "passThroughLine" and len(types) == 3:
        return _npusim.library_kernel("passthrough", first.elements, first.dtype)
    if name.startswith("vector_scalar_mul") and len(types) == 4:
        return _npusim.library_kernel("scale", first.elements, first.dtype, vectorized=not name.endswith("scalar"))
    # the kernels of the canonical designs' C++ twins (python/src/BindKernelSymbols.cpp)
    return _npusim.symbol_kernel(name, types)


class Kernel(_KernelBase):
    """IRON Kernel(name, bin_name, arg_types=[])."""

    def __init__(self, name, bin_name=None, arg_types=(), **unsupported):
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: Kernel({', '.join(k + '=' for k in unsupported)}) is not "
                                      "supported by npusim")
        self._name = name
        self.bin_name = bin_name
        with _Located(loc):
            types = [arg_type(t) for t in arg_types]
            native = _library_for_symbol(name, types)
        if native is None:
            raise NotImplementedError(
                f"{loc[0]}:{loc[1]}: Kernel('{name}', '{bin_name}'): npusim cannot run a compiled core object; "
                "no kernel of npusim's library has this name and signature (use aie.iron.kernels or an "
                "ExternalFunction with its source)")
        self._native = native
        self._arg_types = list(arg_types)


class ExternalFunction(_KernelBase):
    """IRON ExternalFunction(name, object_file_name=None, source_file=None, source_string=None,
    arg_types=[], include_dirs=[], compile_flags=[])."""

    # Every ExternalFunction built (IRON registers its instances here for the JIT to compile, and
    # designs clear it to rebuild, kernel.py:303); npusim builds each at construction.
    _instances = set()

    def __init__(self, name, object_file_name=None, source_file=None, source_string=None, arg_types=(),
                 include_dirs=(), compile_flags=(), *, inline=False, use_chess=False, **unsupported):
        # inline=True has Peano emit the kernel as LLVM IR that aiecc inlines into the core: the
        # same function, so the simulation is the same. use_chess picks the device compiler (xchesscc
        # instead of Peano, python/iron/kernel.py:325 at 3ca0193); npusim compiles every source for
        # the host with its own compiler, so it makes no difference here.
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: ExternalFunction({', '.join(k + '=' for k in unsupported)})"
                                      " is not supported by npusim")
        self._name = name
        self._arg_types = list(arg_types)
        self.source_file, self.source_string = source_file, source_string
        self.include_dirs, self.compile_flags = list(include_dirs), list(compile_flags)
        with _Located(loc):
            types = [arg_type(t) for t in arg_types]
            try:
                self._native = _npusim.external_function(name, types, source_file=source_file,
                                                         source_string=source_string, include_dirs=list(include_dirs),
                                                         compile_flags=[str(f) for f in compile_flags],
                                                         arch=_device_arch())
            except NotImplementedError as e:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: {e}") from None
        ExternalFunction._instances.add(self)

    def tile_size(self, arg_index=0):
        return self._arg_types[arg_index].__args__[0][0]


def _numpy_arg_type(text):
    """A native kernel argument type ("i32[64]", "bf16[4, 8]", "i32 scalar") as IRON's numpy type."""
    from .._types import numpy_dtype
    if text.endswith(" scalar"):
        return numpy_dtype(text[:-len(" scalar")]).type
    name, shape = text.rstrip("]").split("[", 1)
    return np.ndarray[tuple(int(d) for d in shape.split(",")), np.dtype[numpy_dtype(name).type]]


def _device_arch():
    """The generation of the run's device (--device; IRON compiles an ExternalFunction for the device
    the design targets when the design is built): "aie2" or "aie2p"."""
    from .device import get_current_device
    return get_current_device()._arch


def _dtype_arg(dtype):
    return dtype_name(dtype if dtype is not None else np.int32)
