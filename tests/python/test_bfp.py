"""Block floating point (v8bfp16ebs8) from Python: host arrays (npusim.bfp), kernels that take block
tensors (byte pointers, whole-block pointers; a 2-byte pointee refused), ObjectFifo's
dims_from_stream_per_cons, and examples/python/matmul_bfp16.py against a numpy golden and its C++
twin's cycles (`npusim run matmul_bfp16 --device npu2`)."""
import struct

import numpy as np
import pytest

import npusim
import npusim.bfp as bfp
import npusim.iron as iron
from npusim.helpers.util import v8bfp16ebs8
from npusim.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker

from test_canonical import twin


def ref_block(values):
    """One block from 8 Python floats, field by field: E = the largest exponent field; mantissa =
    floor(signed significand / 2^(17 + E - e)), clamped to int8; NaN 0, +-inf the extreme mantissa."""
    bits = [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]
    exps = [(b >> 23) & 0xFF for b in bits]
    e_max = max(exps)
    out = []
    for v, b, e in zip(values, bits, exps):
        if v != v:
            out.append(0)
        elif v in (float("inf"), float("-inf")):
            out.append(127 if v > 0 else -128)
        else:
            sig = (b & 0x7FFFFF) | (0x800000 if e else 0)
            sig = -sig if b >> 31 else sig
            q = sig // (1 << (17 + e_max - e))  # floor division: the arithmetic shift
            out.append(max(-128, min(127, q)))
    return e_max, out


def test_from_float_quantizes_each_block_as_the_field_reference():
    rng = np.random.default_rng(3)
    x = np.ldexp(rng.uniform(-2, 2, (64, 8)), rng.integers(-12, 12, (64, 8))).astype(np.float32)
    x[0] = [1.0, -1.0, 0.5, -0.75, 3.0, 1e-40, -1e-40, 0.0]  # denormals keep exponent field 0
    x[1] = [np.nan, np.inf, -np.inf, 1.0, 2.0, 4.0, -8.0, 0.0]
    x[2] = [-1.0, 2.0 ** -20, -(2.0 ** -20), 1.0, 1.0, 1.0, 1.0, 1.0]  # negatives far below E floor to -1
    got = bfp.from_float(x)
    assert got.dtype == bfp.dtype and got.dtype.itemsize == 9 and got.shape == (64, 1)
    for i in range(64):
        e, m = ref_block([float(v) for v in x[i]])
        assert got[i, 0]["exponent"] == e, i
        assert list(got[i, 0]["mantissas"]) == m, i
    assert list(got[2, 0]["mantissas"][:3]) == [-64, 0, -1]


def test_to_float_decodes_and_representable_values_round_trip():
    blocks = bfp.zeros(3)
    blocks["exponent"] = [127, 133, 0]
    blocks["mantissas"] = [np.arange(-4, 4), np.full(8, 127), np.full(8, -128)]
    v = bfp.to_float(blocks)
    assert v.shape == (24,) and v.dtype == np.float32
    assert v[0] == -4 / 64 and v[8] == 127.0 and v[16] == -128 * 2.0 ** -133
    x = np.array([[1, 2, 3, 4, -5, 6, 7, -8]], dtype=np.float32) / 4
    assert np.array_equal(bfp.to_float(bfp.from_float(x)), x)
    with pytest.raises(ValueError, match="whole blocks of 8"):
        bfp.from_float(np.zeros(12, dtype=np.float32))
    with pytest.raises(TypeError, match="npusim.bfp.dtype"):
        bfp.to_float(np.zeros(9, dtype=np.uint8))


def test_iron_tensors_of_the_block_type_are_bfp_arrays():
    t = iron.zeros((4, 2), dtype=v8bfp16ebs8)
    assert t.dtype == bfp.dtype and t.shape == (4, 2)
    assert iron.tensor(bfp.zeros(5)).numpy().dtype == bfp.dtype
    assert iron.zeros_like(t, dtype="v8bfp16ebs8").dtype == bfp.dtype


BLOCK_TILE = np.ndarray[(16,), np.dtype[v8bfp16ebs8]]
BLOCK_VEC = np.ndarray[(64,), np.dtype[v8bfp16ebs8]]

# vector_passthrough's kernel shape: a whole 128-value block vector copied through its pointer type
PASS128 = """
#include <aie_api/aie.hpp>
extern "C" void pass128(v128bfp16ebs8* in, v128bfp16ebs8* out) { *out = *in; }
"""
# a block tensor read as bytes (scalar_shuffle's uint8_t*) and written through bfp16ebs8*
NEGATE = """
#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void negate_blocks(uint8_t* in, bfp16ebs8* out) {
    auto* o = reinterpret_cast<uint8_t*>(out);
    for (int b = 0; b < 16; ++b) {
        o[9 * b] = in[9 * b];
        for (int i = 1; i < 9; ++i) o[9 * b + i] = uint8_t(-int8_t(in[9 * b + i]) == -128 ? 127 : -int8_t(in[9 * b + i]));
    }
}
"""


def block_design(kernel, per_cons=None):
    of_in = ObjectFifo(BLOCK_TILE, name="in", dims_from_stream_per_cons=per_cons)
    of_out = ObjectFifo(BLOCK_TILE, name="out")

    def body(i, o, k):
        x, y = i.acquire(1), o.acquire(1)
        k(x, y)
        i.release(1)
        o.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), kernel])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [BLOCK_VEC, BLOCK_VEC, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def random_block_vec(seed):
    rng = np.random.default_rng(seed)
    return bfp.from_float(rng.uniform(-3, 3, (64, 8)).astype(np.float32)).reshape(64)


@pytest.mark.timeout(120)
def test_block_tensors_go_to_byte_and_whole_block_pointers():
    a = random_block_vec(1)
    out = bfp.zeros(64)
    npusim.simulate(block_design(ExternalFunction("pass128", source_string=PASS128,
                                                  arg_types=[BLOCK_TILE, BLOCK_TILE])), [a, out])
    assert out.tobytes() == a.tobytes()
    out2 = bfp.zeros(64)
    npusim.simulate(block_design(ExternalFunction("negate_blocks", source_string=NEGATE,
                                                  arg_types=[BLOCK_TILE, BLOCK_TILE])), [a, out2])
    assert np.array_equal(out2["exponent"], a["exponent"])
    assert np.array_equal(out2["mantissas"], np.where(a["mantissas"] == -128, 127, -a["mantissas"].astype(np.int16)))


@pytest.mark.timeout(60)
def test_simulate_takes_a_block_tensor_as_its_raw_bytes():
    a = random_block_vec(2)
    raw_in = a.view(np.uint8).copy()
    raw_out = np.zeros(64 * 9, dtype=np.uint8)
    prog = block_design(ExternalFunction("pass128", source_string=PASS128, arg_types=[BLOCK_TILE, BLOCK_TILE]))
    npusim.simulate(prog, [raw_in, raw_out])
    assert raw_out.tobytes() == a.tobytes()
    with pytest.raises(npusim.DesignError, match=r"tensor argument 1 is uint8\[575\], the runtime sequence "
                                                 r"declares v8bfp16ebs8\[64\]"):
        npusim.simulate(prog, [raw_in, np.zeros(575, dtype=np.uint8)])


def test_a_block_tensor_is_refused_for_a_two_byte_pointee():
    src = '#include <aie_api/aie.hpp>\nextern "C" void as_bf16(bfloat16* in, bfp16ebs8* out) {}\n'
    with pytest.raises(npusim.DesignError) as e:
        ExternalFunction("as_bf16", source_string=src, arg_types=[BLOCK_TILE, BLOCK_TILE])
    assert ("ExternalFunction 'as_bf16': arg_types[0] is v8bfp16ebs8[16] (9 B blocks) but parameter 0 of the "
            "compiled function points to 2 B elements: a block tensor goes to a byte pointer (bfp16ebs8*, int8_t*, "
            "uint8_t*) or to a pointer to whole blocks (v64bfp16ebs8*, v128bfp16ebs8*)") in str(e.value)
    # and an int8 tensor still does not go to a whole-block pointer
    with pytest.raises(npusim.DesignError, match=r"arg_types\[0\] is i8\[144\] \(1 B elements\) but parameter 0 of "
                                                 r"the compiled function points to 144 B elements"):
        ExternalFunction("pass128", source_string=PASS128,
                         arg_types=[np.ndarray[(144,), np.dtype[np.int8]], BLOCK_TILE])


@pytest.mark.timeout(120)
def test_dims_from_stream_per_cons_is_every_consumers_default():
    # 16 blocks as 4 rows of 4; the pattern visits rows 0, 2, 1, 3 (a row is 36 bytes, 9 words: block
    # rows are word-aligned, single blocks are not), which swaps rows 1 and 2 of each object
    src = '#include <aie_api/aie.hpp>\n#include <cstring>\nextern "C" void copy_tile(uint8_t* i, uint8_t* o) ' \
          '{ std::memcpy(o, i, 144); }\n'
    k = ExternalFunction("copy_tile", source_string=src, arg_types=[BLOCK_TILE, BLOCK_TILE])
    a = random_block_vec(4)
    dims = [(2, 4), (2, 8), (4, 1)]
    outs = []
    for per_cons in (None, dims):
        out = bfp.zeros(64)
        npusim.simulate(block_design(k, per_cons), [a, out])
        outs.append(out)
    assert outs[0].tobytes() == a.tobytes()
    want = a.reshape(4, 4, 4)[:, [0, 2, 1, 3], :].reshape(64)
    assert outs[1].tobytes() == want.tobytes()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("dims", [dict(M=128, K=128, N=128, m=64, k=64, n=64),
                                  dict(M=64, K=256, N=128, m=32, k=32, n=64)])
def test_matmul_bfp16_matches_the_numpy_golden_and_its_cpp_twin(example, dims):
    mod = example("matmul_bfp16")
    rng = np.random.default_rng(11)
    M, K, N, m, k, n = (dims[d] for d in "MKNmkn")
    a_log, bt_log = mod.random_blocks(rng, M, K), mod.random_blocks(rng, N, K)
    a, bt = mod.shuffle(a_log, m, k).reshape(-1), mod.shuffle(bt_log, n, k).reshape(-1)
    c = bfp.zeros(M * N // 8)
    run = mod.matmul_bfp16(a, bt, c, **dims)
    want = mod.shuffle(mod.golden(a_log, bt_log, k), m, n).reshape(-1)
    assert c.tobytes() == want.tobytes()
    # the golden is the block product: within two quantization steps per K tile of float64 A . B^T
    ref = mod.golden(a_log, bt_log, k)
    exact = bfp.to_float(a_log).astype(np.float64) @ bfp.to_float(bt_log).astype(np.float64).T
    step = np.ldexp(1.0, np.repeat(ref["exponent"].astype(np.int32), 8, axis=-1) - 133)
    assert np.all(np.abs(bfp.to_float(ref) - exact) <= 2 * (K // k) * step)
    assert np.count_nonzero(ref["mantissas"]) > ref["mantissas"].size // 2
    assert run.cores[0]["kernel_calls"] == (M // m) * (N // n) * (K // k + 1) + 1
    assert run.cycles == twin("matmul_bfp16", **dims)


def test_matmul_bfp16_main_checks_its_own_result(example, capsys):
    run = example("matmul_bfp16").main(["-M", "64", "-K", "64", "-N", "64"])
    assert "PASS!" in capsys.readouterr().out and run.cycles > 0


def test_the_shuffle_puts_each_tiles_8x8_subtiles_in_a_row(example):
    # one 16 x 16-value tile (16 rows of 2 blocks): subtile (0, 0) is rows 0-7 of block column 0, then
    # (0, 1), (1, 0), (1, 1); the sequence is laid back into the tile's rows, 2 blocks a row
    blocks = bfp.zeros((16, 2))
    blocks["exponent"] = np.arange(32, dtype=np.uint8).reshape(16, 2)
    got = [int(e) for e in example("matmul_bfp16").shuffle(blocks, 16, 16)["exponent"].reshape(-1)]
    want = [r * 2 + c for rows, c in ((range(8), 0), (range(8), 1), (range(8, 16), 0), (range(8, 16), 1))
            for r in rows]
    assert got == want


# A block passthrough written here (not upstream's file) where tools/check-upstream-bfp.py looks for
# ml/block_datatypes/vector_passthrough: 32 blocks through 16-block objects, copied by a kernel through
# v128bfp16ebs8 pointers; CORRUPT makes the kernel change one byte.
FAKE_PASSTHROUGH = '''
import sys
import numpy as np
import aie.iron as iron
from aie.helpers.util import v8bfp16ebs8
from aie.iron import ExternalFunction, In, ObjectFifo, Out, Program, Runtime, Worker
from aie.iron.controlflow import range_

SRC = """#include <aie_api/aie.hpp>
extern "C" void copy128(v128bfp16ebs8* in, v128bfp16ebs8* out) { *out = *in; CORRUPT }"""
TILE = np.ndarray[(16,), np.dtype[v8bfp16ebs8]]
VEC = np.ndarray[(32,), np.dtype[v8bfp16ebs8]]


@iron.jit
def vector_passthrough(a_in: In, b_out: Out):
    k = ExternalFunction("copy128", source_string=SRC, arg_types=[TILE, TILE])
    of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")

    def body(i, o, k):
        for _ in range_(sys.maxsize):
            x, y = i.acquire(1), o.acquire(1)
            k(x, y)
            i.release(1)
            o.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), k])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
'''


@pytest.mark.timeout(120)
@pytest.mark.parametrize("corrupt", [False, True])
def test_check_upstream_bfp_checks_the_designs_a_checkout_has(tmp_path, corrupt):
    import os
    from conftest import SOURCE_DIR, run_cli
    folder = tmp_path / "programming_examples" / "ml" / "block_datatypes" / "vector_passthrough"
    folder.mkdir(parents=True)
    body = "reinterpret_cast<unsigned char*>(out)[5] ^= 1;" if corrupt else ""
    (folder / "vector_passthrough.py").write_text(FAKE_PASSTHROUGH.replace("CORRUPT", body))
    r = run_cli("python", os.path.join(SOURCE_DIR, "tools", "check-upstream-bfp.py"), str(tmp_path))
    lines = r.stdout.splitlines()
    assert ("FAIL  vector_passthrough/vector_passthrough.py  " if corrupt
            else "ok    vector_passthrough/vector_passthrough.py  ") in lines
    assert "skip  matrix_multiplication/single_core/single_core.py  (not in this checkout)" in lines
    assert lines[-1] == f"{0 if corrupt else 1} of 1 checks passed, 9 design(s) not in {tmp_path}"
    assert r.returncode == (1 if corrupt else 0), r.stderr


def test_check_upstream_bfp_names_a_folder_that_is_no_checkout(tmp_path):
    import os
    from conftest import SOURCE_DIR, run_cli
    r = run_cli("python", os.path.join(SOURCE_DIR, "tools", "check-upstream-bfp.py"), str(tmp_path))
    assert r.returncode == 1
    assert f"check-upstream-bfp: {tmp_path} has no programming_examples/ml/block_datatypes" in r.stderr


def test_check_upstream_bfp_gemm_only_writes_the_configs_that_ran(tmp_path):
    # a checkout without the ATB designs: each skipped and named, nothing written, exit 1
    # (tools/calibrate.sh then keeps the stand-in for rows 10-13)
    import os
    from conftest import SOURCE_DIR, run_cli
    (tmp_path / "programming_examples" / "ml" / "block_datatypes").mkdir(parents=True)
    out = tmp_path / "atb.txt"
    r = run_cli("python", os.path.join(SOURCE_DIR, "tools", "check-upstream-bfp.py"), str(tmp_path), "--gemm-only",
                "--atb-cycles", str(out))
    lines = r.stdout.splitlines()
    assert "skip  gemm_asymmetric_tile_buffering/config2  (not in this checkout)" in lines
    assert "skip  matrix_multiplication/single_core/single_core.py  (not in this checkout)" not in lines
    assert lines[-1] == "0 of 3 gemm_asymmetric_tile_buffering configs simulated"
    assert r.returncode == 1
    assert out.read_text() == ""
