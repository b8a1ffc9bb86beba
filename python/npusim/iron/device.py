"""aie.iron.device: the device classes (NPU1, NPU2, NPU1Col1, ... NPU2Col7) and Tile.

get_current_device() is the device `npusim python --device` chose (the full npu2 array by default,
as IRON's detection gives on a Strix machine), set for the process through NPUSIM_DEVICE."""
import os

from .. import _npusim


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

    def __init__(self, col=None, row=None, allocation_scheme=None):
        self.col, self.row = col, row
        if col is not None and row is not None:
            self._native = _npusim.Tile(int(col), int(row))
        else:
            self._native = _npusim.Tile.any_compute()

    def __repr__(self):
        return f"Tile({self.col}, {self.row})"


class _AnyTile(Tile):
    def __init__(self, native, label):
        self.col = self.row = None
        self._native = native
        self._label = label

    def __repr__(self):
        return self._label


AnyComputeTile = _AnyTile(_npusim.Tile.any_compute(), "AnyComputeTile")
AnyMemTile = _AnyTile(_npusim.Tile.any_mem(), "AnyMemTile")
AnyShimTile = _AnyTile(_npusim.Tile.any_shim(), "AnyShimTile")
