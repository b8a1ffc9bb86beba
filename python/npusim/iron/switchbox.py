"""The manual-routing ops of aie.dialects.aie under npusim (aie_dialect.py serves them): mlir-aie's
programming_examples/basic/manual_switchbox writes them by hand (python/dialects/aie.py at 3ca0193).
switchbox(tile) and shim_mux(tile) decorate a body that calls connect(src_bundle, src_channel,
dst_bundle, dst_channel) and EndOp() (aie_dialect.EndOp, a no-op). Upstream emits them from a
user-side Resolvable (tiles() + resolve()) among a Worker's fn_args; Program.resolve_program calls
resolve() on such objects, as IRON's Program does, and registers every switchbox written with the
program's runtime (frontend Switchbox / ShimMux: the routes follow the connections, checked as the
toolchain's verifier checks them; docs/resolve-lowlevel.md, "Hand-written switchboxes")."""
from .._errors import design_error, where
from . import enums

_current = None  # the switchbox whose body is running
_written = []  # switchboxes written since the last Program took them


class _Box:
    def __init__(self, tile, shim_mux, loc):
        self.tile = tile
        self.shim_mux = shim_mux
        self.loc = loc
        self.connects = []


def _bundle(b, loc):
    if isinstance(b, enums.WireBundle):
        return b.value
    if isinstance(b, int) and not isinstance(b, bool):
        return b
    raise design_error(loc, f"connect: {b!r} is not a WireBundle")


def _region(tile, shim_mux):
    loc = where()
    if not hasattr(tile, "_native"):
        raise design_error(loc, f"{'shim_mux' if shim_mux else 'switchbox'}: {tile!r} is not a Tile (pass tile.op)")

    def decorate(body):
        global _current
        box = _Box(tile, shim_mux, loc)
        outer, _current = _current, box
        try:
            body()
        finally:
            _current = outer
        _written.append(box)
        return box

    return decorate


def switchbox(tile):
    """aie.switchbox(tile) as a decorator: the decorated function's connect() calls are its connections."""
    return _region(tile, False)


def shim_mux(tile):
    """aie.shim_mux(tile) as a decorator: a shim tile's mux between its DMA and its switch."""
    return _region(tile, True)


def connect(src_bundle, src_channel, dst_bundle, dst_channel):
    """aie.connect<src_bundle : src_channel, dst_bundle : dst_channel> inside a switchbox or shim_mux body."""
    loc = where()
    if _current is None:
        raise design_error(loc, "connect() outside a switchbox or shim_mux body")
    _current.connects.append((_bundle(src_bundle, loc), int(src_channel), _bundle(dst_bundle, loc), int(dst_channel)))


def take_written():
    """The switchboxes written so far, handed to one Program (each registers once)."""
    boxes = list(_written)
    _written.clear()
    return boxes

