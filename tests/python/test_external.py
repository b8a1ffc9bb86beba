"""ExternalFunction with a kernel source in a Python design: compiled for the host at run time by
npusim's kernel compiler (harness/KernelCompiler, as a C++ design's are), for the generation of the
run's device, cached by content; a source that does not compile is a DesignError at the call."""
import os
import subprocess
import sys

import numpy as np
import pytest

import npusim
import npusim.iron as iron
from npusim import _npusim
from npusim.iron import ExternalFunction, ObjectFifo, Program, Runtime, Worker

from conftest import CLI

VEC = np.ndarray[(64,), np.dtype[np.int32]]
TILE = np.ndarray[(16,), np.dtype[np.int32]]

# Adds 3 to every element with the AIE API (the host layer), as an upstream kernel would.
ADD3 = """
#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void add3(int32_t* in, int32_t* out) {
    auto v = aie::load_v<16>(in);
    aie::store_v(out, aie::add(v, int32_t(3)));
}
"""


def line_of(marker):
    with open(__file__) as f:
        for i, text in enumerate(f, 1):
            if marker in text and "line_of(" not in text:
                return i
    raise AssertionError(marker)


def kernel_design(kernel):
    of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")

    def body(i, o, k):
        x, y = i.acquire(1), o.acquire(1)
        k(x, y)
        i.release(1)
        o.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), kernel])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w]).resolve_program()


def test_a_source_string_kernel_runs_and_matches_numpy():
    k = ExternalFunction("add3", source_string=ADD3, arg_types=[TILE, TILE])
    a = np.arange(64, dtype=np.int32) - 20
    b = np.zeros_like(a)
    npusim.simulate(kernel_design(k), [a, b])
    assert np.array_equal(b, a + 3)


def test_a_source_file_kernel_with_include_dirs_and_flags(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "amount.h").write_text("#define AMOUNT_FROM_HEADER 5\n")
    src = tmp_path / "addn.cc"
    src.write_text('#include <cstdint>\n#include "amount.h"\n'
                   'extern "C" void addn(int32_t* in, int32_t* out) {\n'
                   '    for (int i = 0; i < 16; ++i) out[i] = in[i] + AMOUNT_FROM_HEADER * SCALE;\n}\n')
    k = ExternalFunction("addn", source_file=str(src), arg_types=[TILE, TILE], include_dirs=[str(inc)],
                         compile_flags=["-DSCALE=2"])
    a = np.arange(64, dtype=np.int32)
    b = np.zeros_like(a)
    npusim.simulate(kernel_design(k), [a, b])
    assert np.array_equal(b, a + 10)


def test_a_compile_error_is_a_design_error_at_the_call_with_the_first_error():
    src = '#include <cstdint>\nextern "C" void broken(int32_t* a, int32_t* b) {\n    b[0] = no_such_name;\n}\n'
    with pytest.raises(npusim.DesignError) as e:
        ExternalFunction("broken", source_string=src, arg_types=[TILE, TILE])  # COMPILE-ERROR
    msg = str(e.value)
    assert msg.startswith(f"{__file__}:{line_of('# COMPILE-ERROR')}: ExternalFunction 'broken': its source_string "
                          "does not compile for the host: source_string.cc:3:12: error: 'no_such_name' was not "
                          "declared in this scope")
    assert e.value.file == __file__ and e.value.line == line_of("# COMPILE-ERROR")


def test_arg_types_are_checked_against_the_compiled_signature():
    with pytest.raises(npusim.DesignError) as e:
        ExternalFunction("add3", source_string=ADD3, arg_types=[TILE])  # ARITY
    assert f"test_external.py:{line_of('# ARITY')}: ExternalFunction 'add3': arg_types has 1 entr" in str(e.value)


def test_the_second_use_of_a_source_is_not_compiled_again():
    src = ADD3.replace("add3", "add3_again")
    ExternalFunction("add3_again", source_string=src, arg_types=[TILE, TILE])
    before = _npusim.kernel_compiler_stats()
    ExternalFunction("add3_again", source_string=src, arg_types=[TILE, TILE])
    after = _npusim.kernel_compiler_stats()
    assert after["compiles"] == before["compiles"]
    assert after["cache_hits"] == before["cache_hits"] + 1


def test_another_process_finds_the_build_in_the_cache(tmp_path):
    design = tmp_path / "design.py"
    design.write_text(
        "import numpy as np\nfrom aie.iron import ExternalFunction\nfrom npusim import _npusim\n"
        f"src = {ADD3.replace('add3', 'add3_cached')!r}\n"
        "ExternalFunction('add3_cached', source_string=src,\n"
        "                 arg_types=[np.ndarray[(16,), np.dtype[np.int32]]] * 2)\n"
        "print(_npusim.kernel_compiler_stats())\n")
    env = dict(os.environ, NPUSIM_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([CLI, "python", str(design)], capture_output=True, text=True, env=env, timeout=240)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert "'compiles': 1, 'cache_hits': 0" in runs[0].stdout
    assert "'compiles': 0, 'cache_hits': 1" in runs[1].stdout
    assert len(os.listdir(tmp_path / "cache" / "kernels")) == 1


def test_the_kernel_is_compiled_for_the_generation_of_the_run_device(tmp_path):
    design = tmp_path / "arch.py"
    design.write_text(
        "import numpy as np\nfrom aie.iron import ExternalFunction\n"
        "src = '#include <cstdint>\\n#if __AIE_ARCH__ != EXPECT\\n#error wrong generation\\n#endif\\n"
        "extern \"C\" void arch_probe(int32_t* a) {}\\n'\n"
        "ExternalFunction('arch_probe', source_string=src, arg_types=[np.ndarray[(16,), np.dtype[np.int32]]],\n"
        "                 compile_flags=['-DEXPECT=' + __import__('sys').argv[1]])\n"
        "print('ok')\n")
    env = dict(os.environ, NPUSIM_CACHE_DIR=str(tmp_path / "cache"))
    for device, expect in [(None, "21"), ("npu1", "20"), ("npu2", "21"), ("npu1", "21")]:
        args = [CLI, "python"] + (["--device", device] if device else []) + [str(design), expect]
        r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=240)
        if (device, expect) == ("npu1", "21"):
            assert r.returncode != 0 and "error: #error wrong generation" in r.stderr
        else:
            assert r.returncode == 0 and "ok" in r.stdout, r.stderr


def test_a_scalar_argument_given_as_a_dtype_and_inline_kernels():
    # IRON's arg_types take np.dtype(np.int32) for a scalar; inline=True (Peano's LLVM-IR inlining)
    # is the same function. Both as upstream basic/inline_kernel uses them.
    src = ('#include <cstdint>\nextern "C" void add_n(int32_t* in, int32_t* out, int32_t n) {\n'
           '    for (int i = 0; i < 16; ++i) out[i] = in[i] + n;\n}\n')
    k = ExternalFunction("add_n", source_string=src, arg_types=[TILE, TILE, np.dtype(np.int32)], inline=True)
    assert k in ExternalFunction._instances
    # use_chess=True (block_datatypes' gemm kernels) picks the device compiler; the host build is the same
    assert ExternalFunction("add_n", source_string=src, arg_types=[TILE, TILE, np.int32], use_chess=True).name == "add_n"
    of_in, of_out = ObjectFifo(TILE, name="in"), ObjectFifo(TILE, name="out")

    def body(i, o, f):
        x, y = i.acquire(1), o.acquire(1)
        f(x, y, 9)
        i.release(1)
        o.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), k])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
    p = Program(iron.get_current_device(), rt, workers=[w]).resolve_program()
    a = np.arange(64, dtype=np.int32)
    b = np.zeros_like(a)
    npusim.simulate(p, [a, b])
    assert np.array_equal(b, a + 9)


# Stand-ins for mlir-aie's bfp16 kernels (aie_kernels/aie2p/mm_bfp.cc, mm_bfp_mixed.cc): the same
# symbols and signatures, compiled at run time like theirs. Their cost is npusim's model of the
# upstream kernel (harness/UpstreamBfpCosts.hpp), not the default of 32 bytes of views a cycle.
BFP_STUBS = """
#include <aie_api/aie.hpp>
extern "C" {
void matmul_vectorized_bfp16(bfp16ebs8* a, bfp16ebs8* b, bfp16ebs8* c) {}
void matmul_vectorized_different_datatypes(bfloat16* a, bfp16ebs8* b, bfloat16* c) {}
void my_bfp_matmul(bfloat16* a, bfp16ebs8* b, bfloat16* c) {}
}
"""


def test_upstream_bfp16_kernels_compiled_at_run_time_get_their_cost_model():
    from npusim._types import arg_type
    from npusim.helpers.util import v8bfp16ebs8
    from ml_dtypes import bfloat16

    def ext(name, types, flags, arch="aie2p"):
        return _npusim.external_function(name, [arg_type(t) for t in types], source_string=BFP_STUBS,
                                         include_dirs=[], compile_flags=flags, arch=arch)

    bf = lambda r, c: np.ndarray[(r, c), np.dtype[bfloat16]]
    bl = lambda r, c: np.ndarray[(r, c), np.dtype[v8bfp16ebs8]]
    # ATB config1's call: A 32 x 64 bf16, B 64 x 128 in blocks, C the whole 128 x 128 bf16 tile
    mixed = [bf(32, 64), bl(64, 16), bf(128, 128)]
    k = ext("matmul_vectorized_different_datatypes", mixed, ["-DDIM_K=64"])
    # 32 blocks of A converted at 2 cycles, 32 x 64 x 128 / 512 MAC cycles, 16 2x2 steps at 16
    assert k.call_cycles() == 2 * 32 + 512 + 16 * 16
    # the same signature under another name: the default, 32 bytes of views a cycle
    other = ext("my_bfp_matmul", mixed, ["-DDIM_K=64"])
    assert other.call_cycles() == (32 * 64 * 2 + 64 * 16 * 9 + 128 * 128 * 2) // 32
    # ATB config2's pure bfp16 call: never below its MACs at the 512 MAC/cycle peak
    k2 = ext("matmul_vectorized_bfp16", [bl(32, 16), bl(128, 12), bl(192, 12)], ["-DDIM_K=128"])
    assert k2.call_cycles() == 32 * 128 * 96 // 512 + 16 * 12


# Puts every word of its line on the core's output stream port, as magika's group2.cc does.
PUT_STREAM = """
#include <aie_api/aie.hpp>
#include <cstdint>
extern "C" void put_line(int32_t* in, int32_t n) {
    for (int32_t i = 0; i < n; ++i) put_ms(in[i] * 2 + 1, i == n - 1);
}
"""


def stream_out_design(aie_stream):
    of_in = ObjectFifo(TILE, name="in")
    of_out = ObjectFifo(TILE, name="out", aie_stream=aie_stream)
    k = ExternalFunction("put_line", source_string=PUT_STREAM, arg_types=[TILE, np.int32])

    def body(i, o, k):
        x = i.acquire(1)
        k(x, 16)
        i.release(1)

    w = Worker(body, [of_in.cons(), of_out.prod(), k])

    def seq(a, b, hi, ho):
        hi.fill(a)
        ho.drain(b, wait=True)

    rt = Runtime(seq, [VEC, VEC, of_in.prod(), of_out.cons()])
    return Program(iron.get_current_device(), rt, workers=[w])


def test_aie_stream_makes_the_producer_end_the_cores_stream_port():
    # upstream ml/magika/group2.py:116: ObjectFifo(..., aie_stream=(0, 0)); the kernel's put_ms words
    # go from Core:0 to the shim, with no buffer or MM2S channel on the worker's tile.
    prog = stream_out_design((0, 0))
    a = np.arange(64, dtype=np.int32) * 7 - 100
    b = np.zeros_like(a)
    npusim.simulate(prog.resolve_program(), [a, b])
    assert np.array_equal(b, a * 2 + 1)
    m = str(prog.resolve_program())
    assert "aie_stream = 0 : i32" in m and "aie_stream_port = 0 : i32" in m


def test_aie_stream_refusals_name_the_argument_and_upstreams_rule():
    with pytest.raises(npusim.DesignError, match=r"ObjectFifo\(aie_stream=\(3, 0\)\): give \(end, port\) with end 0 "
                                                 r"\(producer\), 1 \(consumer\) or 2 \(both\) and a port >= 0"):
        ObjectFifo(TILE, name="bad", aie_stream=(3, 0))
    # The consumer end a stream port while the runtime drains it: the shim end cannot be one
    # (ObjectFifoCreateOp::verify).
    with pytest.raises(npusim.DesignError, match="`aie_stream` is not available for shim and mem tiles"):
        npusim.simulate(stream_out_design((1, 0)).resolve_program(), [np.zeros(64, np.int32)] * 2)
