"""npusim.utils: aie.utils under npusim (python/utils/__init__.py at 3ca0193): the tensor factories,
ceildiv, set_current_device, TraceConfig, and the host runtime names examples' drivers import
(DefaultNPURuntime, NPUKernel, cleanup_npu_runtime). The "attached NPU" is the simulated device;
npusim runs designs from their Python source, so loading a compiled xclbin into it raises
NotImplementedError naming the call."""
from ..iron.device import ensure_current_device, get_current_device, set_current_device  # noqa: F401
from ..iron.tensor import arange, full, ones, rand, randint, tensor, zeros, zeros_like  # noqa: F401
from .npukernel import NPUKernel, SimulatedRuntime
from .trace import TraceConfig  # noqa: F401

HostRuntime = SimulatedRuntime
DEFAULT_TENSOR_CLASS = None  # set below: npusim's one tensor class
has_xrt = False  # no XRT: the NPU is simulated
has_hrx = False


def ceildiv(a, b):
    """The smallest integer >= a / b."""
    return -(a // -b)


def npu_runtime_folds_ddr_addr_offset():
    """IRON asks the runtime whether it adds a buffer's DDR offset itself; the simulator's host
    transfers address the tensor from its start, as XRT's folding runtime does."""
    return True


_runtime = None


def _get_default_npu_runtime():
    global _runtime
    if _runtime is None:
        _runtime = SimulatedRuntime()
    return _runtime


def cleanup_npu_runtime():
    """Releases the runtime's cached state (a no-op when it was never created, as in IRON)."""
    if _runtime is not None:
        _runtime.cleanup()


def set_tensor_class(cls):
    raise NotImplementedError("aie.utils.set_tensor_class is not supported by npusim (its tensors are numpy-backed)")


def __getattr__(name):
    if name == "DefaultNPURuntime":
        return _get_default_npu_runtime()
    if name.startswith("__"):
        raise AttributeError(name)
    # `from aie.utils import config`: a submodule npusim serves, imported on first use (IRON's
    # aie.utils does not import them all either)
    from .._hook import MODULES
    if MODULES.get(f"aie.utils.{name}") == f"npusim.utils.{name}":
        import importlib
        return importlib.import_module(f"npusim.utils.{name}")
    raise NotImplementedError(f"aie.utils.{name} is not supported by npusim")


from ..iron.tensor import Tensor as _Tensor  # noqa: E402

DEFAULT_TENSOR_CLASS = _Tensor
