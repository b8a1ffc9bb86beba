"""aie.helpers.taplib with IRON's semantics (mlir-aie python/helpers/taplib at 3ca0193): patterns
validated and cleaned as utils.py does, access maps and tiler patterns checked against numpy slicing
of the tensor they describe, and tiled fills/drains simulated byte for byte."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim.helpers.taplib import TensorAccessPattern, TensorAccessSequence, TensorTiler2D
from npusim.iron import ObjectFifo, Program, Runtime, Worker
from npusim.iron.controlflow import range_


def gather(tensor, tap):
    """The elements a pattern reads from `tensor`, in access order (what a shim fill streams)."""
    return tensor.reshape(-1)[np.fromiter(tap.access_generator(), dtype=np.int64)]


def tiles_reference(tensor, th, tw):
    """numpy's view of the tensor as a grid of th x tw tiles: [tile row, tile col, th, tw]."""
    rows, cols = tensor.shape
    return tensor.reshape(rows // th, th, cols // tw, tw).transpose(0, 2, 1, 3)


def test_pattern_keeps_irons_cleaned_sizes_strides_and_promotes_1d_dims():
    tap = TensorAccessPattern([64], 3, [1, 1, 4, 8], [7, 9, 16, 1])
    assert tap.tensor_dims == [1, 64]  # validate_tensor_dims: a 1-D tensor reads as (1, n)
    assert tap.sizes == [1, 1, 4, 8] and tap.strides == [0, 0, 16, 1]  # leading size-1 dims: stride 0
    assert tap.transformation_dims == [(1, 0), (1, 0), (4, 16), (8, 1)]
    assert tap.offset == 3
    assert TensorAccessPattern([64], 0, [2, 3], [1, 1]).strides == [1, 1]  # nothing to clean: kept
    for args, text in [(([4, 4], -1, [4], [1]), "offset -1 must be >= 0"),
                       (([4, 4], 16, [4], [1]), "offset 16 is past"),
                       (([4, 4], 0, [4, 0], [1, 1]), "every size must be >= 1"),
                       (([4, 4], 0, [4, 4], [1, -1]), "every stride must be >= 0"),
                       (([4, 4], 0, [4, 4], [1]), "differ in length"),
                       (([4, 0], 0, [4], [1]), "each dimension must be >= 1")]:
        with pytest.raises(ValueError, match=text):
            TensorAccessPattern(*args)


def test_access_maps_are_last_access_order_and_counts_modulo_the_tensor():
    # 2 x 3 box over a 4 x 4 tensor with a wrap: index (offset + ...) % 16, as IRON's generator.
    tap = TensorAccessPattern([4, 4], 14, [2, 3], [4, 1])
    idx = [14, 15, 16 % 16, 18 % 16, 19 % 16, 20 % 16]
    assert list(tap.access_generator()) == idx
    order, count = tap.accesses()
    ref_order = np.full(16, -1, np.int32)
    ref_count = np.zeros(16, np.int32)
    for step, i in enumerate(idx):
        ref_order[i] = step
        ref_count[i] += 1
    assert order.dtype == np.int32 and order.shape == (4, 4)
    assert np.array_equal(order.ravel(), ref_order) and np.array_equal(count.ravel(), ref_count)
    # a repeat (stride 0): the last access wins in the order map, the count says two
    rep = TensorAccessPattern([1, 4], 0, [2, 4], [0, 1])
    assert rep.access_order().tolist() == [[4, 5, 6, 7]] and rep.access_count().tolist() == [[2, 2, 2, 2]]
    assert rep.compare_access_orders(TensorAccessPattern([1, 4], 0, [2, 1, 4], [0, 0, 1]))
    assert not rep.compare_access_orders(TensorAccessPattern([1, 4], 0, [4], [1]))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.float32])
@pytest.mark.parametrize("tile_col_major", [False, True])
def test_simple_tiler_gathers_numpys_tiles_byte_for_byte(dtype, tile_col_major):
    t = (np.arange(12 * 16) * 7 % 251).astype(dtype).reshape(12, 16)
    seq = TensorTiler2D.simple_tiler((12, 16), (3, 4), tile_col_major=tile_col_major)
    ref = tiles_reference(t, 3, 4)
    assert len(seq) == 16 and isinstance(seq, TensorAccessSequence)
    for k, tap in enumerate(seq):
        tile = ref[k // 4, k % 4]
        expected = tile.T if tile_col_major else tile
        assert gather(t, tap).tobytes() == np.ascontiguousarray(expected).tobytes(), k
    # iter_col_major walks the tiles down the columns first
    by_cols = TensorTiler2D.simple_tiler((12, 16), (3, 4), iter_col_major=True)
    assert gather(t, by_cols[1]).tobytes() == ref[1, 0].tobytes()


def test_group_and_step_tilers_gather_numpys_tile_groups():
    t = np.arange(16 * 16, dtype=np.int32).reshape(16, 16)
    ref = tiles_reference(t, 2, 4)  # 8 x 4 tiles
    # groups of 2 x 2 tiles, tiles row-major inside the group
    grp = TensorTiler2D.group_tiler((16, 16), (2, 4), (2, 2))
    assert len(grp) == 8
    g = ref[0:2, 2:4]  # the second group: tile rows 0-1, tile cols 2-3
    assert gather(t, grp[1]).tobytes() == np.concatenate([g[0, 0].ravel(), g[0, 1].ravel(), g[1, 0].ravel(),
                                                          g[1, 1].ravel()]).tobytes()
    # step_tiler: 2 tiles per pattern in each dimension, every other tile
    stp = TensorTiler2D.step_tiler((16, 16), (2, 4), (2, 2), (2, 2))
    assert stp[0].sizes == [2, 2, 2, 4] and stp[0].strides == [64, 8, 16, 1]
    s = ref[0:4:2, 0:4:2]
    assert gather(t, stp[0]).tobytes() == np.concatenate([s[0, 0].ravel(), s[0, 1].ravel(), s[1, 0].ravel(),
                                                          s[1, 1].ravel()]).tobytes()
    # together the step tiler's patterns touch every element exactly once
    assert np.array_equal(stp.access_count(), np.ones((16, 16), np.int32))
    assert sorted(stp.access_order().ravel().tolist()) == list(range(256))


def test_tiler_errors_and_pattern_repeat():
    rep = TensorTiler2D.simple_tiler((4, 8), (4, 4), pattern_repeat=3)
    assert rep[0].sizes == [3, 1, 4, 4] and rep[0].strides == [0, 0, 8, 1]
    with pytest.raises(npusim.DesignError, match=r"test_taplib.py:\d+: TensorTiler2D.simple_tiler: Tensor "
                                                  r"dimension 1 \(8\) is not divisible by tile dim \(3\)"):
        TensorTiler2D.simple_tiler((4, 8), (4, 3))
    with pytest.raises(npusim.DesignError, match="allow_partial=False but tensor does not divide evenly"):
        TensorTiler2D.group_tiler((4, 12), (2, 2), (1, 4))
    assert len(TensorTiler2D.group_tiler((4, 12), (2, 2), (1, 4), allow_partial=True)) == 4
    with pytest.raises(TypeError, match="cannot be instantiated"):
        TensorTiler2D()


def test_sequence_built_from_functions_and_its_combined_maps():
    seq = TensorAccessSequence([4, 4], 2, offset=0, sizes=[2, 4], strides=[4, 1],
                               offset_fn=lambda step, prev: step * 8)
    assert [t.offset for t in seq] == [0, 8]
    assert np.array_equal(seq.access_order().ravel(), np.arange(16))
    # patterns that overlap: IRON adds the shifted orders of both (tas.py _calc_accesses)
    a = TensorAccessPattern([1, 4], 0, [2], [1])
    b = TensorAccessPattern([1, 4], 1, [2], [1])
    both = TensorAccessSequence.from_taps([a, b])
    # a: steps 1, 2 (shifted by 1); b: steps 3, 4 (past the highest, 2); element 1 holds 2 + 3; minus 1
    assert both.access_order().tolist() == [[0, 4, 3, -1]] and both.access_count().tolist() == [[1, 2, 1, 0]]
    with pytest.raises(ValueError, match="different tensor dimensions"):
        TensorAccessSequence.from_taps([a, TensorAccessPattern([2, 4], 0, [2], [1])])
    with pytest.raises(ValueError, match="cannot join"):
        both.append(TensorAccessPattern([2, 4], 0, [2], [1]))
    with pytest.raises(ValueError, match="sizes is needed"):
        TensorAccessSequence([4, 4], 2, offset=0, strides=[1])


def _tiled_copy(fill_taps, drain_taps, elements=32, n_tiles=4):
    t = np.ndarray[(elements,), np.dtype[np.int32]]
    v = np.ndarray[(elements * n_tiles,), np.dtype[np.int32]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def body(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(elements):
            y[k] = x[k]
        i.release(1)
        o.release(1)

    def seq(x, y, hi, ho):
        for tap in fill_taps:
            hi.fill(x, tap)
        if drain_taps is None:
            ho.drain(y, wait=True)
        else:
            for k, tap in enumerate(drain_taps):
                ho.drain(y, tap, wait=k == len(drain_taps) - 1)

    w = Worker(body, [a.cons(), b.prod()])
    return Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]), workers=[w]).resolve_program()


def test_tiled_fill_and_drain_simulate_numpys_tiles_byte_for_byte():
    x = np.arange(8 * 16, dtype=np.int32).reshape(8, 16)
    taps = TensorTiler2D.simple_tiler((8, 16), (4, 8), tile_col_major=True)
    y = np.zeros(128, np.int32)
    npusim.simulate(_tiled_copy(taps, None), [x.ravel().copy(), y])
    ref = tiles_reference(x, 4, 8)
    assert y.tobytes() == np.concatenate([ref[r, c].T.ravel() for r in range(2) for c in range(2)]).tobytes()
    # the same patterns on the way back put every element where it came from
    y2 = np.zeros(128, np.int32)
    npusim.simulate(_tiled_copy(taps, taps), [x.ravel().copy(), y2])
    assert y2.tobytes() == x.tobytes()
