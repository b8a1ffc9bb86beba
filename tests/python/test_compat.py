"""IRON names upstream programming_examples use beyond the design API: aie.iron.str_to_dtype /
dtype_to_str, aie.utils.verify.nearly_equal / count_mismatches, a jit function's _kernel_cache."""
import numpy as np
import pytest

import npusim.iron as iron
from npusim.iron.dtype import dtype_to_str, str_to_dtype
from npusim.utils.verify import count_mismatches, nearly_equal


def test_str_to_dtype_and_back():
    assert iron.str_to_dtype is str_to_dtype
    assert [str_to_dtype(s) for s in ("i8", "i16", "i32", "f32")] == [np.int8, np.int16, np.int32, np.float32]
    assert dtype_to_str(np.int16) == "i16" and dtype_to_str(np.dtype(np.float32)) == "f32"
    with pytest.raises(ValueError, match="Unrecognized dtype: q7"):
        str_to_dtype("q7")
    with pytest.raises(ValueError, match="Unrecognized dtype"):
        dtype_to_str(np.complex64)
    # bf16 is ml_dtypes' bfloat16 where installed, else npusim's own type of the same name
    from npusim._bfloat16 import bfloat16
    assert str_to_dtype("bf16") is bfloat16 and dtype_to_str(bfloat16) == "bf16"
    assert np.dtype(str_to_dtype("bf16")).name == "bfloat16"


def test_nearly_equal_and_count_mismatches():
    ref = np.array([1.0, 2.0, 100.0, 0.0, 5.0], np.float32)
    got = np.array([1.1, 2.0, 140.0, 0.0, 5.0], np.float32)
    # |1.1 - 1| = 0.1 < 0.128 * 2.1; |140 - 100| = 40 >= 0.128 * 240 = 30.7
    assert nearly_equal(got, ref).tolist() == [True, True, False, True, True]
    assert count_mismatches(got, ref) == (1, 5)
    assert count_mismatches(got, ref, rtol=0.2) == (0, 5)
    got[3] = np.inf
    assert count_mismatches(got, ref) == (1, 3)  # stops at the first non-finite value
    assert count_mismatches(got, ref, stop_at_nonfinite=False) == (2, 5)
    with pytest.raises(ValueError, match="same shape"):
        count_mismatches(got, ref[:4])


def test_assert_pass_compares_exactly_unless_given_a_tolerance():
    # IRON's assert_pass (verify.py:122-131): exact without rtol/atol, count_mismatches with them
    # (ml/softmax, ml/swiglu, ml/rope pass rtol=0.128 or atol; npusim compared them exactly)
    from npusim.utils.verify import assert_pass
    ref = np.array([1.0, 2.0, 100.0], np.float32)
    got = np.array([1.1, 2.0, 100.0], np.float32)
    assert_pass(got, ref, rtol=0.128, print_pass=False)
    with pytest.raises(AssertionError, match=r"1 of 3 values differ; first at 0"):
        assert_pass(got, ref, print_pass=False)
    with pytest.raises(AssertionError, match=r"1 of 3 values outside rtol=0.01, atol=None"):
        assert_pass(got, ref, rtol=0.01, print_pass=False)
    assert_pass(got, ref, atol=0.2, print_pass=False)  # rtol then defaults to 0.128


def test_assert_close_with_benchmark_picks_the_comparator_by_dtype_as_iron_does():
    # IRON's assert_close_with_benchmark (verify.py:138-205): integers exactly; floats with
    # count_mismatches at rtol 0.05, atol 0.5 (matmul single_core's bf16 / f32 outputs; npusim used
    # numpy's isclose at rtol 1e-5 there, which failed sums off by a few float ulps)
    from npusim.utils.verify import assert_close_with_benchmark
    ref = np.array([1119.8053, 2.0, 100.0], np.float32)
    assert_close_with_benchmark(np.array([1119.75, 2.0, 100.0], np.float32), ref, bench=None)
    with pytest.raises(AssertionError, match=r"A @ B: 1 of 3 values outside rtol=0.05, atol=0.5"):
        assert_close_with_benchmark(np.array([1300.0, 2.0, 100.0], np.float32), ref, bench=None, fail_msg="A @ B")
    assert_close_with_benchmark(np.array([5, 7], np.int32), np.array([5, 7], np.int32), bench=None)
    with pytest.raises(AssertionError, match=r"1 of 2 values differ; first at 1"):
        assert_close_with_benchmark(np.array([5, 8], np.int32), np.array([5, 7], np.int32), bench=None)


def test_a_jit_function_keeps_its_builds_in_kernel_cache():
    from npusim.iron.algorithms import transform

    @iron.jit
    def add_one(a: iron.In, b: iron.Out):
        return transform(lambda x: x + 1, np.ndarray[(32,), np.dtype[np.int32]])

    a, b = iron.arange(32, dtype=np.int32), iron.zeros(32, dtype=np.int32)
    add_one(a, b)
    assert len(add_one._kernel_cache) == 1
    add_one._kernel_cache.clear()  # as upstream inline_kernel does to rebuild
    add_one(a, b)
    assert len(add_one._kernel_cache) == 1 and np.array_equal(b.numpy(), a.numpy() + 1)


def test_unmodelled_names_of_served_modules_say_which(tmp_path):
    # `from M import X` of a name npusim does not model names it, as aie.iron's own do.
    import subprocess
    from conftest import CLI
    design = tmp_path / "d.py"
    for line, missing in [("from aie.iron.dataflow import ObjectFifoJoin", "aie.iron.dataflow.ObjectFifoJoin"),
                          ("from aie.helpers.taplib import TensorTiler3D", "aie.helpers.taplib.TensorTiler3D"),
                          # v8bfp16ebs8 is served (test_bfp16ebs8_names_...); the 16-value block type is not
                          ("from aie.dialects.aiex import v16bfp16ebs16", "aie.dialects.aiex.v16bfp16ebs16"),
                          # LockAction is served (test_resolvable.py); ObjectFifoPort is not
                          ("from aie.dialects._aie_enum_gen import ObjectFifoPort",
                           "aie.dialects._aie_enum_gen.ObjectFifoPort"),
                          ("import aie.extras.dialects.memref as m\nm.alloc", "aie.extras.dialects.memref.alloc")]:
        design.write_text(line + "\n")
        r = subprocess.run([CLI, "python", str(design)], capture_output=True, text=True, timeout=120)
        assert r.returncode != 0
        assert f"NotImplementedError: {missing} is not supported by npusim" in r.stderr, r.stderr


def test_transform_parallel_one_worker_per_column_and_channel():
    import npusim
    from npusim.iron.algorithms import transform_parallel, transform_parallel_binary
    from npusim.iron.device import NPU2Col1, NPU2Col2, set_current_device
    vec = np.ndarray[(256,), np.dtype[np.int32]]
    old = iron.get_current_device()
    try:
        set_current_device(NPU2Col2())
        a, b = np.arange(256, dtype=np.int32), np.arange(256, dtype=np.int32)[::-1].copy()
        out = np.zeros(256, np.int32)
        p = transform_parallel(lambda x: x * 3, vec, tile_size=16, num_channels=2)
        npusim.simulate(p, [a, out])
        assert np.array_equal(out, a * 3)
        p2 = transform_parallel_binary(lambda x, y: x - y, vec, tile_size=16)
        npusim.simulate(p2, [a, b, out])
        assert np.array_equal(out, a - b)
        # a kernel: (in, in, out) without the size argument, and (in, out, n) with it
        src = ('#include <cstdint>\nextern "C" void vsub(int32_t* a, int32_t* b, int32_t* c) {\n'
               '    for (int i = 0; i < 16; ++i) c[i] = a[i] - b[i];\n}\n'
               'extern "C" void vneg(int32_t* a, int32_t* c, int32_t n) { for (int i = 0; i < n; ++i) c[i] = -a[i]; }\n')
        tile = np.ndarray[(16,), np.dtype[np.int32]]
        vsub = iron.ExternalFunction("vsub", source_string=src, arg_types=[tile, tile, tile])
        npusim.simulate(transform_parallel_binary(vsub, vec, tile_size=16, pass_size_to_kernel=False), [a, b, out])
        assert np.array_equal(out, a - b)
        vneg = iron.ExternalFunction("vneg", source_string=src, arg_types=[tile, tile, np.int32])
        npusim.simulate(transform_parallel(vneg, vec, tile_size=16), [a, out])
        assert np.array_equal(out, -a)
        with pytest.raises(ValueError, match=r"multiple of tile_size × num_columns × num_channels \(16 × 2 × 2 = 64\)"):
            transform_parallel(lambda x: x, np.ndarray[(96,), np.dtype[np.int32]], tile_size=16, num_channels=2)
        set_current_device(NPU2Col1())
        npusim.simulate(transform_parallel(lambda x: x + 1, vec, tile_size=16), [a, out])
        assert np.array_equal(out, a + 1)
    finally:
        set_current_device(old)


def test_bfp16ebs8_names_a_block_floating_point_type():
    # IRON spells AIE2P's bfp16 v8bfp16ebs8 (aie.helpers.util, re-exported by aie.dialects.aiex):
    # an element of 8 values sharing an exponent, 9 bytes.
    from npusim._types import tensor_type
    from npusim.helpers.util import v8bfp16ebs8
    from npusim.iron.aiex import v8bfp16ebs8 as from_aiex  # single_core.py: from aie.dialects.aiex import ...

    assert from_aiex is v8bfp16ebs8

    assert str_to_dtype("bfp16ebs8") is v8bfp16ebs8 and str_to_dtype("v8bfp16ebs8") is v8bfp16ebs8
    t = tensor_type(np.ndarray[(64, 8), np.dtype[v8bfp16ebs8]])
    assert t.dtype == "v8bfp16ebs8" and t.shape == [64, 8] and t.bytes == 64 * 8 * 9


def test_aie_utils_submodules_import_by_name_and_iron_reexports_ceildiv():
    # `from aie.utils import config` (ml/norm, rope, scale_shift): the submodule, not a refusal
    from aie.utils import config
    import aie.iron as iron_alias

    assert config.cxx_header_path()
    assert iron_alias.ceildiv(7, 2) == 4 and iron_alias.ceildiv(8, 2) == 4
    with pytest.raises(NotImplementedError, match="aie.utils.no_such_name is not supported by npusim"):
        from aie.utils import no_such_name  # noqa: F401


def test_trace_event_selections_are_names_npusim_accepts():
    # aie.utils.trace.events (event_trace/aie_trace.py, chaining_channels.py): npusim's trace records
    # every event it models, so a selection is accepted; a name that is no event is an error.
    from aie.utils.trace.events import CoreEvent, MemTilePortEvent, ShimTileEvent
    from npusim.iron.enums import WireBundle

    assert repr(CoreEvent.INSTR_EVENT_0) == "CoreEvent.INSTR_EVENT_0"
    assert MemTilePortEvent(ShimTileEvent.PORT_RUNNING_0, WireBundle.South, 3, True).channel == 3
    with pytest.raises(AttributeError, match="CoreEvent has no event 'instr_event_0'"):
        CoreEvent.instr_event_0
    import aie.utils.trace.events as events
    with pytest.raises(NotImplementedError, match="aie.utils.trace.events.get_events_for_device is not supported"):
        events.get_events_for_device
