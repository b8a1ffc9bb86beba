"""aie.dialects.aie under npusim: EndOp, the terminator IRON's hand-written runtime sequences put at
the end of a BD block (`with bd[0]: shim_dma_bd(...); EndOp()`) and at the end of a switchbox body,
which ends nothing npusim records; dma_bd and next_bd inside a runtime task's BD blocks (a chain of
shim BDs, npusim.iron.aiex); switchbox, shim_mux and connect (manual routing, from
npusim.iron.switchbox). Every other name of the AIE dialect bindings (tile, flow, ...) raises
NotImplementedError naming it."""
from .switchbox import connect, shim_mux, switchbox  # noqa: F401 - served names


def EndOp(*_, **__):  # noqa: N802 - the MLIR op's name
    return None


def dma_bd(buffer, sizes=None, strides=None, offset=None, transfer_len=None, **kwargs):
    """In a runtime task's BD block (`with bds(task) as bd: with bd[i]:`): one shim BD over a runtime
    tensor (npusim.iron.aiex)."""
    from .aiex import _task_dma_bd
    return _task_dma_bd(buffer, sizes=sizes, strides=strides, offset=offset, transfer_len=transfer_len, **kwargs)


def next_bd(dest=None, loc=None, ip=None):
    """In a runtime task's BD block: the block this BD chains to (npusim.iron.aiex)."""
    from .aiex import _task_next_bd
    return _task_next_bd(dest)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aie.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
