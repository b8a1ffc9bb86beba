"""npusim.depth(program, inputs): per fifo endpoint with buffers of its own, the smallest depth at which
the design runs without deadlock and gives the outputs of its resolved depths, and the cycles at
depths 1..k (what `npusim depth DESIGN` reports for a registered C++ design, docs/depth.md)."""
import numpy as np

from . import _errors


def depth(program, inputs, max_depth=4):
    from . import simulate
    from .iron.program import Program
    prog = program if not isinstance(program, Program) else (program._resolved or program.resolve_program())
    base_inputs = [np.array(x.numpy() if hasattr(x, "numpy") else x, copy=True) for x in inputs]
    baseline = simulate(prog, [a.copy() for a in base_inputs])
    rows = []
    for end in prog._native.fifo_ends():
        if not end["owns_buffers"]:
            continue
        row = dict(end)
        row["by_depth"] = {}
        top = max(int(max_depth), end["depth"])
        for d in range(1, top + 1):
            try:
                run = simulate(prog, [a.copy() for a in base_inputs], depths=[(end["fifo"], end["consumer"], d)])
                same = all(np.array_equal(x, y) for x, y in zip(run.outputs, baseline.outputs))
                row["by_depth"][d] = ("ok" if same else "mismatch", run.cycles)
            except _errors.DeadlockError:
                row["by_depth"][d] = ("deadlock", None)
            except _errors.LimitError:
                row["by_depth"][d] = ("limit", None)
            except _errors.DesignError as e:
                row["by_depth"][d] = ("design error: " + str(e).split(": ", 1)[-1], None)
        ok = [d for d, (s, _) in row["by_depth"].items() if s == "ok"]
        row["min_depth"] = min(ok) if ok else None
        rows.append(row)
    return rows


def format_depth(rows):
    lines = []
    for r in rows:
        cells = ", ".join(f"{d}: {c if c is not None else s}" for d, (s, c) in sorted(r["by_depth"].items()))
        lines.append(f"{r['end']}: resolved depth {r['depth']}, min depth {r['min_depth']} ({cells})")
    return "\n".join(lines)
