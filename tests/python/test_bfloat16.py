"""npusim's bfloat16 numpy type (python/src/BFloat16*.cpp), used where ml_dtypes is not installed:
round-to-nearest-even conversion against an independent reference, NaN/inf/overflow/ties edge cases,
casts, arithmetic ufuncs, array creation, and `from ml_dtypes import bfloat16` inside npusim runs only."""
import subprocess
import sys

import numpy as np
import pytest

from conftest import CLI
from npusim._npusim import bfloat16 as bf16  # npusim's own type, tested even where ml_dtypes is installed


def bits(x):
    return np.asarray(x, dtype=bf16).reshape(-1).view(np.uint16)


def f32(b):
    return np.array([b], np.uint32).view(np.float32)[0]


def reference_rne(u32):
    """bfloat16 bits of the float32 with bits u32, by comparing distances to the two neighbours
    (exact in float64), ties to the even one; NaN -> the quiet NaN of its sign."""
    x = float(f32(u32))
    if x != x:
        return 0xFFC0 if u32 >> 31 else 0x7FC0
    lo = u32 >> 16
    if abs(x) == float("inf"):
        return lo
    hi = lo + 1
    vlo = float(f32(lo << 16))
    # past the largest finite value the next step up is 2^128 (which rounds to infinity)
    vhi = float(f32(hi << 16)) if (hi & 0x7FFF) < 0x7F80 else 2.0 ** 128 * (-1 if lo >> 15 else 1)
    dlo, dhi = abs(x - vlo), abs(vhi - x)
    if dlo < dhi or (dlo == dhi and lo % 2 == 0):
        return lo
    return hi  # 0x7f80 / 0xff80 when that is 2^128: infinity


def test_conversion_edge_cases():
    cases = {
        0x3F800000: 0x3F80,  # 1.0
        0x3F808000: 0x3F80,  # tie between 0x3f80 and 0x3f81: the even one
        0x3F818000: 0x3F82,  # tie between 0x3f81 and 0x3f82: the even one
        0x3F808001: 0x3F81,  # just above the tie
        0x3F807FFF: 0x3F80,  # just below the tie
        0x7F7FFFFF: 0x7F80,  # float32 max rounds to infinity
        0x7F7F7FFF: 0x7F7F,  # largest value that stays finite
        0x7F800000: 0x7F80, 0xFF800000: 0xFF80,  # +-inf
        0x7F800001: 0x7FC0,  # a signalling NaN becomes the quiet NaN, not infinity
        0xFFC12345: 0xFFC0,  # a negative NaN keeps its sign
        0x80000000: 0x8000,  # -0.0
        0x00008000: 0x0000, 0x00018000: 0x0002,  # subnormal ties
    }
    src = np.array(list(cases), np.uint32).view(np.float32)
    assert bits(src).tolist() == list(cases.values())
    assert [reference_rne(k) for k in cases] == list(cases.values())
    assert bits([bf16(float("nan")), bf16("-inf"), bf16(-0.0)]).tolist() == [0x7FC0, 0xFF80, 0x8000]
    assert bits(bf16(10 ** 400)).tolist() == [0x7F80] and bits(bf16(-(10 ** 400))).tolist() == [0xFF80]


def test_conversion_matches_the_reference_on_random_float32s():
    rng = np.random.default_rng(7)
    u = rng.integers(0, 2 ** 32, size=4000, dtype=np.uint64).astype(np.uint32)
    u[:64] = (u[:64] & 0xFFFF0000) | 0x8000  # plenty of exact ties
    got = bits(u.view(np.float32))
    assert got.tolist() == [reference_rne(int(v)) for v in u]
    # scalars and arrays convert alike
    assert [bits(bf16(np.float32(x)))[0] for x in u[:200].view(np.float32)] == got[:200].tolist()


def test_every_bfloat16_value_survives_float32_and_back():
    every = np.arange(2 ** 16, dtype=np.uint16).view(bf16)
    back = every.astype(np.float32).astype(bf16).view(np.uint16)
    nan = np.isnan(every.astype(np.float32))
    assert np.array_equal(back[~nan], np.arange(2 ** 16, dtype=np.uint16)[~nan])
    assert set(back[nan].tolist()) == {0x7FC0, 0xFFC0}
    assert np.array_equal(np.isnan(every), nan) and np.array_equal(np.isinf(every), np.isinf(every.astype(np.float32)))


def test_arithmetic_rounds_the_float32_result():
    rng = np.random.default_rng(3)
    a = rng.uniform(-4, 4, 1000).astype(bf16)
    b = rng.uniform(-4, 4, 1000).astype(bf16)
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    for op in (np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.minimum):
        r = op(a, b)
        assert r.dtype == bf16, op
        assert np.array_equal(bits(r), bits(op(fa, fb))), op
    assert np.array_equal(a < b, fa < fb) and np.array_equal(a == a, np.ones(1000, bool))
    assert np.array_equal(bits(-a), bits(-fa)) and np.array_equal(bits(abs(a)), bits(np.abs(fa)))
    # without a bfloat16 loop, numpy computes in float32 through the safe cast
    assert np.exp(a).dtype == np.float32 and np.allclose(np.exp(a), np.exp(fa))
    assert float(a.max()) == float(fa.max()) and int(np.argmin(a)) == int(np.argmin(fa))
    # scalars: bfloat16 op number -> bfloat16, rounded
    s = bf16(1.0) + 2 ** -9  # 1 + 2^-9 is below half an ulp (2^-8) of 1.0: stays 1.0
    assert isinstance(s, bf16) and float(s) == 1.0
    assert float(bf16(3) * 0.5) == 1.5 and bf16(2) > 1 and hash(bf16(0.5)) == hash(0.5)


def test_array_creation_and_casts():
    assert np.dtype(bf16).name == "bfloat16" and np.dtype(bf16).itemsize == 2
    assert np.zeros(4, bf16).tolist() == [0.0] * 4 and np.ones(2, dtype=bf16).dtype == bf16
    assert np.array([1.0, 2.5, 3], dtype=bf16).astype(np.float64).tolist() == [1.0, 2.5, 3.0]
    assert np.array([bf16(1), bf16(-2)]).dtype == bf16
    assert np.arange(0, 4, dtype=bf16).astype(np.int32).tolist() == [0, 1, 2, 3]
    assert np.array([0.0, 0.25, -1], bf16).astype(bool).tolist() == [False, True, True]
    assert np.array([7, -3], np.int8).astype(bf16).tolist() == [7.0, -3.0]
    assert np.can_cast(bf16, np.float32) and np.can_cast(np.int8, bf16) and not np.can_cast(np.float32, bf16)
    assert bits(np.array([0.1], np.float64).astype(bf16)).tolist() == [0x3DCD]
    x = np.array([3, 1, np.nan, 2], np.float32).astype(bf16)
    assert str(np.sort(x).astype(np.float32).tolist()) == "[1.0, 2.0, 3.0, nan]"
    with pytest.raises(TypeError, match="expected a number to store in a bfloat16 array, got list"):
        np.zeros(2, bf16)[0] = [1]


def test_ml_dtypes_is_served_inside_npusim_runs_only(tmp_path):
    script = tmp_path / "d.py"
    script.write_text("from ml_dtypes import bfloat16\nimport numpy as np\n"
                      "print(np.dtype(bfloat16).name, np.array([1.5], bfloat16).astype(np.float32)[0])\n")
    r = subprocess.run([CLI, "python", str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["bfloat16", "1.5"], r.stderr
    # outside npusim runs: no ml_dtypes module appears (unless one is installed)
    out = subprocess.run([sys.executable, "-c", "import npusim, importlib.util; "
                          "print(importlib.util.find_spec('ml_dtypes') is not None)"],
                         capture_output=True, text=True, timeout=120).stdout.strip()
    from npusim._bfloat16 import ml_dtypes_installed
    assert out == str(ml_dtypes_installed())
    if not ml_dtypes_installed():
        script.write_text("import ml_dtypes\nml_dtypes.float8_e4m3fn\n")
        r = subprocess.run([CLI, "python", str(script)], capture_output=True, text=True, timeout=120)
        assert "NotImplementedError: ml_dtypes.float8_e4m3fn is not supported by npusim" in r.stderr


def test_bfloat16_tensors_simulate_byte_for_byte():
    import npusim
    import npusim.iron as iron
    from npusim._bfloat16 import bfloat16
    from npusim.iron import ObjectFifo, Program, Runtime, Worker
    from npusim.iron.controlflow import range_
    t = np.ndarray[(16,), np.dtype[bfloat16]]
    v = np.ndarray[(64,), np.dtype[bfloat16]]
    a, b = ObjectFifo(t, name="in"), ObjectFifo(t, name="out")

    def body(i, o):
        x, y = i.acquire(1), o.acquire(1)
        for k in range_(16):
            y[k] = x[k]
        i.release(1)
        o.release(1)

    def seq(x, y, hi, ho):
        hi.fill(x)
        ho.drain(y, wait=True)

    p = Program(iron.get_current_device(), Runtime(seq, [v, v, a.prod(), b.cons()]),
                workers=[Worker(body, [a.cons(), b.prod()])]).resolve_program()
    x = np.arange(0x3F00, 0x3F00 + 64, dtype=np.uint16).view(bfloat16)
    y = np.zeros(64, bfloat16)
    npusim.simulate(p, [x, y])
    assert y.tobytes() == x.tobytes()
