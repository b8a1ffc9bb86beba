"""aie.dialects.aie under npusim: EndOp, the terminator IRON's hand-written runtime sequences put at
the end of a BD block (`with bd[0]: shim_dma_bd(...); EndOp()`) and at the end of a switchbox body,
which ends nothing npusim records; switchbox, shim_mux and connect (manual routing, from
npusim.iron.switchbox); lock, buffer, flow, mem, memtile_dma, dma_start, dma_bd, use_lock and
next_bd (a hand-made DMA program, from npusim.iron.aie_ops; dma_bd and next_bd inside a runtime
task's `with bds(task) as bd:` blocks are a chain of shim BDs, npusim.iron.aiex). Every other name
of the AIE dialect bindings (tile, core, ...) raises NotImplementedError naming it."""
from .aie_ops import buffer, dma_start, flow, lock, mem, memtile_dma, use_lock  # noqa: F401
from .aie_ops import dma_bd as _ops_dma_bd, next_bd as _ops_next_bd
from .switchbox import connect, shim_mux, switchbox  # noqa: F401 - served names


def EndOp(*_, **__):  # noqa: N802 - the MLIR op's name
    return None


def dma_bd(buffer, sizes=None, strides=None, offset=None, transfer_len=None, **kwargs):  # noqa: F811
    """In a runtime task's BD block (`with bds(task) as bd: with bd[i]:`): one shim BD over a runtime
    tensor (npusim.iron.aiex); elsewhere a BD of a hand-made DMA program (npusim.iron.aie_ops)."""
    from .aiex import _in_task_block, _task_dma_bd
    if _in_task_block():
        return _task_dma_bd(buffer, sizes=sizes, strides=strides, offset=offset, transfer_len=transfer_len,
                            **kwargs)
    return _ops_dma_bd(buffer, sizes=sizes, strides=strides, offset=offset, transfer_len=transfer_len, **kwargs)


def next_bd(dest=None, loc=None, ip=None):  # noqa: F811
    """In a runtime task's BD block: the block this BD chains to (npusim.iron.aiex); elsewhere the
    next BD of a hand-made DMA program (npusim.iron.aie_ops)."""
    from .aiex import _in_task_block, _task_next_bd
    if _in_task_block():
        return _task_next_bd(dest)
    return _ops_next_bd(dest, loc=loc, ip=ip)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aie.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
