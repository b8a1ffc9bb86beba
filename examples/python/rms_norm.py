# ml/norm with op=rms as an IRON Python design: a row-wise RMSNorm of a sequence_length x
# embedding_dim bf16 matrix, out = x / sqrt(mean(x^2) + 1e-5) (gamma 1). NPU2 only, as the kernel
# exists for aie2p only. Eight workers; worker i owns rows [i * r, (i + 1) * r), r = sequence_length
# / 8, which reach it one row per object through in_i and leave through out_i. The host access
# patterns are TensorTiler2D's simple tiles of r rows.
# The kernel is named by its compiled symbol, rms_norm(in, out, cols): npusim binds it to its
# reference kernel and cost model, those of the C++ twin (upstream compiles aie2p/rms_norm.cc with an
# ExternalFunction; npusim can compile that source too, but a source compiled at run time has no
# cost model of its own and would not give the twin's cycles).
# Golden: float32 sqrt(sum(x^2) / cols + eps), x / rms rounded to bf16; assert_pass(atol=0.05).
# The C++ twin: npusim run rms_norm --device npu2.
import argparse

import numpy as np
from ml_dtypes import bfloat16

import aie.iron as iron
from aie.helpers.taplib import TensorTiler2D
from aie.iron import CompileTime, In, Kernel, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_
from aie.utils.verify import assert_pass

CORES = 8
LANES = 16  # the kernel reduces one 16-lane vector at a time


@iron.jit
def rms_norm(x: In, y: Out, *, sequence_length: CompileTime[int] = 64, embedding_dim: CompileTime[int] = 4096):
    if sequence_length % CORES or embedding_dim % LANES:
        raise ValueError(f"sequence_length must be a multiple of {CORES}, embedding_dim of {LANES}")
    rows = sequence_length // CORES
    matrix_ty = np.ndarray[(sequence_length, embedding_dim), np.dtype[bfloat16]]
    row_ty = np.ndarray[(embedding_dim,), np.dtype[bfloat16]]

    norm = Kernel("rms_norm", "rms_norm.o", [row_ty, row_ty, np.int32])
    ins = [ObjectFifo(row_ty, name=f"in_{i}") for i in range(CORES)]
    outs = [ObjectFifo(row_ty, name=f"out_{i}") for i in range(CORES)]

    def body(src, dst, kernel):
        for _ in range_(rows):
            a = src.acquire(1)
            b = dst.acquire(1)
            kernel(a, b, embedding_dim)
            src.release(1)
            dst.release(1)

    workers = [Worker(body, [ins[i].cons(), outs[i].prod(), norm]) for i in range(CORES)]
    blocks = TensorTiler2D.simple_tiler((sequence_length, embedding_dim), (rows, embedding_dim))

    def sequence(src, dst, fills, drains):
        for i in range(CORES):
            fills[i].fill(src, blocks[i])
        for i in range(CORES):
            drains[i].drain(dst, blocks[i], wait=True)

    rt = Runtime(sequence, [matrix_ty, matrix_ty, [f.prod() for f in ins], [f.cons() for f in outs]])
    return Program(iron.get_current_device(), rt, workers=workers).resolve_program()


def golden(x):
    x32 = x.astype(np.float32)
    rms = np.sqrt(np.sum(x32 * x32, axis=1) / x32.shape[1] + np.float32(1e-5))
    return (x32 / rms[:, None]).astype(bfloat16)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("-s", "--sequence_length", type=int, default=64)
    p.add_argument("-e", "--embedding_dim", type=int, default=4096)
    opts = p.parse_args(argv)
    shape = (opts.sequence_length, opts.embedding_dim)
    x = np.random.default_rng(0).uniform(-1.0, 1.0, shape).astype(bfloat16)
    xt = iron.tensor(x)
    yt = iron.zeros_like(xt)
    run = rms_norm(xt, yt, sequence_length=shape[0], embedding_dim=shape[1])
    assert_pass(yt.numpy().reshape(shape), golden(x), atol=0.05, print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
