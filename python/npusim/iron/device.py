"""aie.iron.device: the device classes (NPU1, NPU2, NPU1Col1, ... NPU2Col7) and Tile.

get_current_device() is the device `npusim python --device` chose (the full npu2 array by default,
as IRON's detection gives on a Strix machine), set for the process through NPUSIM_DEVICE."""
import os

from .. import _npusim
from .enums import AIETileType


class Device:
    _name = "npu2"

    def __init__(self):
        info = {d[0]: d for d in _npusim.devices()}[self._name]
        self._arch = info[3].lower()
        self.cols = info[2]
        self.rows = 6

    @property
    def name(self):
        return self._name

    def __repr__(self):
        return f"{type(self).__name__}()"

    def __eq__(self, other):
        return isinstance(other, Device) and other._name == self._name

    def __hash__(self):
        return hash(self._name)


def _make(iron_class, name):
    return type(iron_class, (Device,), {"_name": name})


for _name, _cls, _cols, _arch in _npusim.devices():
    globals()[_cls] = _make(_cls, _name)


def device_for(name):
    """A device object for a device name (npu2, npu1_1col) or IRON class name (NPU2Col1)."""
    canon = _npusim.device_name(name)
    for n, c, _, _ in _npusim.devices():
        if n == canon:
            return globals()[c]()
    raise ValueError(name)


_current = None


def get_current_device():
    global _current
    if _current is None:
        _current = device_for(os.environ.get("NPUSIM_DEVICE", "npu2"))
    return _current


def set_current_device(device):
    global _current
    _current = device_for(device) if isinstance(device, str) else device


class Tile:
    """IRON Tile(col=None, row=None): a pinned tile, or a tile kind left to the placer."""

    def __init__(self, col=None, row=None, allocation_scheme=None, tile_type=None):
        # tile_type (AIETileType) is implied by the row on npusim's devices. An unplaced Tile is one
        # logical tile of its own: every Lock, Buffer, TileDma, Flow end and Worker given this object
        # lands on one tile (IRON: one aie.logical_tile per Tile object); a compute tile by default.
        self.col, self.row = col, row
        self._tile_type = tile_type
        if col is not None and row is not None:
            self._native = _npusim.Tile(int(col), int(row))
        else:
            kind = getattr(tile_type, "value", None) or "core"
            self._native = _npusim.Tile.unplaced(kind, None if col is None else int(col),
                                                 None if row is None else int(row))

    @property
    def op(self):
        """IRON's MLIR tile op (what aiex's dma_configure_task takes): the Tile itself here."""
        return self

    def copy(self):
        """IRON Tile.copy(): another Tile object with this one's placement constraints; an unplaced
        copy is a logical tile of its own (IRON dedups logical tiles by identity)."""
        return Tile(self.col, self.row, tile_type=self._tile_type)

    _tile_type = None

    def __repr__(self):
        return f"Tile({self.col}, {self.row})"


class _AnyTile(Tile):
    def __init__(self, native, label, tile_type):
        self.col = self.row = None
        self._native = native
        self._label = label
        self._tile_type = tile_type

    def __repr__(self):
        return self._label


AnyComputeTile = _AnyTile(_npusim.Tile.any_compute(), "AnyComputeTile", AIETileType.CoreTile)
AnyMemTile = _AnyTile(_npusim.Tile.any_mem(), "AnyMemTile", AIETileType.MemTile)
AnyShimTile = _AnyTile(_npusim.Tile.any_shim(), "AnyShimTile", AIETileType.ShimNOCTile)


def from_name(name, *, n_cols=1):
    """IRON device.from_name (python/iron/device/__init__.py at 3ca0193): "npu"/"npu1" or "npu2"
    (any case) and a column count: 1..max-1 gives NPU{1,2}Col{n}, the maximum or None the whole
    array. npusim models no Versal device: those names raise NotImplementedError."""
    families = {"npu": "NPU1", "npu1": "NPU1", "npu2": "NPU2"}
    key = str(name).lower()
    if key in ("xcvc1902", "xcve2302", "xcve2802"):
        raise NotImplementedError(f"aie.iron.device.from_name({name!r}): Versal devices are not supported by npusim")
    if key not in families:
        raise ValueError(f"Unknown device name {name!r}; expected one of {sorted(families)}")
    base = families[key]
    max_cols = {n[1]: n[2] for n in _npusim.devices()}[base]
    if n_cols is None or n_cols == max_cols:
        return globals()[base]()
    if 1 <= n_cols < max_cols:
        return globals()[f"{base}Col{n_cols}"]()
    raise ValueError(f"n_cols must be in 1..{max_cols} (or None for max) for {base}, got {n_cols}")


def ensure_current_device(*, probe_runtime=True):
    """IRON ensure_current_device (python/utils/__init__.py): bind and return the device IRON observes;
    under npusim the simulated device (`npusim python --device`, npu2 by default)."""
    device = get_current_device()
    set_current_device(device)
    return device
