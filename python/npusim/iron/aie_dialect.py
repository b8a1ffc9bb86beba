"""aie.dialects.aie under npusim: EndOp, the terminator IRON's hand-written runtime sequences put at
the end of a BD block (`with bd[0]: shim_dma_bd(...); EndOp()`) and at the end of a switchbox body,
which ends nothing npusim records; switchbox, shim_mux and connect (manual routing, from
npusim.iron.switchbox). Every other name of the AIE dialect bindings (tile, flow, ...) raises
NotImplementedError naming it."""
from .switchbox import connect, shim_mux, switchbox  # noqa: F401 - served names


def EndOp(*_, **__):  # noqa: N802 - the MLIR op's name
    return None


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aie.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
