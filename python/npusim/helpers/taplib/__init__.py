"""aie.helpers.taplib: TensorAccessPattern, TensorAccessSequence, TensorTiler2D with IRON's semantics."""
from .tap import TensorAccessPattern
from .tas import TensorAccessSequence
from .tensortiler2d import TensorTiler2D

__all__ = ["TensorAccessPattern", "TensorAccessSequence", "TensorTiler2D"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.helpers.taplib.{name} is not supported by npusim")
