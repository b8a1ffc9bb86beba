# The algorithms.transform tutorial as an IRON Python design: `lambda a: a + 1` applied to each
# 16-element tile of an int32 tensor by one worker (aie.iron.algorithms.transform builds the fifos,
# the worker and the runtime sequence). Golden: a + 1. The C++ twin: npusim run transform.
import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, Out
from aie.utils.verify import assert_pass


@iron.jit
def transform(input: In, output: Out, *, num_elements: CompileTime[int], dtype: CompileTime[type],
              tile_size: CompileTime[int] = 16):
    tensor_ty = np.ndarray[(num_elements,), np.dtype[dtype]]
    return iron.algorithms.transform(lambda a: a + 1, tensor_ty, tile_size=tile_size)


def main(num_elements=1024):
    a = iron.randint(0, 100, (num_elements,), dtype=np.int32)
    b = iron.zeros_like(a)
    run = transform(a, b, num_elements=num_elements, dtype=np.int32)
    assert_pass(b.numpy(), a.numpy() + 1, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
