"""aie.utils.verify: output checks. A mismatch raises AssertionError with the first differing index."""
import numpy as np


def _first_mismatch(actual, expected, close, rtol=1e-5, atol=1e-8):
    a, e = np.asarray(actual).ravel(), np.asarray(expected).ravel()
    if a.shape != e.shape:
        return f"shapes differ: {np.asarray(actual).shape} vs {np.asarray(expected).shape}"
    bad = ~np.isclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol) if close else a != e
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    return f"{int(bad.sum())} of {a.size} values differ; first at {i}: {a[i]!r} != {e[i]!r}"


def assert_pass(actual, expected, fail_msg="output does not match", print_pass=True, **_):
    why = _first_mismatch(np.asarray(actual), np.asarray(expected), close=False)
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


def assert_close_with_benchmark(actual, expected, *_, rtol=1e-5, atol=1e-8, **kw):
    assert_close(actual, expected, rtol=rtol, atol=atol, **{k: v for k, v in kw.items() if k in ("fail_msg", "print_pass")})
