# E5's split/join variant (vector_reduce_max_memtile) as an IRON Python design: the max of an int32
# vector on 4 cores. The mem tile splits each 2048-element object of `of_in` into four quarters
# (memA0..3); worker i keeps a running max of its quarters in a Buffer (reduce_max over the quarter
# into tmp_i, compute_max into nextC_i), writes it into its element of memC_i, and the mem tile joins
# the four into `outC`, which worker 0 reduces once more into `of_out`.
# Golden: [a.max()]. The C++ twin: npusim run vector_reduce_max_memtile.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import Buffer, In, ObjectFifo, Out, Program, Runtime, Worker, kernels
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass

N_CORES = 4
MEM_ELEMS = 2048  # elements per of_in object


@iron.jit
def vector_reduce_max(a_in: In, c_out: Out):
    size = a_in.numel()
    per_core = MEM_ELEMS // N_CORES
    num_iter = size // MEM_ELEMS
    i32 = np.dtype[np.int32]
    in_ty, mem_ty = np.ndarray[(size,), i32], np.ndarray[(MEM_ELEMS,), i32]
    op_ty, out_ty, int_ty = np.ndarray[(per_core,), i32], np.ndarray[(1,), i32], np.ndarray[(N_CORES,), i32]

    of_in = ObjectFifo(mem_ty, name="of_in")
    in_fifos = of_in.cons().split([per_core * i for i in range(N_CORES)], obj_types=[op_ty] * N_CORES,
                                  names=[f"memA{i}" for i in range(N_CORES)])
    outC = ObjectFifo(int_ty, name="outC", dims_to_stream=[(1, 2), (1, 1)])
    out_fifos = outC.prod().join(list(range(N_CORES)), obj_types=[out_ty] * N_CORES,
                                 names=[f"memC{i}" for i in range(N_CORES)])
    of_out = ObjectFifo(out_ty, name="of_out")

    reduce_max_vector = kernels.reduce_max(tile_size=per_core, dtype=np.int32, vectorized=True)
    reduce_max_scalar = kernels.reduce_max(tile_size=N_CORES, dtype=np.int32, vectorized=False)
    compute_max = kernels.compute_max(dtype=np.int32)
    min_val = np.array([np.iinfo(np.int32).min], dtype=np.int32)
    nextC = [Buffer(type=out_ty, initial_value=min_val, name=f"nextC_{i}") for i in range(N_CORES)]
    tmp = [Buffer(type=out_ty, initial_value=min_val, name=f"tmp_{i}") for i in range(N_CORES)]

    def partial(of_a, of_c, vector_max, combine, next_c, tmp_c):
        elem_out = of_c.acquire(1)
        for _ in range_(num_iter):
            elem_in = of_a.acquire(1)
            vector_max(elem_in, tmp_c, per_core)
            combine(tmp_c, next_c, next_c)
            of_a.release(1)
        elem_out[0] = next_c[0]
        of_c.release(1)

    def last_core(of_a, of_c, joined, out, vector_max, scalar_max, combine, next_c, tmp_c):
        partial(of_a, of_c, vector_max, combine, next_c, tmp_c)
        elem_out = out.acquire(1)
        elem_in = joined.acquire(1)
        scalar_max(elem_in, elem_out, N_CORES)
        joined.release(1)
        out.release(1)

    workers = [Worker(last_core, [in_fifos[0].cons(), out_fifos[0].prod(), outC.cons(), of_out.prod(),
                                  reduce_max_vector, reduce_max_scalar, compute_max, nextC[0], tmp[0]])]
    for i in range(1, N_CORES):
        workers.append(Worker(partial, [in_fifos[i].cons(), out_fifos[i].prod(), reduce_max_vector, compute_max,
                                        nextC[i], tmp[i]]))

    def sequence(a, c, in_h, out_h):
        in_h.fill(a)
        out_h.drain(c, wait=True)

    rt = Runtime(sequence, [in_ty, out_ty, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=131072)
    opts = p.parse_args(argv)
    a = np.random.default_rng(0).integers(-1000, 1000, opts.size, dtype=np.int32)
    c = np.zeros(1, dtype=np.int32)
    run = vector_reduce_max(a, c)
    assert_pass(c, np.array([a.max()], dtype=np.int32), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
