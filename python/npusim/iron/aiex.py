"""aie.dialects.aiex under npusim: the runtime-sequence tasks of hand-written designs
(shim_dma_single_bd_task on a Flow's or PacketFlow's shim_symbol, with packet=(type, id) on a packet
source, dma_start_task, dma_await_task, dma_free_task), bound to the frontend's
(frontend/Runtime.hpp); dma_configure_task(shim_tile, direction, channel, issue_token,
repeat_count) + `with bds(task) as bd: with bd[i]: shim_dma_bd(...) (or aie.dma_bd); next_bd(bd[j])
(or EndOp())` on the shim channel of a Flow: a task of one or more chained BDs (frontend
shim_dma_bd_chain; one BD with packet= is a packet source's single-BD task); the register-level
operations npu_write32, npu_maskwrite32, npu_writebd, npu_address_patch, npu_push_queue, npu_sync and
set_lock_value (on an aie.iron Lock), recorded in the sequence and decoded at resolve
(frontend/RawSequence.hpp). Every other aiex name raises NotImplementedError naming it."""
from .. import _npusim
from .._errors import _Located, where
from .._types import v8bfp16ebs8  # noqa: F401  (mlir-aie's aiex.py re-exports IRON's block type, l.32)


def shim_dma_single_bd_task(alloc, mem, tap=None, offset=None, sizes=None, strides=None, transfer_len=None,
                            issue_token=False, packet=None, **unsupported):
    from .lowlevel import _packet
    loc = where()
    if unsupported:
        names = ", ".join(k + "=" for k in unsupported)
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_single_bd_task({names}) is not "
                                  "supported by npusim")
    native_mem = getattr(mem, "_native", mem)
    native_tap = tap._native if tap is not None else None
    if native_tap is None and sizes is not None:
        dims = list(native_mem.type.shape)
        native_tap = _npusim.TensorAccessPattern(dims, int(offset or 0), [int(s) for s in sizes],
                                                 [int(s) for s in (strides or _row_major(sizes))])
    symbol = alloc if isinstance(alloc, str) else getattr(alloc, "shim_symbol", alloc)
    with _Located(loc):
        return _npusim.shim_dma_single_bd_task(symbol, native_mem, native_tap, bool(issue_token),
                                               _packet(packet, loc))


def _row_major(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.insert(0, acc if s > 1 else 0)
        acc *= s
    strides[-1] = 1
    return strides


class _ConfiguredTask:
    """dma_configure_task's task: the shim channel, then the BD blocks `bds(task)` gives it."""

    def __init__(self, symbol, issue_token, repeat_count, loc):
        self.symbol, self.issue_token, self.repeat_count, self.loc = symbol, issue_token, repeat_count, loc
        self.bds = {}  # block index -> (mem, tap or None, packet or None)
        self.next = {}  # block index -> the block its next_bd names
        self.native = None


def dma_configure_task(tile, direction, channel, issue_token=False, repeat_count=0, **unsupported):
    from .lowlevel import shim_channel_symbol
    loc = where()
    if unsupported:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.dma_configure_task({', '.join(unsupported)}) "
                                  "is not supported by npusim")
    col, row = getattr(tile, "col", None), getattr(tile, "row", None)
    if row != 0 or col is None:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.dma_configure_task on {tile!r}: npusim "
                                  "serves it on a pinned shim tile (Tile(col, 0)) only")
    name = getattr(direction, "name", str(direction))
    return _ConfiguredTask(shim_channel_symbol(col, name, int(channel)), bool(issue_token), int(repeat_count), loc)


class _BdBlocks:
    def __init__(self, task):
        self.task = task

    def __getitem__(self, i):
        return _BdBlock(self.task, int(i))


class _BdBlock:
    def __init__(self, task, index):
        self.task, self.index = task, index

    def __enter__(self):
        global _current_bd
        _current_bd = (self.task, self.index)
        return self

    def __exit__(self, *exc):
        global _current_bd
        _current_bd = None
        return False


_current_bd = None


class bds:  # noqa: N801 - aiex's name
    """`with bds(task) as bd:` the BD blocks of a configured task. At the end of the block the task
    is made from the chain that starts at bd[0] and follows each block's next_bd (a block without
    one, EndOp, ends it; a block holding only a next_bd is skipped, as AIEDMATasksToNPU allows): a
    task of chained shim BDs (frontend shim_dma_bd_chain), run repeat_count + 1 times."""

    def __init__(self, task):
        self.task = task

    def __enter__(self):
        return _BdBlocks(self.task)

    def __exit__(self, exc_type, *_):
        if exc_type is not None:
            return False
        t, loc = self.task, where()
        chain, seen, at = [], set(), 0
        while at is not None:
            if at in seen:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.bds: the chain of BD blocks loops "
                                          f"back to bd[{at}]; a shim task's chain must end (EndOp), or it never "
                                          "completes")
            seen.add(at)
            if at in t.bds:
                chain.append(t.bds[at])
            elif at not in t.next:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.bds: bd[{at}] holds no shim_dma_bd / "
                                          "dma_bd")
            at = t.next.get(at)
        if not chain:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.bds: the task has no BD")
        unused = sorted(set(t.bds) - seen)
        if unused:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.bds: bd{unused} are not on the chain "
                                      "from bd[0] (no next_bd leads to them)")
        packets = [packet for _, _, packet in chain if packet is not None]
        if packets:
            # A packet source's task (packet_switch.py): one BD whose data goes out as one packet.
            if len(chain) != 1 or t.repeat_count:
                raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_bd(packet=) on a task of "
                                          f"{len(chain)} BD(s) run {t.repeat_count + 1} time(s): npusim sends a "
                                          "packet from a single-BD task only")
            from .lowlevel import _packet
            mem, tap, packet = chain[0]
            with _Located(loc):
                t.native = _npusim.shim_dma_single_bd_task(t.symbol, getattr(mem, "_native", mem), tap,
                                                           t.issue_token, _packet(packet, loc))
            return False
        native = [(getattr(mem, "_native", mem), tap) for mem, tap, _ in chain]
        with _Located(loc):
            t.native = _npusim.shim_dma_bd_chain(t.symbol, native, t.issue_token, t.repeat_count)
        return False


def _bd_tap(name, mem, tap, offset, sizes, strides, transfer_len):
    """The access pattern of one BD of a configured task, in elements of the runtime tensor."""
    loc = where()
    native_mem = getattr(mem, "_native", mem)
    if tap is not None:
        if not (offset is None and sizes is None and strides is None):
            raise ValueError(f"{name} can take either a TensorAccessPattern OR (sizes and/or strides and/or offsets), "
                             "but not both.")
        return tap._native
    dims = list(native_mem.type.shape)
    if sizes is None:
        if transfer_len is None:
            return None  # the whole tensor
        sizes, strides = [int(transfer_len)], [1]
    sizes = [int(x) for x in sizes]
    strides = [int(x) for x in (strides or _row_major(sizes))]
    inner = 1
    for x in sizes[-3:]:
        inner *= x
    if transfer_len is not None and int(transfer_len) != inner:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.{name}(transfer_len={transfer_len}): npusim "
                                  f"moves the inner three sizes of the BD ({inner} elements) per pass")
    return _npusim.TensorAccessPattern(dims, int(offset or 0), sizes, strides)


def _in_task_block():
    """Whether a configured task's `with bd[i]:` block is open (aie.dma_bd / next_bd then build it)."""
    return _current_bd is not None


def _in_bd_block(name):
    if _current_bd is None:
        loc = where()
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: {name} outside `with bds(task) as bd: with bd[i]:` is not "
                                  "supported by npusim")


def _record_bd(name, mem, tap, packet=None):
    loc = where()
    task, index = _current_bd
    if index in task.bds:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: {name}: bd[{index}] already holds a BD")
    task.bds[index] = (mem, tap, packet)


def shim_dma_bd(mem, tap=None, offset=None, sizes=None, strides=None, transfer_len=None, packet=None, **unsupported):
    loc = where()
    unsupported = {k: v for k, v in unsupported.items() if not (k == "burst_length" and not v)}
    if unsupported:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_bd({', '.join(k + '=' for k in unsupported)}) "
                                  "is not supported by npusim")
    _in_bd_block("aie.dialects.aiex.shim_dma_bd")
    _record_bd("aie.dialects.aiex.shim_dma_bd", mem,
               _bd_tap("aiex.shim_dma_bd", mem, tap, offset, sizes, strides, transfer_len), packet)


def _task_dma_bd(buffer, sizes=None, strides=None, offset=None, transfer_len=None, **unsupported):
    """aie.dialects.aie.dma_bd inside a configured task's BD block: one BD over a runtime tensor."""
    loc = where()
    if unsupported:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aie.dma_bd({', '.join(k + '=' for k in unsupported)}) "
                                  "is not supported by npusim")
    _in_bd_block("aie.dialects.aie.dma_bd")
    _record_bd("aie.dialects.aie.dma_bd", buffer,
               _bd_tap("aie.dma_bd", buffer, None, offset, sizes, strides, transfer_len))


def _task_next_bd(dest):
    """aie.dialects.aie.next_bd inside a configured task's BD block: the block this BD chains to."""
    loc = where()
    if _current_bd is None or not isinstance(dest, _BdBlock):
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aie.next_bd outside a runtime task's "
                                  "`with bds(task) as bd: with bd[i]:` block is not supported by npusim")
    task, index = _current_bd
    if dest.task is not task:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aie.next_bd to a block of another task")
    task.next[index] = dest.index


def _native_task(t):
    if isinstance(t, _ConfiguredTask):
        if t.native is None:
            raise NotImplementedError(f"{t.loc[0]}:{t.loc[1]}: aie.dialects.aiex.dma_configure_task without its BDs "
                                      "(give them with `with bds(task) as bd:`)")
        return t.native
    return t


def dma_start_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_start_task(_native_task(t))


def dma_await_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_await_task(_native_task(t))


def dma_free_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_free_task(_native_task(t))


# ---- register-level sequence operations (frontend/RawSequence.hpp; aiex.py L53-110, L457) ----
def _raw(name, call):
    loc = where()
    with _Located(loc):
        return call()


def npu_write32(address, value, buffer=None, column=None, row=None, **unsupported):
    _no_extra("npu_write32", unsupported, buffer=buffer)
    return _raw("npu_write32", lambda: _npusim.npu_write32(int(address), int(value) & 0xFFFFFFFF, column, row))


def npu_maskwrite32(address, value, mask, buffer=None, column=None, row=None, **unsupported):
    _no_extra("npu_maskwrite32", unsupported, buffer=buffer)
    return _raw("npu_maskwrite32", lambda: _npusim.npu_maskwrite32(int(address), int(value) & 0xFFFFFFFF,
                                                                   int(mask) & 0xFFFFFFFF, column, row))


def npu_writebd(**fields):
    loc = where()
    try:
        with _Located(loc):
            _npusim.npu_writebd({k: int(v) for k, v in fields.items()})
    except NotImplementedError as e:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: {e}") from None


def npu_address_patch(addr, arg_idx, arg_plus=0, **unsupported):
    _no_extra("npu_address_patch", unsupported)
    return _raw("npu_address_patch", lambda: _npusim.npu_address_patch(int(addr), int(arg_idx), int(arg_plus)))


def npu_push_queue(column, row, direction, channel, issue_token, repeat_count, bd_id, **unsupported):
    _no_extra("npu_push_queue", unsupported)
    return _raw("npu_push_queue", lambda: _npusim.npu_push_queue(int(column), int(row), int(direction), int(channel),
                                                                 bool(issue_token), int(repeat_count), int(bd_id)))


def npu_sync(column, row, direction, channel, column_num=1, row_num=1, **unsupported):
    _no_extra("npu_sync", unsupported)
    return _raw("npu_sync", lambda: _npusim.npu_sync(int(column), int(row), int(direction), int(channel),
                                                     int(column_num), int(row_num)))


def set_lock_value(lock, value):
    native = getattr(lock, "_native", None)
    if native is None:
        loc = where()
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.set_lock_value on {lock!r}: npusim serves it "
                                  "on an aie.iron Lock (not an aie.dialects.aie lock op)")
    return _raw("set_lock_value", lambda: _npusim.set_lock_value(native, int(value)))


def _no_extra(name, unsupported, **given):
    names = list(unsupported) + [k for k, v in given.items() if v is not None]
    if names:
        loc = where()
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.{name}({', '.join(n + '=' for n in names)}) "
                                  "is not supported by npusim")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aiex.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
