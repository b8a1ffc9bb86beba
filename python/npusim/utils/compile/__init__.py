"""aie.utils.compile under npusim: resolve_target_arch (the generation of a device). Compiling a
design for the NPU needs mlir-aie and Peano: the other names raise NotImplementedError naming them."""


def resolve_target_arch(device=None):
    """'aie2' (NPU1) or 'aie2p' (NPU2) for a device; 'aie2' for None, as IRON's (compile/utils.py)."""
    if device is None:
        return "aie2"
    from ...iron.device import Device, device_for
    d = device if isinstance(device, Device) else device_for(str(device))
    return d._arch


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.utils.compile.{name} is not supported by npusim (compiling for the NPU needs "
                              "mlir-aie and Peano)")
