"""aie.dialects.aie under npusim: EndOp, the terminator IRON's hand-written runtime sequences put at
the end of a BD block (`with bd[0]: shim_dma_bd(...); EndOp()`), which ends nothing npusim records.
Every other name of the AIE dialect bindings (tile, switchbox, ...) raises NotImplementedError
naming it."""


def EndOp(*_, **__):  # noqa: N802 - the MLIR op's name
    return None


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aie.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
