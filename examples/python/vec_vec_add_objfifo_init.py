# vector_vector_add with init values as an IRON Python design: c = in1 + b, where in1 =
# arange(1, N + 1) is not sent by the host but is the init_values of a fifo whose producer end sits
# on a mem tile (one object of N elements). b comes from the host in objects of n; the worker holds
# in1 for the whole pass and adds it to b slice by slice, element by element in its body.
# Golden: arange(1, N + 1) + b with int32 wraparound.
# The C++ twin: npusim run vec_vec_add_objfifo_init.
import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.iron.dataflow import ObjectFifoEndpoint
from aie.iron.device import AnyMemTile
from aie.utils.verify import assert_pass


@iron.jit
def vec_vec_add_objfifo_init(b: In, c: Out, *, n: CompileTime[int] = 16):
    N = b.numel()
    if N % n:
        raise ValueError(f"n={n} must divide N={N}")
    all_ty = np.ndarray[(N,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(n,), np.dtype[np.int32]]

    of_in1 = ObjectFifo(all_ty, depth=1, name="in1", init_values=[np.arange(1, N + 1, dtype=np.int32)])
    # the producer end sits on a mem tile, which holds the initial object: no host transfer
    of_in1.prod().endpoint = ObjectFifoEndpoint(AnyMemTile)
    of_in2 = ObjectFifo(tile_ty, name="in2")
    of_out = ObjectFifo(tile_ty, name="out")

    def add(in1, in2, out):
        x = in1.acquire(1)
        for j in range_(N // n):
            y = in2.acquire(1)
            z = out.acquire(1)
            for i in range_(n):
                z[i] = x[j * n + i] + y[i]
            in2.release(1)
            out.release(1)
        in1.release(1)

    worker = Worker(add, [of_in1.cons(), of_in2.cons(), of_out.prod()])

    def sequence(b_in, c_out, h2, ho):
        h2.fill(b_in)
        ho.drain(c_out, wait=True)

    rt = Runtime(sequence, [all_ty, all_ty, of_in2.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    b = iron.tensor(np.random.default_rng(3).integers(0, 10**6, 256, dtype=np.int32))
    c = iron.zeros(256, dtype=np.int32)
    run = vec_vec_add_objfifo_init(b, c)
    assert_pass(c.numpy(), b.numpy() + np.arange(1, 257, dtype=np.int32), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
