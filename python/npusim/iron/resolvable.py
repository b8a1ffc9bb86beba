"""aie.iron.resolvable (python/iron/resolvable.py at 3ca0193): the protocol of objects that resolve
into the design themselves. A user-side Resolvable among a Worker's fn_args (tiles() + resolve())
is resolved when that Worker is made, before its body is recorded, as IRON's Program resolves it
before tracing the body: resolve() may write switchboxes (aie.dialects.aie switchbox / shim_mux)
or a hand-made DMA program (lock, buffer, flow, mem, memtile_dma: aie_ops.py), whose objects the
body then uses (upstream basic/custom_dma's ScatterReadDMA)."""
from typing import Protocol, runtime_checkable


@runtime_checkable
class Resolvable(Protocol):
    def resolve(self, loc=None, ip=None) -> None:
        ...

    def tiles(self) -> list:
        return []


class NotResolvedError(Exception):
    """Raised when an operation of a Resolvable is used before resolve() was called."""

    def __init__(self, message="Cannot get operation; class not resolved."):
        self.message = message
        super().__init__(self.message)


def is_user_resolvable(obj):
    """An object of the design's own with tiles() and resolve() (npusim's classes resolve natively)."""
    return (not type(obj).__module__.startswith("npusim.") and callable(getattr(obj, "resolve", None))
            and callable(getattr(obj, "tiles", None)))
