"""More canonical designs as IRON Python files (examples/python), as test_canonical.py checks them:
outputs against numpy, cycles equal to their C++ twins' (`npusim run NAME --device npu2 --json`)."""
import numpy as np
import pytest

import npusim
from test_canonical import twin


@pytest.mark.timeout(60)
def test_rms_norm_rows_on_eight_workers_matches_numpy_and_its_cpp_twin(example):
    mod = example("rms_norm")
    from ml_dtypes import bfloat16
    rows, cols = 64, 4096
    x = np.random.default_rng(0).uniform(-1.0, 1.0, (rows, cols)).astype(bfloat16)
    y = np.zeros_like(x)
    run = mod.rms_norm(x, y, sequence_length=rows, embedding_dim=cols)
    got, want = y.astype(np.float32), mod.golden(x).astype(np.float32)
    # assert_pass(atol=0.05) with its default rtol 0.128, as upstream checks it
    assert np.all(np.abs(got - want) <= 0.05 + 0.128 * np.abs(want))
    assert not np.array_equal(got, x.astype(np.float32))  # normalised, not copied
    assert [c["kernel_calls"] for c in run.cores] == [rows // 8] * 8
    assert run.cycles == twin("rms_norm", sequence_length=rows, embedding_dim=cols)


def test_rms_norm_symbol_binds_only_whole_vector_bf16_rows():
    from npusim.iron import Kernel
    from ml_dtypes import bfloat16
    row = np.ndarray[(4096,), np.dtype[bfloat16]]
    assert Kernel("rms_norm", "rms_norm.o", [row, row, np.int32]).name == "rms_norm"
    odd = np.ndarray[(4100,), np.dtype[bfloat16]]  # not whole 16-lane vectors
    with pytest.raises(NotImplementedError, match=r"Kernel\('rms_norm', 'rms_norm.o'\)"):
        Kernel("rms_norm", "rms_norm.o", [odd, odd, np.int32])
    f32 = np.ndarray[(4096,), np.dtype[np.float32]]
    with pytest.raises(NotImplementedError, match=r"Kernel\('rms_norm', 'rms_norm.o'\)"):
        Kernel("rms_norm", "rms_norm.o", [f32, f32, np.int32])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("api", ["forward", "split", "link"])
@pytest.mark.parametrize("dtype,pad", [(np.int32, 0), (np.int32, 1000), (np.int8, 8)])
def test_dma_padding_pads_every_object_as_its_cpp_twin(example, api, dtype, pad):
    mod = example("dma_padding")
    real, before, after, count = 8, 4, 4, 4
    a = np.arange(1, count * real + 1, dtype=dtype)
    c = np.zeros(count * (before + real + after), dtype=dtype)
    run = mod.dma_padding(a, c, api=api, real=real, before=before, after=after, pad_value=pad)
    want = mod.golden(a, real, before, after, pad)
    assert np.array_equal(c, want)
    assert want[0] == dtype(pad) and want[before] == 1
    assert run.cycles == twin("dma_padding", api=mod.APIS.index(api), dtype=0 if dtype is np.int32 else 1,
                              real=real, before=before, after=after, count=count, pad=pad)


@pytest.mark.timeout(30)
def test_vec_vec_add_objfifo_init_adds_the_mem_tile_init_values(example):
    mod = example("vec_vec_add_objfifo_init")
    N, n = 256, 16
    b = np.random.default_rng(3).integers(0, 10**6, N, dtype=np.int32)
    c = np.zeros_like(b)
    run = mod.vec_vec_add_objfifo_init(b, c, n=n)
    assert np.array_equal(c, b + np.arange(1, N + 1, dtype=np.int32))
    assert run.cycles == twin("vec_vec_add_objfifo_init", N=N, n=n)
