"""The AIE dialect's op builders a user-side Resolvable writes a hand-made DMA with (mlir-aie's
programming_examples/basic/custom_dma at 3ca0193; python/dialects/aie.py): lock, buffer, flow, the
mem / memtile_dma regions with dma_start, dma_bd, use_lock and next_bd in their BD blocks, and
use_lock in a worker body. They build IRON's own low-level objects (lowlevel.py: Lock, Buffer, Flow,
TileDma with DmaChannels and Bds), which the Program registers with its runtime as Runtime.add_flow /
add_lock / add_tile_dma would; npusim resolves them as it resolves those (docs/resolve.md).
A BD block may hold one acquire, one dma_bd, one release and a next_bd (a BD's fields); anything
else raises NotImplementedError naming it."""
import contextlib

from .._errors import design_error, where
from . import enums
from .buffer import Buffer
from .lowlevel import Acquire, Bd, DmaChannel, Flow, Lock, Release, TileDma

_written = []  # Flows, Locks and TileDmas written since the last Worker took them
_resolving = 0  # > 0 while a Resolvable's resolve() runs


@contextlib.contextmanager
def resolving():
    """While a Worker resolves a Resolvable of its fn_args: the op builders may write."""
    global _resolving
    _resolving += 1
    try:
        yield
    finally:
        _resolving -= 1


def _in_resolve(call):
    # IRON emits dialect ops only while the Program resolves (a tile's .op exists only then): an op
    # written elsewhere would belong to no design
    if not _resolving:
        raise design_error(where(), f"aie.{call} outside a Resolvable's resolve() (npusim writes the AIE dialect's "
                                    "ops when a Worker resolves the Resolvables among its fn_args)")


def take_written():
    """The objects written so far (by the Resolvables of one Worker's fn_args), handed to it once."""
    objs = list(_written)
    _written.clear()
    return objs


def _refuse(call, what):
    loc = where()
    raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aie.{call}({what}) is not supported by npusim")


def lock(tile, *, lock_id=None, init=None, sym_name=None, annot=None, loc=None, ip=None):
    """aie.lock(tile, lock_id=, init=, sym_name=): an IRON Lock on that tile."""
    _in_resolve("lock")
    if annot is not None:
        _refuse("lock", "annot=")
    lk = Lock(tile, lock_id=lock_id, init=int(init or 0), name=sym_name or None)
    _written.append(lk)
    return lk


def buffer(tile, datatype, name=None, address=None, initial_value=None, use_write_rtp=False, loc=None, ip=None):
    """aie.buffer(tile, datatype, name, initial_value=): an IRON Buffer on that tile."""
    _in_resolve("buffer")
    if address is not None:
        _refuse("buffer", "address=")
    return Buffer(type=datatype, initial_value=initial_value, name=name, use_write_rtp=use_write_rtp, tile=tile)


def flow(source, source_bundle=None, source_channel=None, dest=None, dest_bundle=None, dest_channel=None):
    """aie.flow(src, bundle, channel, dst, bundle, channel): an IRON Flow (DMA ports only)."""
    _in_resolve("flow")
    f = Flow(source, dest, src_port=source_bundle or enums.WireBundle.DMA, src_channel=int(source_channel or 0),
             dst_port=dest_bundle or enums.WireBundle.DMA, dst_channel=int(dest_channel or 0))
    _written.append(f)
    return f


class _BdBlock:
    """One block of a DMA region: a BD's acquire, dma_bd, release and next_bd."""

    def __init__(self, region, index):
        self.region, self.index = region, index
        self.acquire = self.release = self.bd = None
        self.next = None  # the _BdBlock next_bd names, or None: the chain ends here
        self.used = False

    def __enter__(self):
        self.region.current = self
        return self

    def __exit__(self, *exc):
        self.region.current = None
        return False


class _Blocks:
    def __init__(self, region):
        self.region = region

    def __getitem__(self, k):
        return self.region.block(int(k))


class _Region:
    def __init__(self, tile, loc):
        self.tile, self.loc = tile, loc
        self.blocks = {}
        self.starts = []  # (direction, channel, first block, pad_value)
        self.current = None

    def block(self, k):
        if k not in self.blocks:
            self.blocks[k] = _BdBlock(self, k)
        return self.blocks[k]

    def chain(self, first):
        """The BDs from `first` along next_bd: each once, a next_bd back into the chain a loop."""
        order = [first]
        while order[-1].next is not None and order[-1].next not in order:
            order.append(order[-1].next)
        bds = []
        for b in order:
            if b.bd is None:
                raise design_error(self.loc, f"DMA region: block {b.index} is a BD of a channel but has no dma_bd")
            buf, kw = b.bd
            nxt = None if b.next is None else order.index(b.next)
            bds.append(Bd(buf, acquires=[b.acquire] if b.acquire else [], releases=[b.release] if b.release else [],
                          next="self" if nxt is not None and order[nxt] is b else nxt, **kw))
        return bds


_region = None  # the DMA region whose body is running


def _dma_region(tile, call):
    _in_resolve(call)

    def decorate(body):
        global _region
        outer, _region = _region, _Region(tile, where())
        try:
            body(_Blocks(_region))
            r = _region
        finally:
            _region = outer
        chans = [DmaChannel(d, ch, r.chain(first), pad_value=pad) for d, ch, first, pad in r.starts]
        dma = TileDma(tile, chans)
        _written.append(dma)
        return dma

    return decorate


def mem(tile):
    """aie.mem(tile) as a decorator: a compute tile's DMA program, its body given the blocks."""
    return _dma_region(tile, "mem")


def memtile_dma(tile):
    """aie.memtile_dma(tile) as a decorator: a mem tile's DMA program."""
    return _dma_region(tile, "memtile_dma")


def _in_region(call):
    if _region is None:
        loc = where()
        raise design_error(loc, f"aie.{call} outside a mem / memtile_dma region")
    return _region


def dma_start(channel_dir, channel_index, *, dest=None, chain=None, repeat_count=0, pad_value=0, loc=None, ip=None):
    """aie.dma_start(dir, channel, dest=block[k], chain=block[j]): the channel's BD chain starts at dest."""
    r = _in_region("dma_start")
    if repeat_count:
        _refuse("dma_start", "repeat_count=")
    if not isinstance(dest, _BdBlock):
        raise design_error(where(), "aie.dma_start: dest= must be a block of the region (block[k])")
    r.starts.append((channel_dir, int(channel_index), dest, int(pad_value)))


def _bd_block(call):
    r = _in_region(call)
    if r.current is None:
        raise design_error(where(), f"aie.{call} outside a BD block (`with block[k]:`)")
    return r.current


def dma_bd(buffer, sizes=None, strides=None, offset=None, transfer_len=None, **kwargs):
    """aie.dma_bd(buffer, offset=, transfer_len=, sizes=, strides=) in a BD block (elements)."""
    b = _bd_block("dma_bd")
    if kwargs:
        _refuse("dma_bd", ", ".join(k + "=" for k in kwargs))
    if b.bd is not None:
        raise design_error(where(), f"aie.dma_bd: block {b.index} already has a dma_bd (a BD moves one buffer)")
    kw = {"offset": int(offset or 0), "length": None if transfer_len is None else int(transfer_len),
          "sizes": [int(s) for s in sizes or []], "strides": [int(s) for s in strides or []]}
    b.bd = (buffer, kw)


def next_bd(dest=None, loc=None, ip=None):
    """aie.next_bd(block[k]): the BD after this block's."""
    b = _bd_block("next_bd")
    if not isinstance(dest, _BdBlock):
        raise design_error(where(), "aie.next_bd: give a block of the region (block[k])")
    b.next = dest


def use_lock(lock, action, value=None, *, blocking=None, acq_en=None, loc=None, ip=None):
    """aie.use_lock(lock, LockAction.X, value=1): in a BD block the BD's acquire or release; in a
    worker body the core's (recorded as Lock.acquire / acquire_exact / release)."""
    if blocking is not None or acq_en is not None:
        _refuse("use_lock", "blocking=" if blocking is not None else "acq_en=")
    value = 1 if value is None else int(value)
    if not isinstance(action, enums.LockAction):
        raise design_error(where(), f"aie.use_lock: {action!r} is not a LockAction")
    LockAction = enums.LockAction  # noqa: N806
    if not isinstance(lock, Lock):
        raise design_error(where(), f"aie.use_lock: {lock!r} is not a lock (aie.lock or aie.iron.Lock)")
    if _region is not None and _region.current is not None:
        b = _region.current
        field = "release" if action == LockAction.Release else "acquire"
        if getattr(b, field) is not None:
            raise design_error(where(), f"aie.use_lock: block {b.index} already has its {field} (a BD has one)")
        if action == LockAction.Release:
            b.release = Release(lock, value)
        else:
            b.acquire = Acquire(lock, value, greater_equal=action == LockAction.AcquireGreaterEqual)
        return
    if action == LockAction.Release:
        lock.release(value)
    elif action == LockAction.AcquireGreaterEqual:
        lock.acquire(value)
    else:
        lock.acquire_exact(value)
