# E13 ml/softmax as an IRON Python design: the bf16 softmax of each 1024-element tile, one worker per
# column and shim channel of the device (aie.iron.algorithms.transform_parallel, num_channels=2).
# Golden: per-tile softmax in float32, rtol 0.128. The C++ twin: npusim run softmax.
import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.iron import CompileTime, In, Out, kernels
from aie.iron.algorithms import transform_parallel
from aie.utils.verify import assert_close


@iron.jit
def softmax(a: In, b: Out, *, size: CompileTime[int] = 262144, num_channels: CompileTime[int] = 2):
    return transform_parallel(kernels.softmax(tile_size=1024), np.ndarray[(size,), np.dtype[bfloat16]],
                              tile_size=1024, num_channels=num_channels)


def golden(x):
    t = x.astype(np.float32).reshape(-1, 1024)
    e = np.exp(t - t.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(-1)


def main(size=262144):
    x = np.random.default_rng(0).uniform(-4.0, 8.0, size).astype(bfloat16)
    y = np.zeros_like(x)
    run = softmax(x, y, size=size)
    assert_close(y.astype(np.float32), golden(x), rtol=0.128)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
