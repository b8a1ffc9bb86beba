"""aie.dialects.aie under npusim: EndOp, the terminator IRON's hand-written runtime sequences put at
the end of a BD block (`with bd[0]: shim_dma_bd(...); EndOp()`) and at the end of a switchbox body,
which ends nothing npusim records; switchbox, shim_mux and connect (manual routing, from
npusim.iron.switchbox); lock, buffer, flow, mem, memtile_dma, dma_start, dma_bd, use_lock and
next_bd (a hand-made DMA program, from npusim.iron.aie_ops). Every other name of the AIE dialect
bindings (tile, core, ...) raises NotImplementedError naming it."""
from .aie_ops import buffer, dma_bd, dma_start, flow, lock, mem, memtile_dma, next_bd, use_lock  # noqa: F401
from .switchbox import connect, shim_mux, switchbox  # noqa: F401 - served names


def EndOp(*_, **__):  # noqa: N802 - the MLIR op's name
    return None


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aie.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
