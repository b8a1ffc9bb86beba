"""npusim.iron: IRON's design API (aie.iron), simulated by npusim. `import npusim.iron as iron`, or an
unchanged `import aie.iron as iron` under `npusim python`."""
from . import algorithms, controlflow, device, kernels, placers  # noqa: F401
from .buffer import Buffer
from .controlflow import range_
from .dataflow import ObjectFifo, ObjectFifoHandle, ObjectFifoLink, StreamDims
from .device import ensure_current_device, get_current_device, set_current_device
from .dtype import dtype_to_str, str_to_dtype
from .jit import CompileTime, In, InOut, Out, jit
from .kernel import ExternalFunction, Kernel
from .lowlevel import Acquire, Bd, DmaChannel, Flow, Lock, PacketDest, PacketFlow, Release, TileDma
from .program import Program, ResolvedProgram
from .runtime import Runtime, RuntimeData, Task, TaskGroup
from .tensor import Tensor, arange, full, ones, ones_like, rand, randint, tensor, zeros, zeros_like
from .worker import CascadeFlow, Worker, WorkerRuntimeBarrier
from ..utils import ceildiv  # IRON re-exports aie.utils.ceildiv (python/iron/__init__.py)

__all__ = ["Buffer", "range_", "ObjectFifo", "ObjectFifoHandle", "ObjectFifoLink", "StreamDims", "ensure_current_device", "get_current_device", "set_current_device",
           "CompileTime", "In", "InOut", "Out", "jit", "ExternalFunction", "Kernel", "Program", "ResolvedProgram",
           "Runtime", "RuntimeData", "Task", "TaskGroup", "Tensor", "arange", "full", "ones", "ones_like", "rand",
           "randint", "tensor", "zeros", "zeros_like", "Worker", "WorkerRuntimeBarrier", "CascadeFlow", "kernels", "device",
           "controlflow", "placers", "str_to_dtype", "dtype_to_str", "Acquire", "Bd", "DmaChannel", "Flow", "Lock",
           "Release", "TileDma", "PacketDest", "PacketFlow", "ceildiv"]


def __getattr__(name):
    # An IRON name npusim does not model: a clear error naming it, never silence.
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.iron.{name} is not supported by npusim")
