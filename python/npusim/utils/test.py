"""aie.utils.test (IRON python/utils/test.py at 3ca0193): create_npu_kernel for test.py drivers."""
from . import NPUKernel, TraceConfig


def create_npu_kernel(opts):
    """An NPUKernel from add_runtime_args' options (opts.xclbin, opts.instr, opts.kernel, and the trace
    ones), stored on opts.npu_kernel; returns opts. Running it under npusim raises NotImplementedError."""
    trace_config = None
    if getattr(opts, "trace_size", 0) > 0:
        trace_config = TraceConfig(trace_size=opts.trace_size, trace_file=getattr(opts, "trace_file", "trace.txt"),
                                   enable_ctrl_pkts=getattr(opts, "enable_ctrl_pkts", False))
    opts.npu_kernel = NPUKernel(xclbin_path=opts.xclbin, insts_path=opts.instr, kernel_name=opts.kernel,
                                trace_config=trace_config)
    return opts
