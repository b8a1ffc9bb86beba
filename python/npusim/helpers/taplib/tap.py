"""TensorAccessPattern with IRON's semantics (mlir-aie python/helpers/taplib/tap.py and utils.py at
3ca0193): the sizes and strides as given after IRON's validation and cleaning, the access order /
count maps over the tensor, functional comparison. The native pattern the runtime sequence and the
MLIR export use is built from it when a fill or drain takes it."""
import numpy as np

from ... import _npusim

_MAP_DTYPE = np.int32  # IRON's access maps are int32 (tap.py _DTYPE)


def check_tensor_dims(dims, what="tensor dimensions", expected=None):
    """utils.py validate_tensor_dims: >= 1 entries, each >= 1; a 1-D list reads as (1, n)."""
    dims = [int(d) for d in dims]
    if not dims:
        raise ValueError(f"{what} {dims}: need at least one dimension")
    if any(d < 1 for d in dims):
        raise ValueError(f"{what} {dims}: each dimension must be >= 1")
    if len(dims) == 1:
        dims = [1, dims[0]]
    if expected is not None and len(dims) != expected:
        raise ValueError(f"{what} {dims}: expected {expected} dimensions")
    return dims


def check_offset(offset, tensor_dims):
    """utils.py validate_offset: 0 <= offset < the tensor's element count."""
    offset = int(offset)
    if offset < 0:
        raise ValueError(f"offset {offset} must be >= 0")
    if tensor_dims and offset >= int(np.prod(tensor_dims)):
        raise ValueError(f"offset {offset} is past the tensor's {int(np.prod(tensor_dims))} elements")
    return offset


def clean_sizes_strides(sizes, strides, allow_none=False):
    """utils.py validate_and_clean_sizes_strides: equal non-empty lengths, sizes >= 1, strides >= 0;
    then every leading size-1 dimension (all but the last) gets stride 0, which changes no access."""
    if sizes is None or strides is None:
        if not allow_none:
            raise ValueError(f"{'sizes' if sizes is None else 'strides'} is None, a list of ints is needed")
        if sizes is None and strides is None:
            return None, None
    if sizes is not None and len(sizes) == 0:
        raise ValueError("sizes must not be empty")
    if strides is not None and len(strides) == 0:
        raise ValueError("strides must not be empty")
    if sizes is not None and strides is not None and len(sizes) != len(strides):
        raise ValueError(f"sizes {list(sizes)} and strides {list(strides)} differ in length")
    sizes = None if sizes is None else [int(s) for s in sizes]
    strides = None if strides is None else [int(s) for s in strides]
    if sizes is not None and any(s < 1 for s in sizes):
        raise ValueError(f"every size must be >= 1 (sizes {sizes})")
    if strides is not None and any(s < 0 for s in strides):
        raise ValueError(f"every stride must be >= 0 (strides {strides})")
    if sizes is not None and strides is not None:
        for i in range(len(sizes) - 1):
            if sizes[i] != 1:
                break
            strides[i] = 0
    return sizes, strides


def render_grid(order):
    """The access order map as text: one row per row of the 2-D view, '.' where never accessed."""
    order = np.asarray(order)
    rows = order.reshape(-1, order.shape[-1]) if order.ndim else order.reshape(1, 1)
    width = max(1, len(str(int(order.max()))) if order.size else 1)
    return "\n".join(" ".join("." .rjust(width) if v < 0 else str(int(v)).rjust(width) for v in r)
                     for r in rows) + "\n"


class TensorAccessPattern:
    """IRON TensorAccessPattern(tensor_dims, offset, sizes, strides): element index
    offset + sum_k i_k * strides[k] for every i in the sizes box, outermost dimension first,
    taken modulo the tensor size as IRON's access generator does."""

    def __init__(self, tensor_dims, offset, sizes, strides):
        self._tensor_dims = check_tensor_dims(tensor_dims)
        self._offset = check_offset(offset, self._tensor_dims)
        self._sizes, self._strides = clean_sizes_strides(sizes, strides)
        self._native_tap = None

    tensor_dims = property(lambda self: list(self._tensor_dims))
    offset = property(lambda self: self._offset)
    sizes = property(lambda self: list(self._sizes))
    strides = property(lambda self: list(self._strides))

    @property
    def transformation_dims(self):
        """[(size, stride), ...], outermost first: the form ObjectFifo dims take."""
        return list(zip(self._sizes, self._strides))

    @property
    def _native(self):
        # the simulator's pattern (at most 4 dimensions: a shim BD's), made on first use
        if self._native_tap is None:
            self._native_tap = _npusim.TensorAccessPattern(self._tensor_dims, self._offset, self._sizes,
                                                           self._strides)
        return self._native_tap

    def _indices(self):
        """The flat element indices in access order (an int64 array)."""
        idx = np.full((1,) * len(self._sizes), self._offset, dtype=np.int64)
        for k, (n, s) in enumerate(zip(self._sizes, self._strides)):
            shape = [1] * len(self._sizes)
            shape[k] = n
            idx = idx + (np.arange(n, dtype=np.int64) * s).reshape(shape)
        return idx.reshape(-1) % int(np.prod(self._tensor_dims))

    def access_generator(self):
        """The flat element indices in access order, one at a time."""
        return (int(i) for i in self._indices())

    def _maps(self):
        total = int(np.prod(self._tensor_dims))
        idx = self._indices()
        order = np.full(total, -1, dtype=_MAP_DTYPE)
        if idx.size:
            # the last access of an element counts: the first occurrence in the reversed order
            uniq, first_rev = np.unique(idx[::-1], return_index=True)
            order[uniq] = (idx.size - 1 - first_rev).astype(_MAP_DTYPE)
        count = np.bincount(idx, minlength=total).astype(_MAP_DTYPE)
        return order.reshape(self._tensor_dims), count.reshape(self._tensor_dims)

    def accesses(self):
        """(access_order, access_count): per element, the step of its last access (-1 if never)
        and how often it is accessed; both int32 arrays of tensor_dims' shape."""
        return self._maps()

    def access_order(self):
        return self._maps()[0]

    def access_count(self):
        return self._maps()[1]

    def compare_access_orders(self, other):
        """True if both patterns access the same elements in the same order."""
        if not isinstance(other, TensorAccessPattern):
            raise ValueError("compare_access_orders: other is not a TensorAccessPattern")
        a, b = self._indices(), other._indices()
        return a.shape == b.shape and bool(np.array_equal(a, b))

    def visualize(self, show_arrows=None, title=None, file_path=None, show_plot=True, plot_access_count=False):
        """Prints the access order (and count) maps as text; IRON draws them with matplotlib."""
        if file_path is not None:
            raise NotImplementedError("aie.helpers.taplib.TensorAccessPattern.visualize(file_path=...) is not "
                                      "supported by npusim (it prints the access map as text; no image output)")
        if len(self._tensor_dims) != 2:
            raise NotImplementedError("TensorAccessPattern.visualize: only 1- or 2-dimensional tensors")
        order, count = self._maps()
        print(title if title is not None else str(self))
        print(render_grid(order), end="")
        if plot_access_count:
            print("access count:")
            print(render_grid(count), end="")

    def __str__(self):
        return (f"TensorAccessPattern({self._tensor_dims} offset={self._offset}, sizes={self._sizes}, "
                f"strides={self._strides})")

    __repr__ = __str__

    def __eq__(self, other):
        return (isinstance(other, TensorAccessPattern) and self._tensor_dims == other._tensor_dims
                and self._offset == other._offset and self._sizes == other._sizes
                and self._strides == other._strides)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None  # mutable-equality object, as IRON's
