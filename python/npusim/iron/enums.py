"""The enums of aie.dialects._aie_enum_gen that IRON's hand-written designs use (AIETileType,
DMAChannelDir, WireBundle, LockAction), served under npusim as plain Python enums; their other names raise
NotImplementedError naming them."""
import enum


class AIETileType(enum.Enum):
    ShimNOCTile = "shim_noc"
    ShimPLTile = "shim_pl"
    MemTile = "mem"
    CoreTile = "core"


class DMAChannelDir(enum.Enum):
    S2MM = 0
    MM2S = 1


class LockAction(enum.Enum):
    """aie.use_lock's action (AIEAttrs.td LockAction)."""
    Acquire = 0
    Release = 1
    AcquireGreaterEqual = 2


class WireBundle(enum.Enum):
    Core = 0
    DMA = 1
    FIFO = 2
    South = 3
    West = 4
    North = 5
    East = 6
    PLIO = 7
    NOC = 8
    Trace = 9
    TileControl = 10


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects._aie_enum_gen.{name} is not supported by npusim")
