"""aie.utils.hostruntime.argparse: the standard flags of IRON design scripts (python/utils/hostruntime/
argparse.py), with upstream's names and defaults. Under npusim `--dev` picks the device family (npu:
NPU1, npu2: NPU2); without it the device is `npusim python --device` (default npu2)."""
import argparse

DEFAULT_DEV_CHOICES = ("npu", "npu2")


def add_compile_args(parser, *, with_dev=True, dev_choices=DEFAULT_DEV_CHOICES, default_dev=None, short_dev="-d",
                     with_elf=False, with_full_elf=False, with_pdi=False, with_emit_mlir=False):
    if with_dev:
        names = ("--dev",) if short_dev is None else (short_dev, "--dev")
        parser.add_argument(*names, type=str, choices=list(dev_choices), default=default_dev,
                            help="target device family (default: npusim python --device)")
    if with_emit_mlir:
        parser.add_argument("--emit-mlir", action="store_true", help="print the design's MLIR (npusim's export)")
    parser.add_argument("--xclbin-path", type=str, default=None, help="compile-only mode (needs mlir-aie)")
    parser.add_argument("--insts-path", type=str, default=None, help="compile-only mode (needs mlir-aie)")
    if with_elf:
        parser.add_argument("--elf-path", type=str, default=None)
    if with_full_elf:
        parser.add_argument("--full-elf-path", type=str, default=None)
    if with_pdi:
        parser.add_argument("--pdi-path", type=str, default=None)


def add_benchmark_args(parser, *, default_warmup=2, default_iters=5):
    parser.add_argument("-w", "--warmup", type=int, default=default_warmup)
    parser.add_argument("-i", "--iters", type=int, default=default_iters)


def add_trace_arg(parser, *, with_short=True, default=0):
    names = ("-t", "--trace_size") if with_short else ("--trace_size",)
    parser.add_argument(*names, type=int, default=default)


def add_runtime_args(parser, *, with_io_sizes=False, with_benchmark=False):
    parser.add_argument("--xclbin", type=str, required=True)
    parser.add_argument("--instr", type=str, default="instr.txt")
    parser.add_argument("-k", "--kernel", type=str, default="MLIR_AIE")
    parser.add_argument("-v", "--verbosity", type=int, default=0)
    parser.add_argument("--verify", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--trace-file", type=str, default="trace.txt")
    parser.add_argument("--ddr-id", type=int, default=-1)
    parser.add_argument("--enable-ctrl-pkts", action="store_true")
    add_trace_arg(parser)
    if with_io_sizes:
        parser.add_argument("--in1-size", type=int, default=0)
        parser.add_argument("--in2-size", type=int, default=0)
        parser.add_argument("--out-size", type=int, default=0)
    if with_benchmark:
        add_benchmark_args(parser)


def device_from_args(opts, *, n_cols=None, default=None, **_):
    """The device for opts.dev (npu: NPU1, npu2: NPU2, with n_cols columns when given)."""
    from ...iron.device import device_for, get_current_device
    dev = getattr(opts, "dev", None) or default
    if dev is None:
        return get_current_device()
    family = {"npu": "npu1", "npu1": "npu1", "npu2": "npu2"}.get(dev)
    if family is None:
        raise ValueError(f"device_from_args: unknown device family '{dev}' (npu, npu2)")
    cols = n_cols(opts) if callable(n_cols) else n_cols
    return device_for(f"{family}_{int(cols)}col" if cols else family)
