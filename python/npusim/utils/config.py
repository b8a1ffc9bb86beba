"""aie.utils.config (IRON python/utils/config.py at 3ca0193) under npusim: cxx_header_path is the AIE-API
host layer's include directory, the headers kernel sources compile against for the simulator. The
Peano and aiecc paths have no npusim counterpart and raise NotImplementedError naming them."""
from .. import _npusim


def cxx_header_path():
    """The include directory for kernel sources' #include <aie_api/aie.hpp> (npusim's host layer)."""
    return _npusim.aie_api_include_dirs()[0]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.utils.config.{name} is not supported by npusim (it compiles no design for "
                              "the NPU: no Peano or aiecc)")
