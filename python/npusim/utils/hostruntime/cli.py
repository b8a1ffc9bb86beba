"""aie.utils.hostruntime.cli: run_design_cli, IRON's three-mode dispatcher (python/utils/hostruntime/cli.py).
Under npusim: --emit-mlir prints npusim's MLIR export of the design; the compile-only modes
(--xclbin-path, --full-elf-path) build and resolve the design, then say that compiling needs mlir-aie
and Peano; the run mode simulates."""
import sys


def _resolve(value, opts):
    return value(opts) if callable(value) else value


def run_design_cli(design, opts, *, compile_kwargs, run_and_verify=None, device=None, emit_mlir=None,
                   validate=None):
    from ...iron.device import set_current_device
    from .argparse import device_from_args

    if getattr(opts, "xclbin_path", None) is not None and not getattr(opts, "insts_path", None):
        sys.exit("--xclbin-path requires --insts-path (must be set together)")
    explicit_dev = getattr(opts, "dev", None) is not None
    if not explicit_dev and hasattr(opts, "dev") and (device is None or callable(device)):
        # IRON detects the attached NPU's family and writes it into opts.dev before calling a device
        # selector (cli.py _detect_runtime_target); the attached NPU here is the simulated device, which
        # stays `npusim python --device` unless a selector picks another.
        from ...iron.device import get_current_device
        opts.dev = "npu" if get_current_device()._arch == "aie2" else "npu2"
    if device is not None:
        set_current_device(_resolve(device, opts))
    elif explicit_dev:
        set_current_device(device_from_args(opts))
    if validate is not None:
        validate(opts)
    if getattr(opts, "emit_mlir", False):
        if emit_mlir is not None:
            emit_mlir(opts)
        else:
            print(design.specialize(**_resolve(compile_kwargs, opts)).as_mlir())
        return
    if getattr(opts, "xclbin_path", None) is not None or getattr(opts, "full_elf_path", None) is not None:
        # IRON builds the design here (the MLIR the compiler takes); npusim builds and resolves it too,
        # so that a design npusim cannot build fails as it would for the compiler, then says what it
        # cannot do
        if hasattr(design, "specialize"):
            design.specialize(**_resolve(compile_kwargs, opts)).resolve()
        sys.exit("npusim: the design builds and resolves; compiling it to an xclbin or ELF needs mlir-aie and the "
                 "Peano compiler, which npusim does not run; run the script without --xclbin-path/--full-elf-path "
                 "to simulate it, or print its MLIR with --emit-mlir (and see `npusim export --print-commands` for "
                 "the mlir-aie commands that build an exported design)")
    if run_and_verify is None:
        sys.exit("run_design_cli: no run_and_verify callback was provided — this design only supports the "
                 "compile-only path (pass --xclbin-path + --insts-path) or --emit-mlir.")
    run_and_verify(opts)
