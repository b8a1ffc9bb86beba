"""aie.iron.resolvable and the AIE dialect op builders a user-side Resolvable writes a hand-made DMA
with, as mlir-aie's basic/custom_dma does at 3ca0193 (aie.dialects.aie lock, buffer, flow,
memtile_dma, mem, dma_start, dma_bd, use_lock, next_bd): resolved when its Worker is made, before
the body is recorded; the body synchronises through the Resolvable's use_lock calls. Outputs against
numpy, cycles against the C++ twin custom_dma (the same BD chain written with IRON's Lock/Bd/TileDma)."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir, LockAction, WireBundle
from aie.dialects.aie import EndOp, buffer, dma_bd, dma_start, flow, lock, mem, memtile_dma, next_bd, use_lock
from aie.dialects.aiex import set_lock_value
from aie.iron import ObjectFifo, Program, Runtime, TaskGroup, Worker
from aie.iron.controlflow import range_
from aie.iron.device import AnyComputeTile, AnyMemTile, Tile
from aie.iron.resolvable import NotResolvedError, Resolvable
from conftest import core_regions, mlir_opt_verify, twin_export
from test_canonical import twin

ROWS = (0, 1, 3)  # the rows the chain reads: row 2 is skipped


def _rows(cols):
    return np.concatenate([np.arange((r + 1) * 100, (r + 1) * 100 + cols, dtype=np.int32) for r in range(4)])


class _RowChain(Resolvable):
    """A mem-tile buffer of four rows; an MM2S chain of three BDs reads ROWS into a compute tile's
    buffer, each BD waiting on a mem-tile lock the runtime sequence sets."""

    def __init__(self, cols, memtile, compute, raise_in_resolve=False):
        self.cols, self._mem, self._comp, self._raise = cols, memtile, compute, raise_in_resolve
        self.mem_cons = None

    def tiles(self):
        return [self._mem, self._comp]

    def acquire(self, n=1):
        use_lock(self._full, LockAction.AcquireGreaterEqual)
        return self._recv

    def release(self, n=1):
        use_lock(self._empty, LockAction.Release)

    def resolve(self, loc=None, ip=None):
        if self._raise:
            raise ValueError("no tiles left")
        cols = self.cols
        mem_prod, self.mem_cons = lock(self._mem.op, init=0), lock(self._mem.op, init=0)
        src = buffer(self._mem.op, np.ndarray[(4 * cols,), np.dtype[np.int32]], "rows", initial_value=_rows(cols))
        self._empty, self._full = lock(self._comp.op, init=1), lock(self._comp.op, init=0)
        self._recv = buffer(self._comp.op, np.ndarray[(cols,), np.dtype[np.int32]], "rows_recv")
        flow(self._mem.op, WireBundle.DMA, 0, self._comp.op, WireBundle.DMA, 0)

        @memtile_dma(self._mem.op)
        def _chain(block):
            dma_start(DMAChannelDir.MM2S, 0, dest=block[1], chain=block[4])
            for k, r in enumerate(ROWS):
                with block[k + 1]:
                    use_lock(self.mem_cons, LockAction.AcquireGreaterEqual)
                    dma_bd(src, offset=r * cols, transfer_len=cols)
                    use_lock(mem_prod, LockAction.Release)
                    next_bd(block[(k + 1) % len(ROWS) + 1])
            with block[4]:
                EndOp()

        @mem(self._comp.op)
        def _recv_dma(block):
            dma_start(DMAChannelDir.S2MM, 0, dest=block[1], chain=block[2])
            with block[1]:
                use_lock(self._empty, LockAction.AcquireGreaterEqual)
                dma_bd(self._recv)
                use_lock(self._full, LockAction.Release)
                next_bd(block[1])
            with block[2]:
                EndOp()


class _Writes:
    """A Resolvable whose resolve() runs `write` (the op builders under test)."""

    def __init__(self, write):
        self._write = write

    def tiles(self):
        return []

    def resolve(self, loc=None, ip=None):
        self._write()


def _design(cols, memtile, compute, **kw):
    row_ty = np.ndarray[(cols,), np.dtype[np.int32]]
    chain = _RowChain(cols, memtile, compute, **kw)
    of_out = ObjectFifo(row_ty, depth=1, name="out")

    def core_fn(rows_h, out):
        for _ in range(len(ROWS)):
            chunk = rows_h.acquire(1)
            e = out.acquire(1)
            for i in range_(cols):
                e[i] = chunk[i]
            rows_h.release(1)
            out.release(1)

    worker = Worker(core_fn, [chain, of_out.prod()], tile=compute)

    def sequence(c, out_h):
        tg = TaskGroup()
        out_h.drain(c, wait=True, group=tg)
        set_lock_value(chain.mem_cons, len(ROWS))  # resolved with the Worker: its lock exists here
        tg.finish()

    rt = Runtime(sequence, [np.ndarray[(len(ROWS) * cols,), np.dtype[np.int32]], of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def _golden(cols):
    return _rows(cols).reshape(4, cols)[list(ROWS)].reshape(-1)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("cols", [16, 40])
def test_a_dma_written_with_the_dialect_ops_in_a_resolvable_runs_as_its_cpp_twin(cols):
    c = np.zeros(len(ROWS) * cols, dtype=np.int32)
    run = npusim.simulate(_design(cols, Tile(0, 1), Tile(0, 2)), [c])
    assert np.array_equal(c, _golden(cols))
    assert run.cycles == twin("custom_dma", cols=cols)


@pytest.mark.timeout(30)
def test_unplaced_copies_of_any_tile_are_placed_and_run():
    # upstream custom_dma's AnyMemTile.copy() / AnyComputeTile.copy(): one logical tile each
    m, k = AnyMemTile.copy(), AnyComputeTile.copy()
    assert m is not AnyMemTile and k is not AnyComputeTile
    c = np.zeros(len(ROWS) * 16, dtype=np.int32)
    npusim.simulate(_design(16, m, k), [c])
    assert np.array_equal(c, _golden(16))


def test_the_protocol_and_the_errors_name_what_went_wrong():
    assert isinstance(_RowChain(16, Tile(0, 1), Tile(0, 2)), Resolvable)
    assert str(NotResolvedError()) == "Cannot get operation; class not resolved."
    with pytest.raises(npusim.DesignError, match=r"test_resolvable.py:\d+: Worker: resolve\(\) of its argument "
                                                 r"_RowChain raised ValueError: no tiles left"):
        _design(16, Tile(0, 1), Tile(0, 2), raise_in_resolve=True)
    with pytest.raises(npusim.DesignError, match=r"aie.dma_bd outside a mem / memtile_dma region"):
        dma_bd(None)
    # the op builders write only while a Worker resolves a Resolvable (IRON emits them when the
    # Program resolves), so no op written elsewhere lands in some later design
    with pytest.raises(npusim.DesignError, match=r"test_resolvable.py:\d+: aie.lock outside a Resolvable's resolve\(\)"):
        lock(Tile(0, 2), init=1)
    with pytest.raises(npusim.DesignError, match=r"aie.memtile_dma outside a Resolvable's resolve\(\)"):
        memtile_dma(Tile(0, 1))

    def repeat(block):
        dma_start(DMAChannelDir.S2MM, 0, dest=block[1], chain=block[2], repeat_count=2)

    with pytest.raises(NotImplementedError, match=r"test_resolvable.py:\d+: aie.dialects.aie.dma_start\(repeat_count=\)"):
        Worker(lambda w: None, [_Writes(lambda: mem(Tile(0, 2))(repeat))], tile=Tile(0, 2))

    def two_acquires(block):
        lk = lock(Tile(0, 2), init=1)
        dma_start(DMAChannelDir.S2MM, 0, dest=block[1], chain=block[2])
        with block[1]:
            use_lock(lk, LockAction.AcquireGreaterEqual)
            use_lock(lk, LockAction.AcquireGreaterEqual)

    with pytest.raises(npusim.DesignError, match=r"block 1 already has its acquire \(a BD has one\)"):
        Worker(lambda w: None, [_Writes(lambda: mem(Tile(0, 2))(two_acquires))], tile=Tile(0, 2))
    with pytest.raises(NotImplementedError, match="aie.dialects.aie.core is not supported by npusim"):
        from aie.dialects import aie
        aie.core


def test_a_body_that_copies_elements_itself_exports_as_its_cpp_twins_body():
    # upstream custom_dma prints its module: the row copy `e[i] = chunk[i]` in a range_ exports as
    # the C++ twin's e.at<T>(i) = in.at<T>(i) does, one scf.for of memref.load / memref.store per row
    program = _design(16, Tile(0, 1), Tile(0, 2))
    cores = core_regions(str(program))
    assert cores == core_regions(twin_export("custom_dma", cols=16))
    assert cores[0].count("memref.store") == len(ROWS) and cores[0].count("scf.for") == 1 + len(ROWS)
    assert mlir_opt_verify(program.export_mlir(generic=True)) == ""
