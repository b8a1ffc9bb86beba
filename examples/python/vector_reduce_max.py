# E5 vector_reduce_max as an IRON Python design: the max of an int32 vector on one core, the whole
# input one object, through aie.iron.algorithms.reduce with the reduce_max kernel. Golden: a.max().
# The C++ twin: npusim run vector_reduce_max.
import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, Out, kernels
from aie.iron.algorithms import reduce
from aie.utils.verify import assert_pass


@iron.jit
def vector_reduce_max(a_in: In, c_out: Out, *, num_elements: CompileTime[int] = 2048,
                      dtype: CompileTime[type] = np.int32):
    in_ty = np.ndarray[(num_elements,), np.dtype[dtype]]
    out_ty = np.ndarray[(1,), np.dtype[dtype]]
    return reduce(kernels.reduce_max(tile_size=num_elements, dtype=dtype), in_ty, out_ty)


def main():
    a = np.random.default_rng(0).integers(-1000, 1000, 2048, dtype=np.int32)
    c = np.zeros(1, dtype=np.int32)
    run = vector_reduce_max(a, c, num_elements=2048)
    assert_pass(c, np.array([a.max()], dtype=np.int32), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
