"""aie.utils.verify: output checks. A mismatch raises AssertionError with the first differing index.
nearly_equal / count_mismatches are IRON's relative-tolerance comparison of bfloat16-class results
(utils/verify.py: |a - b| < max(atol, rtol * (|a| + |b|)) in float32, rtol 0.128 by default)."""
import numpy as np

_NEARLY_RTOL = 0.128


def nearly_equal(a, b, *, rtol=_NEARLY_RTOL, atol=None):
    """Element-wise: equal, or closer than max(atol, rtol * (|a| + |b|)) (float32; NaN is never equal)."""
    x, y = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    floor = float(np.finfo(np.float32).tiny) if atol is None else atol
    with np.errstate(over="ignore", invalid="ignore"):
        limit = np.maximum(floor, rtol * np.minimum(np.abs(x) + np.abs(y), np.finfo(np.float32).max))
        return (x == y) | (np.abs(x - y) < limit)


def count_mismatches(actual, ref, *, rtol=_NEARLY_RTOL, atol=None, stop_at_nonfinite=True):
    """(errors, checked): values of `actual` not nearly_equal to `ref`, compared up to the first inf or
    NaN on either side when stop_at_nonfinite (then `checked` is less than the size)."""
    x = np.asarray(actual, dtype=np.float32).ravel()
    y = np.asarray(ref, dtype=np.float32).ravel()
    if x.shape != y.shape:
        raise ValueError(f"actual and ref must have the same shape, got {x.shape} vs {y.shape}")
    n = x.size
    if stop_at_nonfinite:
        nonfinite = np.flatnonzero(~(np.isfinite(x) & np.isfinite(y)))
        n = int(nonfinite[0]) if nonfinite.size else n
    ok = nearly_equal(x[:n], y[:n], rtol=rtol, atol=atol)
    return int(n - np.count_nonzero(ok)), n


def _first_mismatch(actual, expected, close, rtol=1e-5, atol=1e-8):
    a, e = np.asarray(actual).ravel(), np.asarray(expected).ravel()
    if a.shape != e.shape:
        return f"shapes differ: {np.asarray(actual).shape} vs {np.asarray(expected).shape}"
    bad = ~np.isclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol) if close else a != e
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    return f"{int(bad.sum())} of {a.size} values differ; first at {i}: {a[i]!r} != {e[i]!r}"


def assert_pass(actual, expected, fail_msg="output does not match", print_pass=True, *, rtol=None, atol=None, **_):
    """Exact comparison, or with rtol= / atol= given the tolerance comparator count_mismatches (as
    IRON's assert_pass, python/utils/verify.py:122-131 at 3ca0193: rtol defaults to 0.128 there)."""
    if rtol is None and atol is None:
        why = _first_mismatch(np.asarray(actual), np.asarray(expected), close=False)
    else:
        errors, checked = count_mismatches(actual, expected, rtol=rtol if rtol is not None else _NEARLY_RTOL,
                                           atol=atol)
        why = (f"{errors} of {checked} values outside rtol={rtol if rtol is not None else _NEARLY_RTOL}, atol={atol} "
               "(aie.utils.verify.count_mismatches)") if errors else None
    if why:
        raise AssertionError(f"{fail_msg}: {why}")
    if print_pass:
        print("PASS!")


def assert_close(actual, expected, rtol=1e-5, atol=1e-8, fail_msg="outputs are not close", print_pass=True, **_):
    why = _first_mismatch(actual, expected, close=True, rtol=rtol, atol=atol)
    if why:
        raise AssertionError(f"{fail_msg}: {why}")
    if print_pass:
        print("PASS!")


def assert_close_with_benchmark(actual, expected, *_, float_rtol=0.05, float_atol=0.5, fail_msg=None, **_kw):
    """IRON's matmul / vector_scalar_mul tail (utils/verify.py:138-205 at 3ca0193): the comparator follows
    expected's dtype: integers exactly, floats with assert_pass's tolerance comparison (count_mismatches)
    at rtol=float_rtol (0.05) and atol=float_atol (0.5), the defaults of IRON's C++ matmul harness."""
    msg = "output does not match" if fail_msg is None else fail_msg
    if np.issubdtype(np.asarray(expected).dtype, np.integer):
        assert_pass(actual, expected, fail_msg=msg, print_pass=False)
    else:
        assert_pass(actual, expected, rtol=float_rtol, atol=float_atol, fail_msg=msg, print_pass=False)
    print("PASS!")
