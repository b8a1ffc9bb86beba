"""aie.utils.hostruntime: the device the design is built for (set_current_device)."""
from ...iron.device import get_current_device, set_current_device  # noqa: F401
