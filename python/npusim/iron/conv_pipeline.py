"""IRON's conv-pipeline body templates (python/iron/algorithms/conv_pipeline.py at 3ca0193; ml/mobilenet
bottleneck/pipeline.py uses them): called inside a worker body, they write the acquire / release
pattern of a row-by-row convolution around a `do_kernel` callback, and are recorded with the body
like any code there. Weights either come from a fifo (`of_wts`: one object acquired before the rows
and released after them, handed to `do_kernel` last) or not at all (None in that slot)."""
from .controlflow import range_


def _weights(of_wts):
    return of_wts.acquire(1) if of_wts is not None else None


def _done(of_wts):
    if of_wts is not None:
        of_wts.release(1)


def row_at_a_time(of_in, of_out, *, n_rows, do_kernel, of_wts=None):
    """n_rows times: one input row and one output row, do_kernel(row_in, row_out, wts)."""
    wts = _weights(of_wts)
    for _ in range_(n_rows):
        row_in, row_out = of_in.acquire(1), of_out.acquire(1)
        do_kernel(row_in, row_out, wts)
        of_in.release(1)
        of_out.release(1)
    _done(of_wts)


def row_at_a_time_with_skip(of_in, of_out, of_skip, *, n_rows, do_kernel, of_wts=None):
    """As row_at_a_time, with one row of a skip fifo too: do_kernel(row_in, row_out, row_skip, wts)."""
    wts = _weights(of_wts)
    for _ in range_(n_rows):
        row_in, row_out, row_skip = of_in.acquire(1), of_out.acquire(1), of_skip.acquire(1)
        do_kernel(row_in, row_out, row_skip, wts)
        for f in (of_in, of_out, of_skip):
            f.release(1)
    _done(of_wts)


def row_at_a_time_tiled(of_in, of_out, *, n_rows, n_tiles_per_row, do_kernel, of_wts=None):
    """n_rows times n_tiles_per_row: one input tile and one output tile, do_kernel(tile_in, tile_out, wts)."""
    wts = _weights(of_wts)
    for _ in range_(n_rows):
        for _ in range_(n_tiles_per_row):
            t_in, t_out = of_in.acquire(1), of_out.acquire(1)
            do_kernel(t_in, t_out, wts)
            of_in.release(1)
            of_out.release(1)
    _done(of_wts)


def sliding_3row(of_in, of_out, *, n_out_rows, do_kernel, of_wts=None):
    """A 3-row vertical window whose border rows repeat: do_kernel(top, mid, bot, row_out, wts, border)
    with border 0 for the first output row (rows 0, 0, 1), 1 for the n_out_rows - 2 middle ones
    (three rows, the oldest released after each) and 2 for the last (the last two rows, bottom
    repeated, both released)."""
    wts = _weights(of_wts)
    rows = of_in.acquire(2)
    out = of_out.acquire(1)
    do_kernel(rows[0], rows[0], rows[1], out, wts, 0)
    of_out.release(1)
    for _ in range_(n_out_rows - 2):
        rows = of_in.acquire(3)
        out = of_out.acquire(1)
        do_kernel(rows[0], rows[1], rows[2], out, wts, 1)
        of_in.release(1)
        of_out.release(1)
    rows = of_in.acquire(2)
    out = of_out.acquire(1)
    do_kernel(rows[0], rows[1], rows[1], out, wts, 2)
    of_in.release(2)
    of_out.release(1)
    _done(of_wts)
