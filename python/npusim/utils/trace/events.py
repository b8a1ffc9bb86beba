"""aie.utils.trace.events under npusim: the hardware trace event names a design selects for
Program.enable_trace (CoreEvent, MemEvent, MemTileEvent, ShimTileEvent and the port events
PortEvent, MemTilePortEvent, ShimTilePortEvent). npusim does not program the tiles' trace units: its
trace (`npusim python --trace F.json`) records every event it models whatever the selection, so an
event here is its name only, and a selection is accepted and has no effect on the run."""


class _Event:
    __slots__ = ("name", "family")

    def __init__(self, family, name):
        self.family, self.name = family, name

    def __repr__(self):
        return f"{self.family}.{self.name}"


class _EventNames:
    """An event enumeration of aie-rt (CoreEventAIE2, ...): every upper-case member name is an event."""

    def __init__(self, family):
        self._family = family

    def __getattr__(self, name):
        if name.startswith("_") or not name.isupper():
            raise AttributeError(f"aie.utils.trace.events.{self._family} has no event {name!r}")
        return _Event(self._family, name)


CoreEvent = _EventNames("CoreEvent")
MemEvent = _EventNames("MemEvent")
MemTileEvent = _EventNames("MemTileEvent")
ShimTileEvent = _EventNames("ShimTileEvent")


class PortEvent:
    """A port event of a compute tile's stream switch: (event, port, channel, master)."""

    def __init__(self, code, port, channel=0, master=True):
        self.code, self.port, self.channel, self.master = code, port, channel, master


class MemTilePortEvent(PortEvent):
    pass


class ShimTilePortEvent(PortEvent):
    pass


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.utils.trace.events.{name} is not supported by npusim")
