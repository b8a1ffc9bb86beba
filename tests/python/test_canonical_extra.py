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


@pytest.mark.timeout(30)
def test_reduce_is_vector_reduce_max_through_algorithms_reduce(example):
    # the registered `reduce` (IRON's algorithms.reduce with reduce_max) is what vector_reduce_max.py writes
    mod = example("vector_reduce_max")
    a = np.random.default_rng(8).integers(-1000, 1000, 4096, dtype=np.int32)
    c = np.zeros(1, dtype=np.int32)
    run = mod.vector_reduce_max(a, c, num_elements=4096)
    assert c[0] == a.max()
    assert run.cycles == twin("reduce", size=4096)


@pytest.mark.timeout(30)
def test_invocation_counter_keeps_its_buffer_across_invocations(example):
    import json
    import subprocess

    from conftest import CLI
    from npusim.utils.benchmark import run_iters
    mod = example("invocation_counter")
    N, n = 1024, 256
    a = np.random.default_rng(4).integers(0, 100000, N, dtype=np.int32)
    b = np.zeros_like(a)
    run = mod.invocation_counter(a, b, n=n)
    assert np.array_equal(b, mod.golden(a, n, 0))
    assert run.cycles == twin("invocation_counter", N=N, n=n)
    bench = run_iters(mod.invocation_counter, a, b, warmup=1, iters=2, n=n)
    assert np.array_equal(b, mod.golden(a, n, 2))  # the third invocation counts on from the first two
    out = subprocess.run([CLI, "run", "invocation_counter", "--device", "npu2", "--iters", "2", "--warmup", "1",
                          "--json"], capture_output=True, text=True, check=True, timeout=120).stdout
    assert bench.cycles == [i["cycles"] for i in json.loads(out)["invocations"] if not i["warmup"]]


@pytest.mark.timeout(60)
def test_init_values_repeat_sends_the_mem_tile_object_repeat_times(example):
    mod = example("init_values_repeat")
    N, repeat = 1024, 3
    c = np.zeros(N * repeat, dtype=np.int32)
    run = mod.init_values_repeat(c, N=N, repeat=repeat)
    assert np.array_equal(c, np.tile(np.arange(1, N + 1, dtype=np.int32), repeat))
    assert run.cycles == twin("init_values_repeat", N=N, repeat=repeat)


@pytest.mark.timeout(30)
def test_lowlevel_passthrough_buffers_locks_and_a_tile_dma(example):
    mod = example("lowlevel_passthrough")
    a = np.random.default_rng(5).integers(-10**6, 10**6, 4096, dtype=np.int32)
    c = np.zeros_like(a)
    run = mod.lowlevel_passthrough(a, c, tile=1024)
    assert np.array_equal(c, a)
    assert run.cycles == twin("lowlevel_passthrough", size=4096, tile=1024)


@pytest.mark.timeout(30)
def test_custom_dma_bd_chain_started_by_set_lock_value(example):
    mod = example("custom_dma")
    for cols in (16, 40):
        c = np.zeros(3 * cols, dtype=np.int32)
        run = mod.custom_dma(c, cols=cols)
        assert np.array_equal(c, mod.golden(cols))
        assert c[2 * cols] == 400  # the third row read is row 3: row 2 is skipped
        assert run.cycles == twin("custom_dma", cols=cols)


@pytest.mark.timeout(30)
def test_chaining_channels_register_level_sequence_and_its_deadlock_without_the_kick(example):
    import json
    import subprocess

    from conftest import CLI
    mod = example("chaining_channels")
    n = 256
    a = np.full(n, -1, dtype=np.int32)
    b = np.arange(4 * n, dtype=np.int32)
    run = mod.chaining_channels(a, b)
    assert np.array_equal(a, np.arange(1, n + 1, dtype=np.int32))
    assert np.array_equal(b, np.arange(4 * n, dtype=np.int32))  # only read
    assert run.cycles == twin("chaining_channels", n=n)
    # without the lock write the mem tile's BD never runs: the deadlock the twin reports
    with pytest.raises(npusim.DeadlockError) as e:
        mod.chaining_channels(np.zeros(n, np.int32), b, kick=False)
    out = subprocess.run([CLI, "run", "chaining_channels", "--device", "npu2", "--param", "kick=0", "--json"],
                         capture_output=True, text=True, timeout=120)
    doc = json.loads(out.stdout)["deadlock"]
    assert out.returncode == e.value.exit_code == 3
    assert e.value.case == doc["case"]["id"] == "no_releaser"
    assert e.value.cycle == doc["cycle"]
    # the same chain; IRON's TileDma takes no name, so the twin's 'memtile_dma' is the default label here
    assert list(e.value.chain) == [step["text"].replace("'memtile_dma'", "'tile_dma_0'") for step in doc["chain"]]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("keep_header", [False, True])
def test_packet_flow_merge_interleaves_two_packet_streams_on_one_shim_port(example, keep_header):
    mod = example("packet_flow_merge")
    size, tile = 2048, 256
    rng = np.random.default_rng(6)
    a = rng.integers(-10**6, 10**6, size, dtype=np.int32)
    b = rng.integers(-10**6, 10**6, size, dtype=np.int32)
    c = np.zeros(2 * size + (2 * (size // tile) if keep_header else 0), dtype=np.int32)
    run = mod.packet_flow_merge(a, b, c, tile=tile, keep_header=keep_header)
    assert np.array_equal(c, mod.golden(a, b, tile, keep_header))
    assert np.array_equal(c[(1 if keep_header else 0):][:tile], a[:tile])  # a's first tile comes first
    if keep_header:  # the header word of packet 3 from the compute tile (0, 2), odd parity
        assert c[0] == mod.header_word(3) and bin(int(c[0]) & 0xFFFFFFFF).count("1") % 2 == 1
    assert run.cycles == twin("packet_flow_merge", size=size, tile=tile, keep_header=int(keep_header))


@pytest.mark.timeout(60)
def test_manual_switchbox_routes_by_hand_written_switchboxes(example):
    mod = example("manual_switchbox")
    for n in (64, 200):
        a = np.random.default_rng(n).integers(-10**6, 10**6, n, dtype=np.int32)
        c = np.zeros_like(a)
        run = mod.manual_switchbox(a, c)
        assert np.array_equal(c, a)
        assert run.cycles == twin("manual_switchbox", n=n)
    # (the body's element copy has no export op, so test_switchbox.py checks the printed routes)
