"""python3 -m npusim [--device D] [--trace F] [--vcd F] [--html F] [--json F] [--max-cycles N] FILE|-m MODULE [ARGS...]

Runs an IRON design file unchanged on the simulator: IRON's `aie.*` module names are served by npusim
in this process (npusim._hook). `-m MODULE` runs a module of a package as `python3 -m MODULE` does
(the working directory first on sys.path; mlir-aie's ml/mobilenet designs run so, for their
package-relative imports). Exit codes as `npusim run`: 2 design error, 3 deadlock, 4 limit."""
import os
import runpy
import sys
import traceback


def _usage(msg=None):
    if msg:
        print(f"npusim python: {msg}", file=sys.stderr)
    print(__doc__.strip().splitlines()[0], file=sys.stderr)
    return 2


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = {}
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        if flag in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        key = flag[2:]
        if key == "depth":  # npusim depth FILE.py: a depth analysis of each simulated run
            opts["depth"] = True
            continue
        if "=" in key:
            key, value = key.split("=", 1)
        else:
            if not argv:
                return _usage(f"{flag} needs a value")
            value = argv.pop(0)
        if key not in ("device", "trace", "vcd", "json", "max-cycles", "html", "max-depth"):
            return _usage(f"unknown option {flag}")
        opts[key] = value
    if not argv:
        return _usage("no design file given")
    module = None
    if argv[0] == "-m":
        if len(argv) < 2:
            return _usage("-m needs a module name")
        module, argv = argv[1], argv[1:]
    path = argv[0]
    if module is None and not os.path.isfile(path):
        return _usage(f"no such file: {path}")
    if "device" in opts:
        os.environ["NPUSIM_DEVICE"] = opts["device"]
    import npusim
    from npusim.iron import device as _device
    try:
        _device.set_current_device(opts.get("device", os.environ.get("NPUSIM_DEVICE", "npu2")))
    except npusim.DesignError as e:
        return _usage(str(e))
    npusim.options.update({"trace": opts.get("trace", ""), "vcd": opts.get("vcd", ""), "html": opts.get("html", ""),
                           "json": opts.get("json", ""),
                           "max_cycles": int(opts.get("max-cycles", 0)), "depth": bool(opts.get("depth")),
                           "max_depth": int(opts.get("max-depth", 4))})
    npusim.install_import_hook()
    sys.argv = argv
    try:
        if module is not None:
            sys.path.insert(0, os.getcwd())
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            runpy.run_path(path, run_name="__main__")
    except npusim.SimulationError as e:
        print(f"npusim: {type(e).__name__}: {e}", file=sys.stderr)
        return getattr(e, "exit_code", 5)
    except npusim.DesignError as e:
        print(f"npusim: DesignError: {e}", file=sys.stderr)
        return 2
    except NotImplementedError as e:
        traceback.print_exc()
        print(f"npusim: unsupported: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)  # sys.exit("message"), as the interpreter would print it
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
