"""Host arrays of AIE2P block floating point (v8bfp16ebs8) for npusim runs.

A v8bfp16ebs8 tensor's host array has the 9-byte structured dtype `dtype` (fields `exponent`, uint8,
and `mantissas`, 8 x int8): one element is one block of 8 values, m * 2^(exponent - 133). Arrays of
it go to `npusim.simulate` and to `@iron.jit` functions as any other tensor; raw uint8/int8 arrays of
9 bytes a block (what mlir-aie's C++ hosts hand over: ml/block_datatypes/helper.h) are accepted by
`npusim.simulate` as well.

    a = npusim.bfp.from_float(x)        # float array, last axis a multiple of 8 -> blocks
    x2 = npusim.bfp.to_float(a)         # blocks -> float32 values

`from_float` quantizes as the AIE2P conversion with the core's reset rounding mode (floor) does, and as
mlir-aie's host reference does (helper.h l.45-117 at 3ca0193): the shared exponent is the largest
exponent field of the 8 values; each signed 24-bit significand is shifted right (floor) by
17 + E - e and saturated to int8; a denormal's exponent field 0 is used as it is; NaN gives 0 and
+-inf the extreme mantissa (docs/block-floating-point.md).
"""
import numpy as np

from ._types import BFP16EBS8 as dtype  # noqa: F401  (npusim.bfp.dtype)

__all__ = ["dtype", "from_float", "to_float", "zeros"]


def zeros(shape):
    """An array of zero blocks (exponent 0, mantissas 0)."""
    return np.zeros(shape, dtype=dtype)


def from_float(x):
    """Quantize float values to blocks: x's last axis (a multiple of 8) becomes its length / 8 blocks."""
    f = np.ascontiguousarray(x, dtype=np.float32)
    if f.ndim == 0 or f.shape[-1] % 8:
        raise ValueError(f"npusim.bfp.from_float: the last axis ({f.shape[-1] if f.ndim else 'a scalar'}) "
                         "must hold whole blocks of 8 values")
    blocks = f.reshape(f.shape[:-1] + (f.shape[-1] // 8, 8))
    u = blocks.view(np.uint32)
    e = ((u >> 23) & 0xFF).astype(np.int64)
    e_max = e.max(axis=-1, keepdims=True)
    sig = (u & 0x7FFFFF).astype(np.int64) | np.where(e != 0, 0x800000, 0)
    sig = np.where((u >> 31) != 0, -sig, sig)
    shift = np.minimum(17 + e_max - e, 62)
    q = np.clip(sig >> shift, -128, 127)  # an arithmetic shift: floor
    q = np.where(np.isnan(blocks), 0, q)
    q = np.where(np.isposinf(blocks), 127, np.where(np.isneginf(blocks), -128, q))
    out = np.empty(blocks.shape[:-1], dtype=dtype)
    out["exponent"] = e_max[..., 0].astype(np.uint8)
    out["mantissas"] = q.astype(np.int8)
    return out


def to_float(a):
    """The float32 values of blocks (exact): the blocks' axis becomes 8 values a block."""
    b = np.asarray(a)
    if b.dtype != dtype:
        raise TypeError(f"npusim.bfp.to_float: expected an array of dtype npusim.bfp.dtype, got {b.dtype}")
    v = np.ldexp(b["mantissas"].astype(np.float32), b["exponent"].astype(np.int32)[..., None] - 133)
    return v.reshape(b.shape[:-1] + (b.shape[-1] * 8,)) if b.ndim else v
