"""aie.iron.algorithms: transform and transform_binary (IRON python/iron/algorithms/_transform.py):
a single-worker design applying a kernel, or a Python function element by element, tile by tile;
transform_parallel and transform_parallel_binary: the same with one worker per column (and channel).
Fifos in0.., out and param<i> (one per tensor parameter, acquired once per pass); the runtime
arguments are the inputs, the output, then the tensor parameters. The conv-pipeline body templates
(row_at_a_time, row_at_a_time_with_skip, row_at_a_time_tiled, sliding_3row) are conv_pipeline.py's."""
import numpy as np

from .._types import is_tensor_type, tensor_type
from .controlflow import range_
from .conv_pipeline import row_at_a_time, row_at_a_time_tiled, row_at_a_time_with_skip, sliding_3row  # noqa: F401
from .dataflow import ObjectFifo
from .device import get_current_device
from .kernel import ExternalFunction, _KernelBase
from .program import Program
from .runtime import Runtime
from .worker import Worker


def _split_params(params):
    """Tensor parameters get a fifo param<i> (acquired once per pass); the others are constants."""
    param_types, param_fifos, consts = [], [], {}
    for i, p in enumerate(params):
        if is_tensor_type(p):
            param_types.append(p)
            param_fifos.append((i, ObjectFifo(p, name=f"param{i}")))
        else:
            consts[i] = p
    return param_types, param_fifos, consts


def _tile_body(func, is_kernel, n_inputs, params, param_fifos, consts, tiles, tile_size, size_args):
    """The worker body: hold the parameters for the pass, then per tile apply the kernel (with
    size_args after the parameters) or the Python function element by element. Its arguments are
    the input handles, the parameter handles, the output handle (and, for a kernel, maybe more)."""
    n_pf = len(param_fifos)

    def core_body(*args):
        ins, pf, out = args[:n_inputs], args[n_inputs:n_inputs + n_pf], args[n_inputs + n_pf]
        held = {i: h.acquire(1) for (i, _), h in zip(param_fifos, pf)}
        call_params = [held[i] if i in held else consts[i] for i in range(len(params))]
        for _ in range_(tiles):
            e_ins = [h.acquire(1) for h in ins]
            e_out = out.acquire(1)
            if is_kernel:
                func(*e_ins, e_out, *call_params, *size_args)
            else:
                for j in range_(tile_size):
                    e_out[j] = func(*[e[j] for e in e_ins])
            for h in ins:
                h.release(1)
            out.release(1)
        for h in pf:
            h.release(1)

    return core_body


def _transform(func, n_inputs, tensor_ty, params, tile_size, trace_size):
    t = tensor_type(tensor_ty)
    elements = t.elements
    if elements % tile_size:
        raise ValueError(f"Number of elements ({elements}) must be a multiple of tile size ({tile_size})")
    from .._types import numpy_dtype
    dtype = numpy_dtype(t.dtype).type
    vec_ty = np.ndarray[(elements,), np.dtype[dtype]]
    tile_ty = np.ndarray[(tile_size,), np.dtype[dtype]]
    is_kernel = isinstance(func, _KernelBase)
    of_ins = [ObjectFifo(tile_ty, name=f"in{i}") for i in range(n_inputs)]
    of_out = ObjectFifo(tile_ty, name="out")
    param_types, param_fifos, consts = _split_params(params)
    tiles = elements // tile_size

    core_body = _tile_body(func, is_kernel, n_inputs, params, param_fifos, consts, tiles, tile_size, [tile_size])

    fn_args = [f.cons() for f in of_ins] + [f.cons() for _, f in param_fifos] + [of_out.prod()]
    if is_kernel:
        body = core_body
    else:
        def body(*a):  # the function is not a worker argument
            core_body(*a)
    worker = Worker(body, fn_args, trace=trace_size > 0)

    def sequence(*a):
        n_p = len(param_types)
        ins, out, ps = a[:n_inputs], a[n_inputs], a[n_inputs + 1:n_inputs + 1 + n_p]
        rest = a[n_inputs + 1 + n_p:]
        for h, x in zip(rest[:n_inputs], ins):
            h.fill(x)
        for h, x in zip(rest[n_inputs + 1:], ps):
            h.fill(x)
        rest[n_inputs].drain(out, wait=True)

    rt = Runtime(sequence, [vec_ty] * (n_inputs + 1) + param_types + [f.prod() for f in of_ins] + [of_out.cons()]
                 + [f.prod() for _, f in param_fifos])
    prog = Program(get_current_device(), rt, workers=[worker])
    if trace_size > 0:
        prog.enable_trace(trace_size)
    return prog.resolve_program()


def transform(func, tensor_ty, *params, tile_size=16, trace_size=0):
    return _transform(func, 1, tensor_ty, params, tile_size, trace_size)


def transform_binary(func, tensor_ty, tile_size=16, trace_size=0):
    return _transform(func, 2, tensor_ty, (), tile_size, trace_size)


def _transform_parallel(func, n_inputs, tensor_ty, params, tile_size, trace_size, num_channels,
                        pass_size_to_kernel):
    """IRON's parallel transform (algorithms/_transform.py _transform_parallel_gen): one worker per
    (column, channel) of the current device, each on its own contiguous share of the tensors (fifos
    in<i>_<col>[_<chan>], out_<col>[_<chan>]); tensor parameters go through one fifo param<i> that every
    worker consumes; the shares move in TaskGroups."""
    from .runtime import TaskGroup
    from ..helpers.taplib import TensorAccessPattern
    if num_channels not in (1, 2):
        raise ValueError(f"num_channels must be 1 or 2, got {num_channels}")
    if num_channels > 1 and params:
        raise ValueError("num_channels=2 is not supported together with shared *params; use num_channels=1 instead.")
    t = tensor_type(tensor_ty)
    elements = t.elements
    from .._types import numpy_dtype
    dtype = numpy_dtype(t.dtype).type
    device = get_current_device()
    cols = device.cols
    step = tile_size * cols * num_channels
    if elements % step:
        raise ValueError(f"Number of elements ({elements}) must be a multiple of tile_size × num_columns × "
                         f"num_channels ({tile_size} × {cols} × {num_channels} = {step}).")
    is_kernel = isinstance(func, _KernelBase)
    vec_ty = np.ndarray[(elements,), np.dtype[dtype]]
    tile_ty = np.ndarray[(tile_size,), np.dtype[dtype]]
    lanes = [(c, k) for c in range(cols) for k in range(num_channels)]

    def suffix(c, k):
        return f"{c}" if num_channels == 1 else f"{c}_{k}"

    of_ins = [[ObjectFifo(tile_ty, name=f"in{i}_{suffix(c, k)}") for c, k in lanes] for i in range(n_inputs)]
    of_outs = [ObjectFifo(tile_ty, name=f"out_{suffix(c, k)}") for c, k in lanes]
    param_types, param_fifos, consts = _split_params(params)
    tiles = elements // step

    core_body = _tile_body(func, is_kernel, n_inputs, params, param_fifos, consts, tiles, tile_size,
                           [tile_size] if pass_size_to_kernel else [])

    def body(*a):  # a callable func is not a worker argument
        core_body(*a)

    workers = [Worker(core_body if is_kernel else body,
                      [of_ins[i][w].cons() for i in range(n_inputs)] + [f.cons() for _, f in param_fifos]
                      + [of_outs[w].prod()] + ([func] if is_kernel else []), trace=trace_size > 0)
               for w in range(len(lanes))]
    share = elements // len(lanes)
    taps = [TensorAccessPattern((1, elements), share * w, [1, 1, 1, share], [0, 0, 0, 1]) for w in range(len(lanes))]

    def sequence(*a):
        n_p = len(param_types)
        ins, out, ps = a[:n_inputs], a[n_inputs], a[n_inputs + 1:n_inputs + 1 + n_p]
        rest = list(a[n_inputs + 1 + n_p:])
        in_prods = [rest[i * len(lanes):(i + 1) * len(lanes)] for i in range(n_inputs)]
        out_cons = rest[n_inputs * len(lanes):(n_inputs + 1) * len(lanes)]
        param_prods = rest[(n_inputs + 1) * len(lanes):]
        tg_in = TaskGroup()
        for w in range(len(lanes)):
            for i in range(n_inputs):
                in_prods[i][w].fill(ins[i], taps[w], group=tg_in)
        tg_in.finish()
        for h, x in zip(param_prods, ps):
            h.fill(x)
        tg_out = TaskGroup()
        for w in range(len(lanes)):
            out_cons[w].drain(out, taps[w], wait=True, group=tg_out)
        tg_out.finish()

    handles = ([f.prod() for fifos in of_ins for f in fifos] + [f.cons() for f in of_outs]
               + [f.prod() for _, f in param_fifos])
    rt = Runtime(sequence, [vec_ty] * (n_inputs + 1) + param_types + handles)
    prog = Program(device, rt, workers=workers)
    if trace_size > 0:
        prog.enable_trace(trace_size)
    return prog.resolve_program()


def transform_parallel(func, tensor_ty, *params, tile_size=16, trace_size=0, num_channels=1,
                       pass_size_to_kernel=True):
    return _transform_parallel(func, 1, tensor_ty, params, tile_size, trace_size, num_channels, pass_size_to_kernel)


def transform_parallel_binary(func, tensor_ty, tile_size=16, trace_size=0, num_channels=1, pass_size_to_kernel=True):
    return _transform_parallel(func, 2, tensor_ty, (), tile_size, trace_size, num_channels, pass_size_to_kernel)


def reduce(func, input_ty, output_ty, *, trace_size=0):
    """IRON algorithms.reduce (algorithms/reduce.py): one worker hands the whole input to the kernel
    in a single call, kernel(input, output, input_elements); fifos in and out."""
    if not isinstance(func, _KernelBase):
        raise TypeError("reduce requires a kernel (an ExternalFunction or an aie.iron.kernels factory's); a "
                        "reduction keeps an accumulator across the elements, which an element-wise function cannot")
    elements = tensor_type(input_ty).elements
    of_in, of_out = ObjectFifo(input_ty, name="in"), ObjectFifo(output_ty, name="out")

    def core_body(of_in, of_out, kernel):
        e_out = of_out.acquire(1)
        e_in = of_in.acquire(1)
        kernel(e_in, e_out, elements)
        of_in.release(1)
        of_out.release(1)

    worker = Worker(core_body, [of_in.cons(), of_out.prod(), func], trace=trace_size > 0)

    def sequence(a_in, c_out, in_h, out_h):
        in_h.fill(a_in)
        out_h.drain(c_out, wait=True)

    prog = Program(get_current_device(), Runtime(sequence, [input_ty, output_ty, of_in.prod(), of_out.cons()]),
                   workers=[worker])
    if trace_size > 0:
        prog.enable_trace(trace_size)
    return prog.resolve_program()


def for_each(func, tensor_ty, tile_size=16):
    """IRON algorithms.for_each (algorithms/for_each.py): the tensor transformed in place, tile by
    tile, by a kernel (in_tile, out_tile, tile_size) or a Python function element by element: fifos
    in and out, both filled from and drained into the one runtime tensor."""
    try:
        t = tensor_type(tensor_ty)
    except TypeError as exc:
        raise TypeError(f"for_each expects a numpy ndarray type such as np.ndarray[(N,), np.dtype[np.int32]], "
                        f"got {tensor_ty!r}") from exc
    elements = t.elements
    if elements % tile_size:
        raise ValueError(f"Number of elements ({elements}) must be a multiple of tile size ({tile_size})")
    is_kernel = isinstance(func, _KernelBase)
    if isinstance(func, ExternalFunction) and func.tile_size() != tile_size:
        raise ValueError(f"tile_size ({tile_size}) does not match ExternalFunction's input/output shape in arg_type")
    from .._types import numpy_dtype
    dtype = numpy_dtype(t.dtype).type
    vec_ty = np.ndarray[(elements,), np.dtype[dtype]]
    tile_ty = np.ndarray[(tile_size,), np.dtype[dtype]]
    of_in, of_out = ObjectFifo(tile_ty, name="in"), ObjectFifo(tile_ty, name="out")
    core_body = _tile_body(func, is_kernel, 1, (), [], {}, elements // tile_size, tile_size, [tile_size])
    fn_args = [of_in.cons(), of_out.prod()]
    if is_kernel:
        worker = Worker(lambda i, o, k: core_body(i, o), fn_args + [func])
    else:
        worker = Worker(lambda i, o: core_body(i, o), fn_args)

    def sequence(tensor, in_h, out_h):
        in_h.fill(tensor)
        out_h.drain(tensor, wait=True)

    rt = Runtime(sequence, [vec_ty, of_in.prod(), of_out.cons()])
    return Program(get_current_device(), rt, workers=[worker]).resolve_program()


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"aie.iron.algorithms.{name} is not supported by npusim")
