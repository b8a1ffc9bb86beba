"""TensorAccessSequence with IRON's semantics (mlir-aie python/helpers/taplib/tas.py at 3ca0193): a
list of TensorAccessPatterns over one tensor, built step by step from offset/sizes/strides values
or functions, with the combined access maps of applying the patterns one after the other."""
from collections import abc

import numpy as np

from .tap import _MAP_DTYPE, TensorAccessPattern, check_offset, check_tensor_dims, clean_sizes_strides, render_grid


def _keep(value):
    return lambda _step, _prev: value


class TensorAccessSequence(abc.MutableSequence):
    """IRON TensorAccessSequence(tensor_dims, num_steps, offset=, sizes=, strides=, offset_fn=,
    sizes_fn=, strides_fn=): step i's pattern takes fn(i, previous value) for each of offset,
    sizes, strides (a fixed value where no function is given)."""

    def __init__(self, tensor_dims, num_steps, offset=None, sizes=None, strides=None, offset_fn=None,
                 sizes_fn=None, strides_fn=None):
        self._current_step = 0
        self._tensor_dims = check_tensor_dims(tensor_dims)
        if offset is not None:
            offset = check_offset(offset, self._tensor_dims)
        sizes, strides = clean_sizes_strides(sizes, strides, allow_none=True)
        if num_steps < 0:
            raise ValueError(f"TensorAccessSequence: num_steps {num_steps} must be >= 0")
        self._taps = []
        given = (offset, sizes, strides, offset_fn, sizes_fn, strides_fn)
        if num_steps == 0:
            if any(v is not None for v in given):
                raise ValueError("TensorAccessSequence: num_steps=0 takes no offset/sizes/strides (or their functions)")
            return
        fns = []
        for name, value, fn in (("offset", offset, offset_fn), ("sizes", sizes, sizes_fn),
                                ("strides", strides, strides_fn)):
            if fn is None and value is None:
                raise ValueError(f"TensorAccessSequence: {name} is needed when {name}_fn is not given")
            fns.append(fn if fn is not None else _keep(value))
        cur = [offset, sizes, strides]
        for step in range(num_steps):
            cur = [fn(step, prev) for fn, prev in zip(fns, cur)]
            self._taps.append(TensorAccessPattern(self._tensor_dims, *cur))

    @classmethod
    def from_taps(cls, taps):
        """A sequence of the given patterns (at least one, all over the same tensor dimensions)."""
        taps = list(taps)
        if not taps:
            raise ValueError("TensorAccessSequence.from_taps: no TensorAccessPatterns given (at least one is needed)")
        dims = taps[0].tensor_dims
        for t in taps:
            if t.tensor_dims != dims:
                raise ValueError(f"TensorAccessSequence.from_taps: patterns over different tensor dimensions "
                                 f"({dims} and {t.tensor_dims})")
        seq = cls(dims, 0)
        seq._taps = list(taps)
        return seq

    @property
    def tensor_dims(self):
        return list(self._tensor_dims)

    def _maps(self, calc_order=True, calc_count=True):
        # IRON's combination (tas.py _calc_accesses): each pattern's order map, shifted past the
        # largest value so far, is ADDED to the running map (so an element two patterns touch
        # holds the sum of its two steps, as upstream reports it); counts add up.
        order = np.zeros(self._tensor_dims, dtype=_MAP_DTYPE)
        count = np.zeros(self._tensor_dims, dtype=_MAP_DTYPE)
        highest = 0
        for t in self._taps:
            t_order, t_count = t.accesses()
            if calc_order:
                touched = t_order != -1
                t_order = np.where(touched, t_order + 1 + highest, 0).astype(_MAP_DTYPE)
                order += t_order
                highest = order.max()
            if calc_count:
                count += t_count
        if calc_order:
            order -= 1
        return order, count

    def accesses(self):
        return self._maps()

    def access_order(self):
        return self._maps(calc_count=False)[0]

    def access_count(self):
        return self._maps(calc_order=False)[1]

    def compare_access_orders(self, other):
        return len(self._taps) == len(other._taps) and all(
            a.compare_access_orders(b) for a, b in zip(self._taps, other._taps))

    def visualize(self, title=None, file_path=None, show_plot=True, plot_access_count=False):
        """Prints the combined access order (and count) maps as text; IRON draws them with matplotlib."""
        if file_path is not None:
            raise NotImplementedError("aie.helpers.taplib.TensorAccessSequence.visualize(file_path=...) is not "
                                      "supported by npusim (it prints the access map as text; no image output)")
        order, count = self._maps()
        print(title if title is not None else "TensorAccessSequence")
        print(render_grid(order), end="")
        if plot_access_count:
            print("access count:")
            print(render_grid(count), end="")

    def animate(self, *_, **__):
        raise NotImplementedError("aie.helpers.taplib.TensorAccessSequence.animate is not supported by npusim "
                                  "(no matplotlib animation)")

    def _check_dims(self, tap):
        if tap.tensor_dims != self._tensor_dims:
            raise ValueError(f"TensorAccessSequence: a pattern over tensor dimensions {tap.tensor_dims} cannot join "
                             f"a sequence over {self._tensor_dims}")

    def __len__(self):
        return len(self._taps)

    def __getitem__(self, idx):
        return self._taps[idx]

    def __setitem__(self, idx, tap):
        self._check_dims(tap)
        self._taps[idx] = tap

    def __delitem__(self, idx):
        del self._taps[idx]

    def insert(self, index, value):
        self._check_dims(value)
        self._taps.insert(index, value)

    def __iter__(self):
        return iter(self._taps)

    def __contains__(self, tap):
        return tap in self._taps

    def __eq__(self, other):
        return isinstance(other, TensorAccessSequence) and self._taps == other._taps

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self):
        return f"TensorAccessSequence({self._tensor_dims}, {len(self._taps)} patterns)"
