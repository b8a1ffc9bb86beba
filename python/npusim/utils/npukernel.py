"""aie.utils.NPUKernel and the host runtime under npusim (IRON python/utils/npukernel.py and
hostruntime/ at 3ca0193). IRON's drivers load a compiled xclbin + instruction stream into XRT;
npusim has neither: it simulates a design from its Python source (the run mode of the design's own
script, an @iron.jit call, or npusim.simulate on a resolved program). So an NPUKernel can be made
(scripts that only import or construct it run), and loading or running one raises
NotImplementedError naming the call and the xclbin."""
import os

from .._errors import where


def _refuse(call, kernel):
    file, line = where()
    raise NotImplementedError(
        f"{file}:{line}: aie.utils.{call} of the compiled xclbin '{kernel.xclbin_path}' is not supported by npusim: "
        "it simulates designs from their Python source, not compiled xclbins; run the design's own script under "
        "`npusim python` (its run mode simulates and verifies), or call the @iron.jit function on tensors")


class NPUKernel:
    """IRON NPUKernel(xclbin_path, insts_path, device_index=0, kernel_name="MLIR_AIE", trace_config=None)."""

    def __init__(self, xclbin_path, insts_path, device_index=0, kernel_name="MLIR_AIE", trace_config=None, **_):
        self.xclbin_path = os.fspath(xclbin_path)
        self.insts_path = os.fspath(insts_path)
        self.device_index = device_index
        self.kernel_name = kernel_name
        self.trace_config = trace_config

    def __call__(self, *args, **kwargs):
        _refuse("NPUKernel(...)(...)", self)

    def __repr__(self):
        return f"NPUKernel({self.xclbin_path!r}, {self.insts_path!r}, kernel_name={self.kernel_name!r})"


class SimulatedRuntime:
    """aie.utils.DefaultNPURuntime under npusim: the simulated NPU of `npusim python --device`."""

    @property
    def device(self):
        from ..iron.device import get_current_device
        return get_current_device()

    @property
    def npu_str(self):
        """"npu1" or "npu2", as XRT's runtime names the attached NPU's generation."""
        return "npu1" if self.device._arch == "aie2" else "npu2"

    def load(self, npu_kernel, *_, **__):
        _refuse("DefaultNPURuntime.load", npu_kernel)

    def run(self, npu_kernel, *_, **__):
        _refuse("DefaultNPURuntime.run", npu_kernel)

    def run_test(self, npu_kernel, *_, **__):
        _refuse("DefaultNPURuntime.run_test", npu_kernel)

    def load_and_run(self, npu_kernel, *_, **__):
        _refuse("DefaultNPURuntime.load_and_run", npu_kernel)

    def cleanup(self):
        """Nothing is cached between simulated runs but compiled kernel libraries, which stay valid."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(f"aie.utils.DefaultNPURuntime.{name} is not supported by npusim")
