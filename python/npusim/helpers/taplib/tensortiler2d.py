"""TensorTiler2D (IRON python/helpers/taplib/tensortiler2d.py at 3ca0193): factories of
TensorAccessSequences for 2-D tilings. The tiling rule lives once, in C++
(frontend/src/TensorTiler2D.cpp, also used by C++ designs); this wraps its patterns."""
from ... import _npusim
from ..._errors import _Located, where
from .tas import TensorAccessSequence
from .tap import TensorAccessPattern, check_tensor_dims


def _seq(which, tensor_dims, tile_dims, repeats, steps, tile_col_major=False, tile_group_col_major=False,
         iter_col_major=False, pattern_repeat=1, allow_partial=False, prune_step=True):
    if isinstance(pattern_repeat, bool) or not isinstance(pattern_repeat, int):
        raise ValueError(f"TensorTiler2D.{which}: pattern_repeat must be an int >= 1 (got {pattern_repeat!r})")
    dims = check_tensor_dims(tensor_dims, "TensorTiler2D tensor_dims", expected=2)
    with _Located(where()):
        rows = _npusim.step_tiler([int(d) for d in tensor_dims], [int(d) for d in tile_dims],
                                  [int(d) for d in repeats], None if steps is None else [int(d) for d in steps],
                                  bool(tile_col_major), bool(tile_group_col_major), bool(iter_col_major),
                                  int(pattern_repeat), bool(allow_partial), bool(prune_step), which)
    return TensorAccessSequence.from_taps([TensorAccessPattern(dims, o, s, t) for o, s, t in rows])


class TensorTiler2D:
    """A factory only (IRON's cannot be instantiated either)."""

    def __init__(self):
        raise TypeError("TensorTiler2D cannot be instantiated: use its simple_tiler, group_tiler or step_tiler")

    @classmethod
    def simple_tiler(cls, tensor_dims, tile_dims=None, tile_col_major=False, iter_col_major=False,
                     pattern_repeat=1, prune_step=True):
        """One pattern per tile (tile_dims defaults to the whole tensor)."""
        return _seq("simple_tiler", tensor_dims, tensor_dims if tile_dims is None else tile_dims, (1, 1), None,
                    tile_col_major=tile_col_major, iter_col_major=iter_col_major, pattern_repeat=pattern_repeat,
                    prune_step=prune_step)

    @classmethod
    def group_tiler(cls, tensor_dims, tile_dims, tile_group_dims=None, tile_col_major=False,
                    tile_group_col_major=False, iter_col_major=False, pattern_repeat=1, allow_partial=False,
                    prune_step=True):
        """One pattern per group of tile_group_dims tiles (default (1, 1))."""
        return _seq("group_tiler", tensor_dims, tile_dims, (1, 1) if tile_group_dims is None else tile_group_dims,
                    None, tile_col_major, tile_group_col_major, iter_col_major, pattern_repeat, allow_partial,
                    prune_step)

    @classmethod
    def step_tiler(cls, tensor_dims, tile_dims, tile_group_repeats, tile_group_steps=None, tile_col_major=False,
                   tile_group_col_major=False, iter_col_major=False, allow_partial=False, pattern_repeat=1,
                   prune_step=True):
        """tile_group_repeats tiles per pattern in each dimension, tile_group_steps tiles apart."""
        return _seq("step_tiler", tensor_dims, tile_dims, tile_group_repeats, tile_group_steps, tile_col_major,
                    tile_group_col_major, iter_col_major, pattern_repeat, allow_partial, prune_step)
