"""aie.dialects.aiex under npusim: the runtime-sequence tasks of hand-written designs
(shim_dma_single_bd_task on a Flow's or PacketFlow's shim_symbol, with packet=(type, id) on a packet source, dma_start_task, dma_await_task, dma_free_task),
bound to the frontend's (frontend/Runtime.hpp), and the same single-BD task written out as
dma_configure_task(shim_tile, direction, channel) + `with bds(task) as bd: with bd[0]:
shim_dma_bd(...); EndOp()` on the shim channel of a Flow (a task of several chained BDs raises
NotImplementedError); the register-level operations npu_write32, npu_maskwrite32, npu_writebd,
npu_address_patch, npu_push_queue, npu_sync and set_lock_value (on an aie.iron Lock), recorded in the
sequence and decoded at resolve (frontend/RawSequence.hpp). Every other aiex name raises
NotImplementedError naming it."""
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
    """dma_configure_task's task: the shim channel, then the BDs `bds(task)` gives it."""

    def __init__(self, symbol, issue_token, loc):
        self.symbol, self.issue_token, self.loc = symbol, issue_token, loc
        self.bds = {}
        self.native = None


def dma_configure_task(tile, direction, channel, issue_token=False, repeat_count=0, **unsupported):
    from .lowlevel import shim_channel_symbol
    loc = where()
    if unsupported or repeat_count:
        names = ", ".join(list(unsupported) + (["repeat_count"] if repeat_count else []))
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.dma_configure_task({names}) is not supported "
                                  "by npusim")
    col, row = getattr(tile, "col", None), getattr(tile, "row", None)
    if row != 0 or col is None:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.dma_configure_task on {tile!r}: npusim "
                                  "serves it on a pinned shim tile (Tile(col, 0)) only")
    name = getattr(direction, "name", str(direction))
    return _ConfiguredTask(shim_channel_symbol(col, name, int(channel)), bool(issue_token), loc)


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
    """`with bds(task) as bd:` the BD blocks of a configured task; at the end of the block the task
    is made (one BD: shim_dma_single_bd_task's task on the channel's Flow)."""

    def __init__(self, task):
        self.task = task

    def __enter__(self):
        return _BdBlocks(self.task)

    def __exit__(self, exc_type, *_):
        if exc_type is not None:
            return False
        t, loc = self.task, where()
        if len(t.bds) != 1 or 0 not in t.bds:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.bds with {len(t.bds)} BD block(s): npusim "
                                      "serves a task of one BD (bd[0]) only")
        mem, offset, sizes, strides, packet = t.bds[0]
        t.native = shim_dma_single_bd_task(t.symbol, mem, offset=offset, sizes=sizes, strides=strides,
                                           issue_token=t.issue_token, packet=packet)
        return False


def shim_dma_bd(mem, offset=0, sizes=None, strides=None, transfer_len=None, packet=None, **unsupported):
    loc = where()
    if _current_bd is None:
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_bd outside `with bds(task) as bd: "
                                  "with bd[i]:` is not supported by npusim")
    if unsupported or transfer_len is not None:
        names = ", ".join(list(unsupported) + (["transfer_len"] if transfer_len is not None else []))
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_bd({names}) is not supported by "
                                  "npusim")
    task, index = _current_bd
    task.bds[index] = (mem, offset, sizes, strides, packet)


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
