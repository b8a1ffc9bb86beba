# E4 vector_vector_add as an IRON Python design: out = in0 + in1, computed by the worker body
# itself, element by element (no kernel). Golden: a + b with int32 wraparound.
# The C++ twin: npusim run vector_vector_add.
import numpy as np

import aie.iron as iron
from aie.iron import In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass


@iron.jit
def vector_vector_add(a: In, b: In, c: Out, *, tile: int = 16):
    size = a.numel()
    vec_ty = np.ndarray[(size,), np.dtype[np.int32]]
    tile_ty = np.ndarray[(tile,), np.dtype[np.int32]]

    of_in0 = ObjectFifo(tile_ty, name="in0")
    of_in1 = ObjectFifo(tile_ty, name="in1")
    of_out = ObjectFifo(tile_ty, name="out")

    def core_body(of_in0, of_in1, of_out):
        for _ in range_(size // tile):
            x = of_in0.acquire(1)
            y = of_in1.acquire(1)
            z = of_out.acquire(1)
            for i in range_(tile):
                z[i] = x[i] + y[i]
            of_in0.release(1)
            of_in1.release(1)
            of_out.release(1)

    worker = Worker(core_body, [of_in0.cons(), of_in1.cons(), of_out.prod()])

    def sequence(a_in, b_in, c_out, h0, h1, ho):
        h0.fill(a_in)
        h1.fill(b_in)
        ho.drain(c_out, wait=True)

    rt = Runtime(sequence, [vec_ty, vec_ty, vec_ty, of_in0.prod(), of_in1.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[worker]).resolve_program()


def main():
    rng = np.random.default_rng(1)
    a = iron.tensor(rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32))
    b = iron.tensor(rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32))
    c = iron.zeros(1024, dtype=np.int32)
    run = vector_vector_add(a, b, c)
    assert_pass(c.numpy(), (a.numpy().astype(np.int64) + b.numpy()).astype(np.int32), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
