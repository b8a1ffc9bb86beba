"""IRON's hand-written data movement (python/iron/lock.py, dataflow/flow.py, dataflow/tile_dma.py at
3ca0193): Lock, Flow, PacketFlow with PacketDest, TileDma with its DmaChannels and Bds, Acquire / Release, bound to the
frontend's low-level peers of ObjectFifo (frontend/Lock.hpp, Flow.hpp, PacketFlow.hpp, TileDma.hpp). A Lock among a
Worker's fn_args is acquired and released in its body (recorded as the body is); Runtime.add_flow /
add_lock / add_tile_dma register them. Ports other than DMA (WireBundle) are not modelled."""
from dataclasses import dataclass, field

from .. import _npusim
from .._errors import _Located, where
from . import enums


def _tile(t):
    return t._native if hasattr(t, "_native") else t


def shim_channel_symbol(col, direction, channel):
    """The name npusim gives the shim end of a Flow without a shim_symbol on a pinned shim tile, which
    aiex.dma_configure_task(tile, direction, channel) finds it by (IRON's sequence then programs that
    shim channel directly, with no aie.shim_dma_allocation)."""
    return f"__npusim_shim_{col}_{direction}{channel}"


def _pinned_shim_symbol(src, dst, src_channel, dst_channel):
    if getattr(src, "row", None) == 0 and getattr(src, "col", None) is not None:
        return shim_channel_symbol(src.col, "MM2S", int(src_channel))
    if getattr(dst, "row", None) == 0 and getattr(dst, "col", None) is not None:
        return shim_channel_symbol(dst.col, "S2MM", int(dst_channel))
    return ""


class Lock:
    """IRON Lock(tile, lock_id=None, init=0, name=None); in a worker body acquire / acquire_exact / release."""

    def __init__(self, tile, lock_id=None, init=0, name=None):
        with _Located(where()):
            self._native = _npusim.Lock(_tile(tile), lock_id, int(init), name or "")
        self.tile = tile

    @property
    def name(self):
        return self._native.name

    def _record(self, what):
        from .. import _trace
        rec = _trace.current()
        if rec is None:
            from .._errors import design_error
            raise design_error(where(), f"Lock '{self.name}'.{what}() outside a worker body")
        return rec

    def acquire(self, value=1):
        rec = self._record("acquire")
        rec.builder.lock_acquire(rec.lock(self._native), int(value), False)

    def acquire_exact(self, value=1):
        rec = self._record("acquire_exact")
        rec.builder.lock_acquire(rec.lock(self._native), int(value), True)

    def release(self, value=1):
        rec = self._record("release")
        rec.builder.lock_release(rec.lock(self._native), int(value))


class Flow:
    """IRON Flow(src, dst, *, src_port=DMA, src_channel=0, dst_port=DMA, dst_channel=0, shim_symbol=None)."""

    def __init__(self, src, dst, *, src_port=enums.WireBundle.DMA, src_channel=0, dst_port=enums.WireBundle.DMA,
                 dst_channel=0, shim_symbol=None):
        loc = where()
        for p in (src_port, dst_port):
            if p != enums.WireBundle.DMA:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: Flow(src_port/dst_port={p}) is not supported by "
                                          "npusim (only DMA ports are modelled)")
        with _Located(loc):
            self._native = _npusim.Flow(_tile(src), _tile(dst), int(src_channel), int(dst_channel),
                                        shim_symbol or _pinned_shim_symbol(src, dst, src_channel, dst_channel))


def _packet(packet, loc):
    """IRON's packet=(pkt_type, pkt_id) of a Bd or a shim task (aie.dma_bd_packet), or None."""
    if packet is None:
        return None
    try:
        pkt_type, pkt_id = packet
    except (TypeError, ValueError):
        from .._errors import design_error
        raise design_error(loc, f"packet={packet!r} is not a (pkt_type, pkt_id) pair") from None
    return int(pkt_type), int(pkt_id)


@dataclass
class PacketDest:
    """IRON PacketDest(tile, port=DMA, channel=0): one more destination of a PacketFlow."""
    tile: object
    port: object = enums.WireBundle.DMA
    channel: int = 0


class PacketFlow:
    """IRON PacketFlow(pkt_id, src, dst, *, src_port=DMA, src_channel=0, dst_port=DMA, dst_channel=0,
    extra_dsts=(), keep_pkt_header=False, shim_symbol=None) (python/iron/dataflow/flow.py at 3ca0193):
    a packet-switched route (aie.packetflow) carrying the packets whose header holds pkt_id; flows
    sharing a port merge there (frontend/PacketFlow.hpp, docs/resolve-lowlevel.md "PacketFlow")."""

    def __init__(self, pkt_id, src, dst, *, src_port=enums.WireBundle.DMA, src_channel=0,
                 dst_port=enums.WireBundle.DMA, dst_channel=0, extra_dsts=(), keep_pkt_header=False,
                 shim_symbol=None):
        loc = where()
        extra = list(extra_dsts)
        for p in (src_port, dst_port, *(d.port for d in extra)):
            if p != enums.WireBundle.DMA:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: PacketFlow(port={p}) is not supported by npusim "
                                          "(only DMA ports are modelled)")
        with _Located(loc):
            self._native = _npusim.PacketFlow(int(pkt_id), _tile(src), _tile(dst), int(src_channel),
                                              int(dst_channel), [(_tile(d.tile), int(d.channel)) for d in extra],
                                              bool(keep_pkt_header),
                                              shim_symbol or _pinned_shim_symbol(src, dst, src_channel, dst_channel))
        self._pkt_id, self._src, self._dst, self._extra_dsts = int(pkt_id), src, dst, extra

    @property
    def pkt_id(self):
        return self._pkt_id

    def all_tiles(self):
        return [self._src, self._dst] + [d.tile for d in self._extra_dsts]


@dataclass
class Acquire:
    lock: Lock
    value: int = 1
    greater_equal: bool = True


@dataclass
class Release:
    lock: Lock
    value: int = 1


@dataclass
class Bd:
    """IRON Bd: one buffer descriptor (offset/length/sizes/strides in elements of its buffer)."""
    buffer: object
    offset: int = 0
    length: int | None = None
    acquires: list = field(default_factory=list)
    releases: list = field(default_factory=list)
    next: object = "self"
    packet: tuple | None = None
    sizes: list = field(default_factory=list)
    strides: list = field(default_factory=list)
    pad_dimensions: list | None = None
    iteration: object = None

    def _to_native(self):
        loc = where()
        if self.iteration is not None:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: Bd(iteration=...) is not supported by npusim's Python "
                                      "front door")
        nxt = {"self": -2, None: -1}.get(self.next, self.next)
        return _npusim.Bd(self.buffer._native, int(self.offset), self.length,
                          [_npusim.Acquire(a.lock._native, int(a.value), bool(a.greater_equal)) for a in self.acquires],
                          [_npusim.Release(r.lock._native, int(r.value)) for r in self.releases], int(nxt),
                          [int(x) for x in self.sizes], [int(x) for x in self.strides],
                          None if self.pad_dimensions is None else [tuple(p) for p in self.pad_dimensions],
                          _packet(self.packet, loc))


@dataclass
class DmaChannel:
    direction: object
    channel: int
    bds: list
    pad_value: int = 0


class TileDma:
    """IRON TileDma(tile, channels): the tile's hand-written DMA program."""

    def __init__(self, tile, channels):
        loc = where()
        with _Located(loc):
            chans = [_npusim.DmaChannel(c.direction == enums.DMAChannelDir.S2MM, int(c.channel),
                                        [b._to_native() for b in c.bds], int(c.pad_value)) for c in channels]
            self._native = _npusim.TileDma(_tile(tile), chans)
        self.tile = tile
        self.channels = list(channels)
