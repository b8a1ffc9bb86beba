"""aie.utils.trace.utils."""


def print_cycles_summary(*_, **__):
    raise NotImplementedError("aie.utils.trace.utils.print_cycles_summary is not supported by npusim "
                              "(use npusim python --json FILE for the per-core cycles)")
