# basic/dma_padding as an IRON Python design: shim -> mem tile -> shim, the mem tile's MM2S padding
# each object of `real` elements with `before` pad elements in front and `after` behind, all equal
# to pad_value (npu2 has a pad value register; npu1 pads with zeros only). Three ways to write the
# mem-tile stage, chosen by `api`:
#   forward - of_in.cons().forward(obj_type=padded, dims_to_stream, pad_dimensions, pad_value)
#   split   - a split with one output, pad_value given per output
#   link    - the padded fifo built directly and linked to the input with ObjectFifoLink
# `count` objects go through one after the other (upstream moves one).
# Golden: each object k becomes [pad] * before + a[k] + [pad] * after.
# The C++ twin: npusim run dma_padding --param api=forward|split|link.
import argparse

import numpy as np

import aie.iron as iron
from aie.iron import CompileTime, In, ObjectFifo, Out, Program, Runtime
from aie.iron.dataflow import ObjectFifoLink
from aie.utils.verify import assert_pass

APIS = ("forward", "split", "link")


@iron.jit
def dma_padding(a: In, c: Out, *, api: CompileTime[str] = "forward", real: CompileTime[int] = 8,
                before: CompileTime[int] = 4, after: CompileTime[int] = 4, pad_value: CompileTime[int] = 0):
    dtype = a.dtype
    count = a.numel() // real
    region = before + real + after
    obj_ty = np.ndarray[(real,), np.dtype[dtype]]
    padded_ty = np.ndarray[(region,), np.dtype[dtype]]
    stream = [(real, 1)]
    pads = [(before, after)]

    of_in = ObjectFifo(obj_ty, name="in")
    if api == "forward":
        of_out = of_in.cons().forward(obj_type=padded_ty, dims_to_stream=stream, pad_dimensions=pads,
                                      pad_value=pad_value, name="out")
    elif api == "split":
        (of_out,) = of_in.cons().split([0], obj_types=[padded_ty], dims_to_stream=[stream],
                                       pad_dimensions=[pads], pad_value=[pad_value], names=["out"])
    elif api == "link":
        of_out = ObjectFifo(padded_ty, name="out", dims_to_stream=stream, pad_dimensions=pads, pad_value=pad_value)
        ObjectFifoLink(of_in.cons(), of_out.prod())
    else:
        raise ValueError(f"api must be one of {APIS}")

    def sequence(src, dst, in_h, out_h):
        in_h.fill(src)
        out_h.drain(dst, wait=True)

    rt = Runtime(sequence, [np.ndarray[(count * real,), np.dtype[dtype]],
                            np.ndarray[(count * region,), np.dtype[dtype]], of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt).resolve_program()


def golden(a, real, before, after, pad_value):
    objs = a.reshape(-1, real)
    fill = lambda n: np.full((objs.shape[0], n), pad_value, dtype=a.dtype)
    return np.concatenate([fill(before), objs, fill(after)], axis=1).reshape(-1)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--api", choices=APIS, default="forward")
    p.add_argument("--dtype", choices=("int32", "int8"), default="int32")
    p.add_argument("--pad", type=int, default=0)
    p.add_argument("--count", type=int, default=4)
    opts = p.parse_args(argv)
    real, before, after = 8, 4, 4
    a = iron.arange(opts.count * real, dtype=np.dtype(opts.dtype))
    c = iron.zeros(opts.count * (before + real + after), dtype=np.dtype(opts.dtype))
    run = dma_padding(a, c, api=opts.api, real=real, before=before, after=after, pad_value=opts.pad)
    assert_pass(c.numpy(), golden(a.numpy(), real, before, after, opts.pad), print_pass=False)
    print(f"PASS! {run.cycles} cycles")
    return run


if __name__ == "__main__":
    main()
