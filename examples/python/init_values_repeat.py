# A mem tile sending its initial object several times, as an IRON Python design: fifo `in` has one
# object, arange(1, N + 1), given as init_values; its producer end is a mem tile (no host transfer)
# and repeat_count has that tile send the object `repeat` times. A worker copies each object it
# receives to `out`, element by element, and the host drains N * repeat elements.
# Golden: arange(1, N + 1) tiled `repeat` times.
# The C++ twin: npusim run init_values_repeat.
import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.dataflow import ObjectFifoEndpoint
from aie.iron.device import AnyMemTile
from aie.utils.verify import assert_pass


@iron.jit
def init_values_repeat(c: Out, *, N: CompileTime[int] = 4096, repeat: CompileTime[int] = 4):
    obj_ty = np.ndarray[(N,), np.dtype[np.int32]]
    out_ty = np.ndarray[(N * repeat,), np.dtype[np.int32]]

    of_in = ObjectFifo(obj_ty, depth=1, name="in", init_values=[np.arange(1, N + 1, dtype=np.int32)],
                       repeat_count=repeat)
    of_in.prod().endpoint = ObjectFifoEndpoint(AnyMemTile)
    of_out = ObjectFifo(obj_ty, depth=1, name="out")

    def copy(src, dst):
        x = src.acquire(1)
        y = dst.acquire(1)
        for i in range_(N):
            y[i] = x[i]
        dst.release(1)
        src.release(1)

    worker = Worker(copy, [of_in.cons(), of_out.prod()])

    def sequence(c_out, ho):
        ho.drain(c_out, wait=True)

    rt = Runtime(sequence, [out_ty, of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    N, repeat = 4096, 4
    c = iron.zeros(N * repeat, dtype=np.int32)
    run = init_values_repeat(c, N=N, repeat=repeat)
    assert_pass(c.numpy(), np.tile(np.arange(1, N + 1, dtype=np.int32), repeat), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
