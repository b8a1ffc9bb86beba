"""npusim's exceptions and the user-frame capture behind their locations.

Every error a design call causes names the Python file and line of that call: the first frame
outside the npusim package, captured when the API call is made.
"""
import os
import sys

from . import _npusim

NpusimError = _npusim.NpusimError
DesignError = _npusim.DesignError
SimulationError = _npusim.SimulationError
DeadlockError = _npusim.DeadlockError
LimitError = _npusim.LimitError

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def where(skip_package=True):
    """(file, line) of the innermost caller outside the npusim package."""
    f = sys._getframe(1)
    while f is not None:
        fn = os.path.abspath(f.f_code.co_filename)
        if not (skip_package and fn.startswith(_PACKAGE_DIR + os.sep)):
            return f.f_code.co_filename, f.f_lineno
        f = f.f_back
    return "<unknown>", 0


def located(loc, exc):
    """`exc` (a DesignError from the simulator) again, its message prefixed with `loc`."""
    file, line = loc
    msg = f"{file}:{line}: {exc}"
    new = DesignError(msg)
    new.file, new.line, new.exit_code = file, line, 2
    return new


def design_error(loc, message):
    file, line = loc
    e = DesignError(f"{file}:{line}: {message}")
    e.file, e.line, e.exit_code = file, line, 2
    return e


class _Located:
    """`with _Located(loc):` re-raises a DesignError from native code with the caller's location."""

    def __init__(self, loc):
        self.loc = loc

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if ev is not None and isinstance(ev, DesignError) and not getattr(ev, "file", None):
            raise located(self.loc, ev) from None
        return False


def unsupported(call):
    """NotImplementedError naming an IRON call npusim does not model."""
    file, line = where()
    return NotImplementedError(f"{file}:{line}: {call} is not supported by npusim")
