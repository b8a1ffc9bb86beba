"""aie.utils.trace: TraceConfig. A design given one is traced (Program.enable_trace); npusim writes
its traces with `npusim python --trace F.json` (Perfetto) rather than through the NPU's trace buffer,
so physical_mlir_path stays None and trace_to_json is not available."""


class TraceConfig:
    def __init__(self, trace_size=8192, trace_file="trace.txt", trace_after_last_tensor=False, enable_ctrl_pkts=False,
                 last_tensor_shape=None, last_tensor_dtype=None, **_):
        self.trace_size = trace_size
        self.trace_file = trace_file
        self.physical_mlir_path = None

    def trace_to_json(self, *_, **__):
        raise NotImplementedError("aie.utils.trace.TraceConfig.trace_to_json is not supported by npusim "
                                  "(use npusim python --trace FILE.json)")
