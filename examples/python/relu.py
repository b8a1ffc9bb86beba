# E13 ml/eltwise_unary relu as an IRON Python design: b = max(a, 0) in bfloat16, one worker per
# column and shim channel of the device (aie.iron.algorithms.transform_parallel, num_channels=2),
# 1024-element tiles. Golden: exact max(x, 0). The C++ twin: npusim run relu.
import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.iron import CompileTime, In, Out, kernels
from aie.iron.algorithms import transform_parallel
from aie.utils.verify import assert_pass


@iron.jit
def relu(a: In, b: Out, *, size: CompileTime[int] = 65536, num_channels: CompileTime[int] = 2):
    return transform_parallel(kernels.relu(tile_size=1024), np.ndarray[(size,), np.dtype[bfloat16]],
                              tile_size=1024, num_channels=num_channels)


def main(size=65536):
    x = np.random.default_rng(0).uniform(-3.0, 3.0, size).astype(bfloat16)
    y = np.zeros_like(x)
    run = relu(x, y, size=size)
    assert_pass(y.astype(np.float32), np.maximum(x.astype(np.float32), 0), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
