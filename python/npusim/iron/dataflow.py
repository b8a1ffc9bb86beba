"""ObjectFifo and its handles (IRON aie.iron.ObjectFifo, python/iron/dataflow/objectfifo.py)."""
from .. import _npusim, _trace
from .._errors import _Located, design_error, where
from .._types import tensor_type
# IRON's dataflow package also holds the explicit-routing peers of ObjectFifo (dataflow/__init__.py)
from .lowlevel import Acquire, Bd, DmaChannel, Flow, PacketDest, PacketFlow, Release, TileDma  # noqa: F401


# IRON's type alias for ObjectFifo dimensions: [(size, stride), ...], outermost first.
StreamDims = list


def _dims(d):
    return [tuple(int(v) for v in p) for p in (d or [])]


class ObjectFifoEndpoint:
    """IRON's ObjectFifoEndpoint(tile): the placeable end of a fifo. Workers and links are endpoints
    IRON sets itself; a plain one given to a producer handle (`of.prod().endpoint =
    ObjectFifoEndpoint(AnyMemTile)`) puts that end on a mem tile, where the fifo's init_values are
    its only objects (the C++ ObjectFifoHandle::set_endpoint)."""

    def __init__(self, tile):
        self._tile = tile

    @property
    def tile(self):
        return self._tile


class ObjectFifoHandle:
    """One end of an ObjectFifo: prod() or one of the cons()."""

    def __init__(self, native, fifo):
        self._native = native
        self._fifo = fifo
        self._endpoint = None

    @property
    def endpoint(self):
        return self._endpoint

    @endpoint.setter
    def endpoint(self, ep):
        loc = where()
        if type(ep) is not ObjectFifoEndpoint or getattr(ep.tile, "_native", None) is None:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: ObjectFifoHandle.endpoint = {ep!r}: npusim sets an "
                                      "endpoint only from ObjectFifoEndpoint(tile) with a Tile (a mem-tile "
                                      "producer of init_values); workers, links and the Runtime set their own")
        if self._endpoint is ep:
            return
        with _Located(loc):
            self._native.set_endpoint(ep.tile._native)
        self._endpoint = ep

    @property
    def name(self):
        return self._native.name

    @property
    def obj_type(self):
        return self._fifo.obj_type

    @property
    def depth(self):
        return self._native.depth

    # ---- in a worker body (recorded) ----
    def acquire(self, num_elem=1):
        rec = _trace.current()
        if rec is None:
            raise design_error(where(), f"acquire() on fifo '{self.name}' outside a worker body")
        n = int(num_elem)
        first = rec.builder.acquire(rec.fifo(self._native), n)
        t = self._native.obj_type
        views = [_trace.ElementView(first + k, t, self.name) for k in range(n)]
        return views[0] if n == 1 else views

    def release(self, num_elem=1):
        rec = _trace.current()
        if rec is None:
            raise design_error(where(), f"release() on fifo '{self.name}' outside a worker body")
        rec.builder.release(rec.fifo(self._native), int(num_elem))

    # ---- in the runtime sequence ----
    def _transfer(self, fill, data, tap=None, wait=False, group=None, sizes=None, strides=None, offset=None,
                  transfer_len=None, managed=True, **unsupported):
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: {'fill' if fill else 'drain'}("
                                      f"{', '.join(k + '=' for k in unsupported)}) is not supported by npusim")
        if not _trace.in_sequence():
            raise design_error(loc, f"{'fill' if fill else 'drain'}() on fifo '{self.name}' outside the runtime sequence")
        from .runtime import RuntimeData, Task
        if not isinstance(data, RuntimeData):
            raise design_error(loc, f"{'fill' if fill else 'drain'}() on fifo '{self.name}': the data must be a "
                                    f"runtime-sequence tensor argument, not {type(data).__name__}")
        with _Located(loc):
            native_tap = tap._native if tap is not None else None
            g = group._native if group is not None else None
            t = (_npusim.fill if fill else _npusim.drain)(
                self._native, data._native, tap=native_tap, wait=bool(wait), group=g, sizes=sizes, strides=strides,
                offset=offset, transfer_len=transfer_len, managed=bool(managed))
        return Task(t)

    # IRON's parameter order (dataflow/objectfifo.py fill/drain): designs pass tap and wait positionally.
    def fill(self, source, tap=None, wait=False, packet=None, offset_parameter=None, group=None, sizes=None,
             strides=None, offset=None, transfer_len=None, managed=True, **unsupported):
        return self._transfer(True, source, tap=tap, wait=wait, group=group, sizes=sizes, strides=strides,
                              offset=offset, transfer_len=transfer_len, managed=managed,
                              **self._given(packet=packet, offset_parameter=offset_parameter), **unsupported)

    def drain(self, dest, tap=None, wait=False, packet=None, offset_parameter=None, group=None, sizes=None,
              strides=None, offset=None, transfer_len=None, managed=True, **unsupported):
        return self._transfer(False, dest, tap=tap, wait=wait, group=group, sizes=sizes, strides=strides,
                              offset=offset, transfer_len=transfer_len, managed=managed,
                              **self._given(packet=packet, offset_parameter=offset_parameter), **unsupported)

    @staticmethod
    def _given(**kw):
        """The keywords npusim does not model that the call actually gave (not None)."""
        return {k: v for k, v in kw.items() if v is not None}

    # ---- design time ----
    def forward(self, placement=None, obj_type=None, depth=None, name=None, tile=None, dims_to_stream=None,
                dims_from_stream=None, plio=False, repeat_count=None, pad_dimensions=None, pad_value=0,
                **unsupported):
        if unsupported:
            raise NotImplementedError(f"forward({', '.join(k + '=' for k in unsupported)}) is not supported by npusim")
        if plio:
            raise NotImplementedError("forward(plio=True) is not supported by npusim")
        with _Located(where()):
            t = tile if tile is not None else placement
            native = self._native.forward(obj_type=tensor_type(obj_type) if obj_type is not None else None,
                                          depth=depth, name=name or "", tile=getattr(t, "_native", None),
                                          dims_to_stream=_dims(dims_to_stream), dims_from_stream=_dims(dims_from_stream),
                                          repeat_count=repeat_count, pad_dimensions=_dims(pad_dimensions),
                                          pad_value=int(pad_value or 0))
        return ObjectFifo._wrap(native)

    def _link(self, split, offsets, obj_types=None, names=None, depths=None, tile=None, placement=None,
              dims_to_stream=None, dims_from_stream=None, plio=False, repeat_counts=None, pad_dimensions=None,
              pad_value=None, **unsupported):
        what = "split" if split else "join"
        if unsupported:
            raise NotImplementedError(f"{what}({', '.join(k + '=' for k in unsupported)}) is not supported by npusim")
        if plio:
            raise NotImplementedError(f"{what}(plio=True) is not supported by npusim")
        t = tile if tile is not None else placement
        with _Located(where()):
            subs = self._native.link(split, [int(o) for o in offsets], [tensor_type(x) for x in (obj_types or [])],
                                     list(names or []), [int(d) for d in (depths or [])], getattr(t, "_native", None),
                                     dims_to_stream=[_dims(d) for d in (dims_to_stream or [])],
                                     dims_from_stream=[_dims(d) for d in (dims_from_stream or [])],
                                     repeat_counts=list(repeat_counts or []),
                                     pad_dimensions=[_dims(d) for d in (pad_dimensions or [])],
                                     pad_value=[int(v) for v in (pad_value or [])])
        return [ObjectFifo._wrap(s) for s in subs]

    def split(self, offsets, **kw):
        return self._link(True, offsets, **kw)

    def join(self, offsets, **kw):
        return self._link(False, offsets, **kw)


class ObjectFifoLink:
    """IRON ObjectFifoLink(srcs, dsts, tile=AnyMemTile, src_offsets=None, dst_offsets=None): consumer
    handles of existing fifos linked to producer handles of others on a link tile (one to one, one
    to many with dst_offsets, or many to one with src_offsets): the explicit form of forward, split
    and join (frontend/ObjectFifoLink.hpp)."""

    def __init__(self, srcs, dsts, tile=None, src_offsets=None, dst_offsets=None):
        srcs = list(srcs) if isinstance(srcs, (list, tuple)) else [srcs]
        dsts = list(dsts) if isinstance(dsts, (list, tuple)) else [dsts]
        for h in srcs + dsts:
            if not isinstance(h, ObjectFifoHandle):
                raise TypeError(f"ObjectFifoLink: {h!r} is not an ObjectFifoHandle (give of.cons() / of.prod())")
        with _Located(where()):
            _npusim.object_fifo_link([h._native for h in srcs], [h._native for h in dsts], getattr(tile, "_native", None),
                                     [int(o) for o in (src_offsets or [])], [int(o) for o in (dst_offsets or [])])
        self.srcs, self.dsts = srcs, dsts


class ObjectFifo:
    """IRON ObjectFifo(obj_type, depth=2, name=None, dims_to_stream=None, ...)."""

    def __init__(self, obj_type, depth=2, name=None, dims_to_stream=None, to_stream=None,
                 dims_from_stream_per_cons=None, plio=False, init_values=None, pad_dimensions=None, pad_value=0,
                 repeat_count=None, consumer_obj_type=None, via_DMA=False, disable_synchronization=False,
                 delegate_tile=None, aie_stream=None, **unsupported):
        loc = where()
        if unsupported:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: ObjectFifo({', '.join(k + '=' for k in unsupported)}) "
                                      "is not supported by npusim")
        if plio:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: ObjectFifo(plio=True) is not supported by npusim")
        # aie_stream=(end, port): end 0 makes the producer end the core's stream port `port`, 1 the
        # consumer end, 2 both (objectfifo.py l.142-146, the aie_stream / aie_stream_port attributes;
        # docs/resolve-lowlevel.md "Stream ports").
        if aie_stream is not None:
            if (not isinstance(aie_stream, (tuple, list)) or len(aie_stream) != 2
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in aie_stream)
                    or aie_stream[0] not in (0, 1, 2) or aie_stream[1] < 0):
                raise design_error(loc, f"ObjectFifo(aie_stream={aie_stream!r}): give (end, port) with end 0 "
                                        "(producer), 1 (consumer) or 2 (both) and a port >= 0")
            aie_stream = (int(aie_stream[0]), int(aie_stream[1]))
        if delegate_tile is not None and not hasattr(delegate_tile, "_native"):
            raise design_error(loc, f"ObjectFifo(delegate_tile={delegate_tile!r}): give a Tile")
        init = []
        for v in init_values or []:
            import numpy as np
            init.append(np.ascontiguousarray(v).tobytes())
        with _Located(loc):
            self._native = _npusim.ObjectFifo(tensor_type(obj_type), name=name, depth=int(depth),
                                              dims_to_stream=_dims(dims_to_stream or to_stream), init_values=init,
                                              repeat_count=repeat_count, pad_dimensions=_dims(pad_dimensions),
                                              pad_value=int(pad_value or 0), via_dma=bool(via_DMA),
                                              disable_synchronization=bool(disable_synchronization),
                                              delegate_tile=getattr(delegate_tile, "_native", None)
                                              if delegate_tile is not None else None,
                                              consumer_obj_type=tensor_type(consumer_obj_type)
                                              if consumer_obj_type is not None else None)
        self._obj_type = obj_type
        self._prod = None
        self._aie_stream = aie_stream
        # IRON's default dims_from_stream of every consumer handle that gives none of its own
        # (python/iron/dataflow/objectfifo.py at 3ca0193, l.321-322)
        self._dims_from_stream_per_cons = dims_from_stream_per_cons

    @classmethod
    def _wrap(cls, native):
        self = cls.__new__(cls)
        self._native = native
        self._obj_type = native.obj_type
        self._prod = None
        self._aie_stream = None
        return self

    @property
    def name(self):
        return self._native.name

    @property
    def depth(self):
        return self._native.depth

    @property
    def obj_type(self):
        return self._obj_type

    def prod(self, depth=None, tile=None):
        if self._prod is None:
            with _Located(where()):
                self._prod = ObjectFifoHandle(self._native.prod(depth=depth, tile=getattr(tile, "_native", None),
                                                                stream_port=self._stream_port(0)), self)
        return self._prod

    def cons(self, depth=None, tile=None, dims_from_stream=None, from_stream=None):
        with _Located(where()):
            native = self._native.cons(depth=depth, tile=getattr(tile, "_native", None),
                                       dims_from_stream=_dims(dims_from_stream or from_stream or
                                                              getattr(self, "_dims_from_stream_per_cons", None)),
                                       stream_port=self._stream_port(1))
        return ObjectFifoHandle(native, self)

    def _stream_port(self, end):
        """The stream port of the producer (end 0) or consumer (end 1) end under aie_stream, else None."""
        s = getattr(self, "_aie_stream", None)
        return s[1] if s is not None and s[0] in (end, 2) else None

    def set_iter_count(self, n):
        self._native.set_iter_count(int(n))

    def __repr__(self):
        return f"ObjectFifo({self.name!r}, depth={self.depth})"


def __getattr__(name):
    if name == "CascadeFlow":  # defined with Worker, which this module cannot import at load time
        from .worker import CascadeFlow
        return CascadeFlow
    # An IRON name of aie.iron.dataflow npusim does not model (ObjectFifoLink, ...): a clear error
    # naming it, also for `from aie.iron.dataflow import X`, never an ImportError without the reason.
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.iron.dataflow.{name} is not supported by npusim")
