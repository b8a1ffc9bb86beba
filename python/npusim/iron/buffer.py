"""Buffer (IRON aie.iron.Buffer): a tensor in a tile's memory a worker body reads and writes."""
import numpy as np

from .. import _npusim, _trace
from .._errors import _Located, design_error, where
from .._types import numpy_dtype, tensor_type


class Buffer:
    """IRON Buffer(type=None, initial_value=None, name=None, use_write_rtp=False, tile=None)."""

    _count = 0

    def __init__(self, type=None, initial_value=None, name=None, use_write_rtp=False, tile=None,
                 placement=None):  # noqa: A002 - IRON's keyword
        loc = where()
        if type is None and initial_value is None:
            raise design_error(loc, "Buffer: give type= or initial_value=")
        t = tensor_type(type) if type is not None else None
        init = b""
        if initial_value is not None:
            arr = np.asarray(initial_value)
            if t is None:
                t = tensor_type(np.ndarray[arr.shape, np.dtype[arr.dtype.type]])
            dt = numpy_dtype(t.dtype)
            # a single value (a scalar or a one-element array) fills the buffer, as a splat initializer
            # does in IRON's MLIR; otherwise the array gives every element
            init = (np.full(t.shape, arr.reshape(()), dtype=dt) if arr.size == 1 else arr.astype(dt)).tobytes()
        if name is None:
            name = f"buf_{Buffer._count}"
            Buffer._count += 1
        tl = tile if tile is not None else placement
        with _Located(loc):
            self._native = _npusim.Buffer(t, name, initial_bytes=init, tile=getattr(tl, "_native", None),
                                          use_write_rtp=bool(use_write_rtp))
        self._type = t

    @property
    def name(self):
        return self._native.name

    @property
    def shape(self):
        return tuple(self._type.shape)

    @property
    def op(self):
        """IRON's MLIR value of the buffer (what memref.view takes in a body): the Buffer itself here."""
        return self

    def _view(self):
        rec = _trace.current()
        return _trace.ElementView(rec.builder.buffer_view(rec.buffer(self._native)), self._type, self.name)

    def __getitem__(self, idx):
        if _trace.current() is None:
            raise design_error(where(), f"reading Buffer '{self.name}' outside a worker body")
        return self._view()[idx]

    def __setitem__(self, idx, value):
        if _trace.current() is not None:
            self._view()[idx] = value
            return
        loc = where()
        if not _trace.in_sequence():
            raise design_error(loc, f"writing Buffer '{self.name}' outside a worker body or the runtime sequence")
        with _Located(loc):
            self._native.write(int(idx), value.item() if hasattr(value, "item") else value)
