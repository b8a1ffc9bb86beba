"""aie.extras.dialects.memref under npusim: view(source, shape, dtype=None, shift=0), the memref.view
IRON bodies slice one Buffer of weights into per-layer pieces with (mlir-aie's ml/mobilenet
bottleneck/regular.py and pipeline.py at 3ca0193: `memref_view(wts.op, [n], shift=k)`). As in
mlir-python-extras' memref.view, `shift` counts elements of the view's dtype (the source's element
type by default) and the view starts shift * itemsize bytes into the source. Inside a recorded body
the view is recorded (RecordedBody's ElementView) and may be indexed or given to a kernel as any
element is; the MLIR export gives a kernel argument that is part of a buffer the ops this function
emits upstream (`arith.constant` of the byte shift, `memref.view`, whose source is a 1-D i8 memref).
Other names raise NotImplementedError naming them."""
import numpy as np

from .. import _npusim, _trace
from .._errors import design_error, where
from .._types import dtype_name, numpy_dtype, numpy_name


def view(source, shape, dtype=None, shift=0, memory_space=None, loc=None, ip=None):
    here = where()
    if memory_space is not None:
        raise NotImplementedError(f"{here[0]}:{here[1]}: aie.extras.dialects.memref.view(memory_space=) is not "
                                  "supported by npusim")
    rec = _trace.current()
    if rec is None:
        raise design_error(here, "memref.view outside a worker body (a view is of memory the body holds)")
    from ..iron.buffer import Buffer
    src = source._view() if isinstance(source, Buffer) else source
    if not isinstance(src, _trace.ElementView):
        raise design_error(here, f"memref.view of {source!r}: give a Buffer or an acquired element")
    if not isinstance(shift, (int, np.integer)):
        raise NotImplementedError(f"{here[0]}:{here[1]}: aie.extras.dialects.memref.view with a shift computed in "
                                  "the body is not supported by npusim (give an int)")
    elem = dtype_name(dtype) if dtype is not None else numpy_name(src.dtype)
    vtype = _npusim.TensorType(elem, [int(s) for s in shape])
    itemsize = np.dtype(numpy_dtype(elem)).itemsize
    src_bytes = int(np.prod(src.shape)) * np.dtype(numpy_dtype(src.dtype)).itemsize
    offset = int(shift) * itemsize
    if offset < 0 or offset + vtype.bytes > src_bytes:
        raise design_error(here, f"memref.view of {vtype.shape} {elem} at shift {shift} ends outside "
                                 f"'{src._owner}' ({src_bytes} bytes)")
    return _trace.ElementView(rec.builder.element_view(src._reg, offset, vtype), vtype, src._owner)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.extras.dialects.memref.{name} is not supported by npusim")
