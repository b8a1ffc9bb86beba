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
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        with pytest.raises(NotImplementedError, match=r"str_to_dtype\('bf16'\): bfloat16 tensors need ml_dtypes"):
            str_to_dtype("bf16")


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
    for line, missing in [("from aie.iron.dataflow import ObjectFifoLink", "aie.iron.dataflow.ObjectFifoLink"),
                          ("from aie.helpers.taplib.tensortiler2d import TensorTiler2D",
                           "aie.helpers.taplib.TensorTiler2D")]:
        design.write_text(line + "\n")
        r = subprocess.run([CLI, "python", str(design)], capture_output=True, text=True, timeout=120)
        assert r.returncode != 0
        assert f"NotImplementedError: {missing} is not supported by npusim" in r.stderr, r.stderr
