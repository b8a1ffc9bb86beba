"""aie.dialects.aiex under npusim: the runtime-sequence tasks of hand-written designs
(shim_dma_single_bd_task on a Flow's shim_symbol, dma_start_task, dma_await_task, dma_free_task),
bound to the frontend's (frontend/Runtime.hpp). Every other aiex name raises NotImplementedError
naming it."""
from .. import _npusim
from .._errors import _Located, where


def shim_dma_single_bd_task(alloc, mem, tap=None, offset=None, sizes=None, strides=None, transfer_len=None,
                            issue_token=False, packet=None, **unsupported):
    loc = where()
    if unsupported or packet is not None:
        names = ", ".join(k + "=" for k in list(unsupported) + (["packet"] if packet is not None else []))
        raise NotImplementedError(f"{loc[0]}:{loc[1]}: aie.dialects.aiex.shim_dma_single_bd_task({names}) is not "
                                  "supported by npusim")
    native_mem = getattr(mem, "_native", mem)
    native_tap = tap._native if tap is not None else None
    if native_tap is None and sizes is not None:
        dims = list(native_mem.type.shape)
        native_tap = _npusim.TensorAccessPattern(dims, int(offset or 0), [int(s) for s in sizes],
                                                 [int(s) for s in (strides or _row_major(sizes))])
    symbol = alloc if isinstance(alloc, str) else getattr(alloc, "shim_symbol", alloc)
    with _Located(loc):
        return _npusim.shim_dma_single_bd_task(symbol, native_mem, native_tap, bool(issue_token))


def _row_major(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.insert(0, acc if s > 1 else 0)
        acc *= s
    strides[-1] = 1
    return strides


def dma_start_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_start_task(t)


def dma_await_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_await_task(t)


def dma_free_task(*tasks):
    with _Located(where()):
        for t in tasks:
            _npusim.dma_free_task(t)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.dialects.aiex.{name} is not supported by npusim (it serves IRON's design API, "
                              "not the MLIR dialect bindings)")
