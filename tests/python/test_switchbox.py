"""aie.dialects.aie's switchbox / shim_mux / connect / EndOp, as mlir-aie's
programming_examples/basic/manual_switchbox uses them (3ca0193): user-side Resolvables among a
Worker's fn_args write the switchboxes in resolve(); Program.resolve_program registers them, the
routes follow the connections (the export prints them) and a connection the toolchain's verifier
refuses is a DesignError naming the Python line of its switchbox."""
import numpy as np
import pytest

import npusim
import npusim.iron as iron
from aie.dialects._aie_enum_gen import DMAChannelDir, WireBundle
from aie.dialects.aie import EndOp, connect, shim_mux, switchbox
from npusim.iron import Acquire, Bd, Buffer, DmaChannel, Lock, Program, Release, Runtime, TileDma, Worker
from npusim.iron.device import Tile

N = 64


class _Box:
    """upstream's ManualSwitchbox / ManualShimMux: tiles() + resolve() writing one region."""

    def __init__(self, tile, conns, mux=False):
        self._tile, self._conns, self._mux = tile, conns, mux

    def tiles(self):
        return [self._tile]

    def resolve(self, loc=None, ip=None):
        @(shim_mux if self._mux else switchbox)(self._tile.op)
        def _body():
            for sb, sc, db, dc in self._conns:
                connect(sb, sc, db, dc)
            EndOp()


def _design(core_conns):
    shim, mem, comp = Tile(0, 0), Tile(0, 1), Tile(0, 2)
    vec_ty = np.ndarray[(N,), np.dtype[np.int32]]
    W = WireBundle
    boxes = [
        _Box(shim, [(W.DMA, 0, W.North, 3), (W.North, 2, W.DMA, 0)], mux=True),
        _Box(shim, [(W.South, 3, W.North, 1), (W.North, 0, W.South, 2)]),
        _Box(mem, [(W.South, 1, W.North, 1), (W.North, 0, W.South, 0)]),
        _Box(comp, core_conns),
    ]
    in_buf = Buffer(tile=comp, type=vec_ty, name="in_buf")
    out_buf = Buffer(tile=comp, type=vec_ty, name="out_buf")
    ip, ic = Lock(comp, lock_id=0, init=1, name="in_prod"), Lock(comp, lock_id=1, init=0, name="in_cons")
    op, oc = Lock(comp, lock_id=2, init=1, name="out_prod"), Lock(comp, lock_id=3, init=0, name="out_cons")
    dma = TileDma(comp, [
        DmaChannel(DMAChannelDir.S2MM, 0, [Bd(in_buf, acquires=[Acquire(ip)], releases=[Release(ic)])]),
        DmaChannel(DMAChannelDir.MM2S, 0, [Bd(out_buf, acquires=[Acquire(oc)], releases=[Release(op)])]),
    ])

    def body(i_cons, i_prod, o_prod, o_cons, ib, ob, *_routing):
        i_cons.acquire(1)
        o_prod.acquire(1)
        i_prod.release(1)
        o_cons.release(1)

    w = Worker(body, [ic, ip, op, oc, in_buf, out_buf, *boxes], tile=comp, while_true=False)
    rt = Runtime(lambda a, c: None, [vec_ty, vec_ty])
    for lk in (ip, ic, op, oc):
        rt.add_lock(lk)
    rt.add_tile_dma(dma)
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def test_switchboxes_written_in_resolve_are_the_routes():
    W = WireBundle
    text = str(_design([(W.South, 1, W.DMA, 0), (W.DMA, 0, W.South, 0)]))
    assert "aie.shim_mux(" in text and text.count("aie.switchbox(") == 3
    assert "aie.connect<South : 1, DMA : 0>" in text and "aie.connect<DMA : 0, North : 3>" in text
    assert "aie.flow(" not in text  # no route comes from the router


def test_a_connect_the_verifier_refuses_names_its_line():
    W = WireBundle
    # SwitchboxOp::verify (AIEDialect.cpp L2815-2825 at 3ca0193): a compute tile has two S2MM channels.
    with pytest.raises(npusim.DesignError,
                       match=r"test_switchbox.py:\d+: .*index 2 for dest bundle DMA must be less than 2"):
        _design([(W.South, 1, W.DMA, 2), (W.DMA, 0, W.South, 0)])


def test_connect_outside_a_switchbox_and_other_dialect_names_say_which():
    with pytest.raises(npusim.DesignError, match="connect\\(\\) outside a switchbox or shim_mux body"):
        connect(WireBundle.South, 0, WireBundle.North, 0)
    with pytest.raises(NotImplementedError, match="aie.dialects.aie.tile is not supported by npusim"):
        from aie.dialects import aie
        aie.tile
