// The harness (harness/): the design registry and parameters, design instances and their
// references, .npy files, and runs (`npusim run`).
#include "Designs.hpp"

#include "npusim/harness/DepthAnalysis.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/KernelSet.hpp"
#include "npusim/harness/NpyFile.hpp"
#include "npusim/harness/Sweep.hpp"

#include <new>
#include <stdexcept>

namespace npusim::errcat {

using harness::ArgSpec;
using harness::Tensor;
using harness::Tensors;

namespace {
const TensorType kArg = i32(1024);
/// A DesignInstance 'd' of passthrough(): runtime arguments a (input) and b (output), i32[1024].
harness::DesignInstance instance(std::vector<ArgSpec> args, Tensors inputs, harness::ReferenceFn reference) {
    return harness::DesignInstance(passthrough(), std::move(args), std::move(inputs), std::move(reference), "d");
}
std::vector<ArgSpec> ab() { return {ArgSpec::input("a", kArg), ArgSpec::output("b", kArg)}; }
Tensors a_in() { return {{"a", Tensor(DType::i32, {1024})}}; }
Tensors copy_a(const Tensors& in) { return {{"b", in.at("a")}}; }
} // namespace

void add_harness(Catalog& c) {
    c.component("Harness: designs and parameters",
                "Registered designs, their parameters and kernel sets (`harness/src/DesignRegistry.cpp`, "
                "`DesignSpec.cpp`, `DesignParams.cpp`, `KernelSet.cpp`; the parameter rules are each design's own, "
                "in `examples/src/`).");
    c.site("harness/src/DesignRegistry.cpp");
    c.cli("design.unknown", kDesign, "unknown design 'no_such_design' (designs: <...>); see `npusim list`",
          {"run", "no_such_design"});
    NPUSIM_ERROR(c, "design.register_incomplete", kDesign,
                 "register_design: a design needs a name and a build function",
                 harness::DesignRegistry().add(harness::DesignSpec{}, 0));
    NPUSIM_ERROR(c, "design.register_twice", kDesign, "register_design: a design named 'x' already exists",
                 harness::DesignRegistry r;
                 harness::DesignSpec s = harness::design_by_name("passthrough_kernel"); s.name = "x"; r.add(s, 0);
                 r.add(s, 1));
    c.site("harness/src/DesignSpec.cpp");
    c.cli("design.unknown_parameter", kDesign,
          "design 'passthrough_kernel' has no parameter 'width' (parameters: size, tile, bits)",
          {"run", "passthrough_kernel", "--param", "width=4"});
    c.cli("design.parameter_name", kDesign,
          "design 'matmul_single_core': parameter dtype_in=i4 is not one of bf16, i8, i16",
          {"run", "matmul_single_core", "--param", "dtype_in=i4"});
    NPUSIM_ERROR(
        c, "design.parameter_not_integer", kDesign,
        "design 'passthrough_kernel': parameter size takes an integer, got 'big'",
        harness::design_by_name("passthrough_kernel").resolve_params({{"size", harness::param_name_code("big")}}));
    c.site("harness/src/DesignParams.cpp");
    c.cli("design.parameter_multiple", kDesign,
          "design 'passthrough_kernel': parameter size=1000 must be a positive multiple of tile=1024",
          {"run", "passthrough_kernel", "--param", "size=1000"});
    c.cli("design.parameter_one_of", kDesign, "design 'passthrough_kernel': parameter bits=12 must be one of 8, 16, 32",
          {"run", "passthrough_kernel", "--param", "bits=12"});
    c.cli("design.parameter_vector", kDesign,
          "design 'passthrough_kernel': the AIE-API passThrough kernel works on whole 512-bit vectors of 64 elements; "
          "parameter tile=40 is not a multiple of 64",
          {"run", "passthrough_kernel", "--kernels", "aie", "--param", "size=1000", "--param", "tile=40"});
    c.site("harness/src/KernelSet.cpp");
    NPUSIM_ERROR(c, "design.unknown_kernel_set", kDesign, "unknown kernel set 'hls' (kernel sets: ref, aie)",
                 harness::kernel_set_by_name("hls"));

    c.component("Harness: design instances",
                "A design built for a device: its runtime arguments, generated inputs and golden reference "
                "(`harness/src/DesignInstance.cpp`, `OutputCheck.cpp`, `Tensor.cpp`). `instance(args, inputs, "
                "reference)` is a DesignInstance 'd' of `passthrough()` (arguments i32[1024] a and b); `ab()` "
                "declares a as input and b as output, `a_in()` gives a, `copy_a` is the reference b = a.");
    c.site("harness/src/DesignInstance.cpp");
    NPUSIM_ERROR(c, "instance.argument_count", kDesign,
                 "design 'd' declares 1 runtime arguments, its runtime sequence takes 2",
                 instance({ArgSpec::input("a", kArg)}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.argument_name", kDesign, "design 'd': runtime argument 1 has no name",
                 instance({ArgSpec::input("a", kArg), ArgSpec::output("", kArg)}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.argument_names", kDesign, "design 'd': two runtime arguments are called 'a'",
                 instance({ArgSpec::input("a", kArg), ArgSpec::output("a", kArg)}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.argument_type", kDesign,
                 "design 'd': runtime argument 1 'b' is declared i32[16] but the runtime sequence takes i32[1024]",
                 instance({ArgSpec::input("a", kArg), ArgSpec::output("b", i32(16))}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.ignore_mask", kDesign,
                 "design 'd': the ignore mask of 'b' has 1 entries for 1024 elements",
                 auto b = ArgSpec::output("b", kArg);
                 b.ignore = {1}; instance({ArgSpec::input("a", kArg), b}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.input_missing", kDesign, "design 'd': no generated data for input 'a'",
                 instance(ab(), {}, copy_a));
    NPUSIM_ERROR(c, "instance.input_type", kDesign,
                 "design 'd': generated data for input 'a' is i32[16], the argument is i32[1024]",
                 instance(ab(), {{"a", Tensor(DType::i32, {16})}}, copy_a));
    NPUSIM_ERROR(c, "instance.negative_tolerance", kDesign, "design 'd': output 'b' has a negative tolerance",
                 instance({ArgSpec::input("a", kArg), ArgSpec::output("b", kArg, -1)}, a_in(), copy_a));
    NPUSIM_ERROR(c, "instance.data_not_input", kDesign, "design 'd': generated data 'b' is not an input argument",
                 instance(ab(), {{"a", Tensor(DType::i32, {1024})}, {"b", Tensor(DType::i32, {1024})}}, copy_a));
    NPUSIM_ERROR(c, "instance.no_reference", kDesign, "design 'd' has no reference function",
                 instance(ab(), a_in(), nullptr));
    NPUSIM_ERROR(c, "instance.host_input", kDesign, "design 'd': input 'a' needs a i32[1024] tensor, none given",
                 instance(ab(), a_in(), copy_a).host_tensors(Tensors{}));
    NPUSIM_ERROR(c, "instance.reference_argument", kDesign, "design 'd': reference: no tensor 'x' (tensors: a)",
                 instance(ab(), a_in(), [](const Tensors& in) {
                     return Tensors{{"b", harness::get(in, "x")}};
                 }).expected(a_in()));
    NPUSIM_ERROR(c, "instance.reference_no_output", kDesign, "design 'd': the reference computes no output 'b'",
                 instance(ab(), a_in(), [](const Tensors&) { return Tensors{}; }).expected(a_in()));
    NPUSIM_ERROR(c, "instance.reference_output_type", kDesign,
                 "design 'd': the reference computes i32[16] for output 'b', the argument is i32[1024]",
                 instance(ab(), a_in(), [](const Tensors&) {
                     return Tensors{{"b", Tensor(DType::i32, {16})}};
                 }).expected(a_in()));
    c.site("harness/src/OutputCheck.cpp");
    NPUSIM_ERROR(c, "instance.check_host_count", kDesign,
                 "design 'd': 0 host tensors to check, the design has 2 arguments",
                 instance(ab(), a_in(), copy_a).check({}));
    c.site("harness/src/Tensor.cpp");
    NPUSIM_ERROR(c, "tensor.values_type", kOther, "Tensor::values: the tensor holds i32, not f32",
                 Tensor(DType::i32, {4}).values<float>());
    NPUSIM_ERROR(c, "tensor.from_count", kOther, "Tensor::from: 2 values for a shape of 4 elements",
                 Tensor::from<std::int32_t>({4}, {1, 2}));
    NPUSIM_ERROR(c, "tensor.random_bits_float", kOther,
                 "Tensor::random_bits: f32 is a float type (random bits would include NaNs); draw its values instead",
                 Tensor::random_bits(DType::f32, {4}, 1));
    NPUSIM_ERROR(c, "tensor.data_size", kOther, "Tensor i32[4]: 3 bytes of data, expected 16",
                 Tensor(DType::i32, {4}, std::vector<std::uint8_t>(3)));
    NPUSIM_ERROR(c, "tensor.get", kOther, "no tensor 'a' (tensors: none)", harness::get(Tensors{}, "a"));

    add_npy(c); // catalog/Npy.cpp, in this place of the page

    c.component("Harness: runs",
                "`npusim run` and `harness::run_design` (`harness/src/DesignRunner.cpp`, `DepthAnalysis.cpp`).");
    c.site("harness/src/DesignRunner.cpp");
    c.cli("run.no_such_argument", kDesign, "--input: design 'passthrough_kernel' has no argument 'x' (inputs: in)",
          {"run", "passthrough_kernel", "--input", "x=$TMP/x.npy"});
    c.cli("run.argument_role", kDesign,
          "--input: argument 'out' of design 'passthrough_kernel' is an output, not an input (inputs: in)",
          {"run", "passthrough_kernel", "--input", "out=$TMP/x.npy"});
    c.cli("run.npy_dtype", kFile,
          "'$TMP/x.npy': dtype int32 ('<i4') does not match input 'in' of design 'passthrough_kernel', which is uint8 "
          "('|u1'), shape (4096,)",
          {"run", "passthrough_kernel", "--input", "in=$TMP/x.npy"},
          "python3 -c 'import numpy as np; np.save(\"$TMP/x.npy\", np.zeros(4096, np.int32))'",
          [](const Context& ctx) { harness::NpyFile::write(ctx.tmp + "/x.npy", Tensor(DType::i32, {4096})); });
    c.cli("run.npy_shape", kFile,
          "'$TMP/x.npy': shape (64, 64) does not match input 'in' of design 'passthrough_kernel', which has shape "
          "(4096,) (uint8)",
          {"run", "passthrough_kernel", "--input", "in=$TMP/x.npy"},
          "python3 -c 'import numpy as np; np.save(\"$TMP/x.npy\", np.zeros((64, 64), np.uint8))'",
          [](const Context& ctx) {
              harness::NpyFile::write(ctx.tmp + "/x.npy", Tensor(DType::u8, {64, 64}));
          });
    c.cli("run.device", kDesign,
          "design 'matmul_whole_array' does not run on npu1_3col (devices: npu1_1col, npu1_2col, npu1, npu2_1col, "
          "npu2_2col, npu2_4col, npu2_5col, npu2_6col, npu2_7col, npu2)",
          {"run", "matmul_whole_array", "--device", "npu1_3col"});
    c.cli("run.kernel_set", kDesign,
          "design 'passthrough_dmas' has no AIE-API kernel build (no kernel: data moves by DMA only); designs with "
          "one: <...>",
          {"run", "passthrough_dmas", "--kernels", "aie"});
    NPUSIM_ERROR(c, "run.negative_tolerance", kDesign, "tolerances must not be negative (rtol -1, atol 0)",
                 harness::RunOptions o;
                 o.rtol = -1; harness::run_design(harness::design_by_name("passthrough_kernel"), "npu1_1col", {}, o));
    NPUSIM_ERROR(c, "run.host_memory", kDesign,
                 "design 'passthrough_kernel' (bits=8 size=4096 tile=1024) on npu1_1col: its runtime arguments take "
                 "8 KiB and a run needs about <...>, more than the 16 KiB of host memory available",
                 harness::RunOptions o;
                 o.host_memory_bytes = 16 << 10;
                 harness::run_design(harness::design_by_name("passthrough_kernel"), "npu1_1col", {}, o));
    c.cli("run.host_memory_limit", kDesign,
          "design 'passthrough_kernel' (bits=8 size=100000000000000 tile=1024) on npu1_1col: its runtime arguments "
          "take 181.9 TiB and a run needs about 3 times that (545.7 TiB), more than the <...> of host memory "
          "available (<...>)",
          {"run", "passthrough_kernel", "--param", "size=100000000000000"});
    NPUSIM_ERROR(c, "run.out_of_host_memory", kDesign,
                 "design 'x' (bits=8 size=4096 tile=1024) on npu1_1col: out of host memory (std::bad_alloc) while "
                 "building the design and generating its inputs; 1 GiB of host memory was available when the run "
                 "started",
                 harness::DesignSpec s = harness::design_by_name("passthrough_kernel"); s.name = "x";
                 s.build = [](const model::DeviceSpec&, const harness::Params&,
                              const harness::BuildOptions&) -> harness::DesignInstance { throw std::bad_alloc(); };
                 harness::RunOptions o; o.host_memory_bytes = 1 << 30; harness::run_design(s, "npu1_1col", {}, o));
    c.internal("run.out_of_host_memory_early",
               "design '<...>' on <...>: out of host memory (std::bad_alloc) while starting",
               "A std::bad_alloc before the run's memory limit is known: while its device and parameters are "
               "checked, which allocate a few strings.");
    NPUSIM_ERROR(c, "run.iters", kDesign, "design 'passthrough_kernel': --iters must be at least 1",
                 harness::RunOptions o;
                 o.iters = 0; harness::run_design(harness::design_by_name("passthrough_kernel"), "npu1_1col", {}, o));
    // npusim run checks the folder before the run (process.save_outputs_parent); a library caller
    // gets this from run_design.
    NPUSIM_ERROR(c, "run.save_directory", kFile, "cannot create directory '/dev/null/out': Not a directory",
                 harness::RunOptions o;
                 o.save_dir = "/dev/null/out";
                 harness::run_design(harness::design_by_name("passthrough_kernel"), "npu1_1col", {}, o));
    c.site("harness/src/DepthAnalysis.cpp");
    c.cli("run.depth_device", kDesign, "design 'matmul_whole_array' does not run on npu1_3col",
          {"depth", "matmul_whole_array", "--device", "npu1_3col"});
    NPUSIM_ERROR(c, "run.depth_max_depth", kDesign, "depth analysis: max depth 64 must be within 1..63",
                 harness::DepthAnalysis(harness::design_by_name("passthrough_kernel"), "npu1_1col", {.max_depth = 64}));
    c.site("harness/src/ForkPool.cpp");
    c.internal("run.workers_fork", "worker processes: fork: Resource temporarily unavailable",
               "Only when the operating system refuses `npusim depth` or `npusim sweep` a worker process (out of "
               "processes or memory); a fork that fails while others run is retried when one has finished.");
    c.internal("run.workers_pipe", "worker processes: pipe: Too many open files",
               "Only when the operating system refuses a pipe to a worker process (out of file descriptors).");
    c.internal("run.workers_poll", "worker processes: poll: Invalid argument",
               "Only when poll on the worker processes' pipes fails for another reason than an interrupting "
               "signal (EINTR is retried).");
    c.site("harness/src/Sweep.cpp");
    c.cli("run.sweep_twice", kDesign, "sweep of 'passthrough_kernel': parameter 'tile' is swept twice",
          {"sweep", "passthrough_kernel", "--param", "tile=64", "--param", "tile=128"});
    NPUSIM_ERROR(c, "run.sweep_no_device", kDesign, "sweep of 'passthrough_kernel': no device given",
                 harness::sweep_points(harness::design_by_name("passthrough_kernel"), {}, {}));
    NPUSIM_ERROR(c, "run.sweep_no_values", kDesign, "sweep of 'passthrough_kernel': parameter 'tile' has no values",
                 harness::sweep_points(harness::design_by_name("passthrough_kernel"), {"npu1_1col"}, {{"tile", {}}}));
    NPUSIM_ERROR(c, "run.sweep_too_many", kDesign,
                 "sweep of 'passthrough_kernel': more than 4 points; sweep fewer values",
                 harness::sweep_points(harness::design_by_name("passthrough_kernel"), {"npu1_1col", "npu2"},
                                       {{"tile", {64, 128, 256}}}, 4));
    c.cli("run.sweep_device", kDesign, "design 'matmul_whole_array' does not run on npu1_3col",
          {"sweep", "matmul_whole_array", "--device", "npu2,npu1_3col"});

    add_kernel_library(c);
    add_kernel_library_split(c);

    c.component("Example designs",
                "The parameter rules of the registered designs (`examples/src/`), as `npusim run DESIGN --param K=V` "
                "reports them; `harness::require_multiple` and its kin are under Harness: designs and parameters.");
    c.site("examples/src/InitValuesRepeat.cpp");
    c.cli("example.init_values_repeat", kDesign,
          "design 'init_values_repeat': N=4096 must be positive and repeat=0 in 1..256",
          {"run", "init_values_repeat", "--param", "repeat=0"});
    c.site("examples/src/InvocationCounter.cpp");
    c.cli("example.invocation_counter", kDesign, "design 'invocation_counter': n=300 must divide N=1024",
          {"run", "invocation_counter", "--param", "n=300"});
    c.site("examples/src/DmaPadding.cpp");
    c.cli("example.dma_padding", kDesign,
          "design 'dma_padding': real=0 and count=4 must be positive, before=4 and after=4 not negative",
          {"run", "dma_padding", "--param", "real=0"});
    c.site("examples/src/ScratchpadParams.cpp");
    c.cli("example.scratchpad_offset", kDesign, "design 'scratchpad_offset': offset=-1 must not be negative",
          {"run", "scratchpad_offset", "--device", "npu2", "--param", "offset=-1"});
    c.site("examples/src/MatmulCommon.cpp");
    c.cli("example.matmul_dtypes", kDesign,
          "design 'matmul_whole_array': dtype_in=i16 dtype_out=i8 is not a combination the mm kernel builds (i8->i8, "
          "i8->i16, i8->i32, i16->i16, i16->i32, bf16->bf16, bf16->f32)",
          {"run", "matmul_whole_array", "--device", "npu1", "--param", "dtype_in=i16", "--param", "dtype_out=i8"});
    c.internal("example.matmul_reference_input", "matmul::reference: an input is i32[16], not i16[64]",
               "Only if a matmul design hands its golden a tensor other than the A or B it generated (both are "
               "built from the same M, K, N and dtype_in).");
    c.site("examples/src/GemmMod32.cpp");
    c.internal("example.gemm_path_avx2", "gemm_mod32: the AVX2 path was asked for on a CPU without AVX2",
               "The goldens ask for the best path the CPU has; only a test naming a path asks for one, and it asks "
               "only where gemm_mod32_has_avx2().");
    c.internal("example.gemm_path_vnni", "gemm_mod32: the AVX512-VNNI path was asked for on a CPU without it",
               "As example.gemm_path_avx2, for gemm_mod32_has_vnni().");
    c.internal("example.matmul_no_kernel", "matmul: no kernel for i16 -> i8",
               "matmul::dtypes and the mm factory admit only the seven combinations the kernel bindings "
               "(harness/include/npusim/harness/KernelLibraryLinalg.hpp with_mm_types) have.");
    c.cli("example.matmul_shim_tasks", kDesign,
          "design 'matmul_single_core': one row block's fills need 8 (A) and 8 (B) shim tasks on one channel, more "
          "than its 4-deep task queue (a repeat over 2^6 is split into several tasks); use a larger n or more columns",
          {"run", "matmul_single_core", "--param", "M=64", "--param", "K=64", "--param", "N=4096", "--param", "n=8"});
    c.site("examples/src/MatmulSingleCore.cpp");
    c.cli("example.matmul_single_core_tile", kDesign,
          "design 'matmul_single_core': m=4 k=32 n=32 must be multiples of 2r=8, s=4, 2t=8 on npu1_1col",
          {"run", "matmul_single_core", "--param", "m=4"});
    c.cli("example.matmul_single_core_row_blocks", kDesign,
          "design 'matmul_single_core': M/m=3 must be even (two row blocks per task group)",
          {"run", "matmul_single_core", "--param", "M=96", "--param", "m=32"});
    c.site("examples/src/MatmulBfp16.cpp");
    c.cli("example.matmul_bfp16_tile", kDesign,
          "design 'matmul_bfp16': m=64 k=16 n=64 must be multiples of 16, 32, 32 (the 2x2 8x8x8 kernel and 9-byte "
          "blocks in 4-byte DMA words)",
          {"run", "matmul_bfp16", "--device", "npu2_1col", "--param", "k=16"});
    c.site("examples/src/MatmulCascade.cpp");
    c.cli("example.matmul_cascade_cols", kDesign,
          "design 'matmul_cascade': cols=3 is not supported: 1, 2 or 4 columns (each A shim feeds 4 / cols rows)",
          {"run", "matmul_cascade", "--device", "npu1", "--param", "cols=3"});
    c.cli("example.matmul_cascade_shape", kDesign,
          "design 'matmul_cascade': M=512 must be a multiple of m=32, K=96 of 4k=128, N=512 of n*cols=128",
          {"run", "matmul_cascade", "--device", "npu1", "--param", "K=96"});
    c.site("examples/src/MatmulWholeArray.cpp");
    c.cli("example.matmul_whole_array_cols", kDesign,
          "design 'matmul_whole_array': cols=3 must be 1, 2 or 4..4 on npu1 (whole_array.py n_A_tiles_per_shim = 4 "
          "// cols must divide the 4 rows)",
          {"run", "matmul_whole_array", "--device", "npu1", "--param", "cols=3"});
    c.cli("example.matmul_whole_array_row_blocks", kDesign,
          "design 'matmul_whole_array': M/m/4=3 must be even (each drain covers 2 row blocks of 4m rows: "
          "whole_array.py tb_n_rows = 2)",
          {"run", "matmul_whole_array", "--device", "npu1", "--param", "M=768"});
    c.cli("example.matmul_whole_array_sizes", kDesign,
          "design 'matmul_whole_array': M=500 must be a multiple of 4m=256, K=512 of k=64, N=512 of n*cols=128",
          {"run", "matmul_whole_array", "--device", "npu1", "--param", "M=500"});
    c.cli("example.matmul_whole_array_tile", kDesign,
          "design 'matmul_whole_array': m=64 k=64 n=4 must be multiples of 2r=8, s=4, 2t=8 on npu1",
          {"run", "matmul_whole_array", "--device", "npu1", "--param", "n=4"});
    c.site("examples/src/Memcpy.cpp");
    c.cli("example.memcpy_columns", kDesign,
          "design 'memcpy': parameter columns=2 does not fit device npu1_1col, which has 1 column",
          {"run", "memcpy", "--param", "columns=2"});
    c.cli("example.memcpy_size", kDesign,
          "design 'memcpy': parameter size=1000 must be a positive multiple of 1024 (1024-element lines x columns=1 x "
          "channels=1)",
          {"run", "memcpy", "--param", "size=1000"});
    c.site("examples/src/ChainingChannels.cpp");
    c.cli("example.chaining_channels_n", kDesign,
          "design 'chaining_channels': parameter n must be within 1..4096",
          {"run", "chaining_channels", "--param", "n=0"});
    c.site("examples/src/CustomDma.cpp");
    c.cli("example.custom_dma_cols", kDesign, "design 'custom_dma': parameter cols must be within 1..1024",
          {"run", "custom_dma", "--param", "cols=2000"});
    c.site("examples/src/ManualSwitchbox.cpp");
    c.cli("example.manual_switchbox_n", kDesign, "design 'manual_switchbox': parameter n must be within 1..2048",
          {"run", "manual_switchbox", "--param", "n=4096"});
    c.site("examples/src/Relu.cpp");
    c.cli("example.relu_columns", kDesign,
          "design 'relu': parameter columns=5 does not fit device npu1, which has 4 columns",
          {"run", "relu", "--device", "npu1", "--param", "columns=5"});
    c.cli("example.relu_size", kDesign,
          "design 'relu': parameter size=1024 must be a positive multiple of 8192 (tile_size 1024 x columns=4 x "
          "channels=2)",
          {"run", "relu", "--device", "npu1", "--param", "size=1024"});
    c.site("examples/src/EdgeDetect.cpp");
    c.cli("example.edge_detect_width", kDesign,
          "design 'edge_detect': parameter width=100 must be a multiple of 32 and at least 64 (filter2dLine "
          "processes 32 pixels a step, with a first and a last step)",
          {"run", "edge_detect", "--param", "width=100"});
    c.cli("example.edge_detect_height", kDesign,
          "design 'edge_detect': parameter height=1 must be at least 2 (the filter's top and bottom borders)",
          {"run", "edge_detect", "--param", "height=1"});
    c.site("examples/src/ColorDetect.cpp");
    c.cli("example.color_detect_width", kDesign,
          "design 'color_detect': parameter width=96 must be a positive multiple of 64 (thresholdLine and "
          "bitwiseORLine process 64 u8 lanes a step)",
          {"run", "color_detect", "--param", "width=96"});
    c.cli("example.color_detect_height", kDesign, "design 'color_detect': parameter height=0 must be positive",
          {"run", "color_detect", "--param", "height=0"});
    c.site("examples/src/ColorThreshold.cpp");
    c.cli("example.color_threshold_width", kDesign,
          "design 'color_threshold': parameter width=100 must be a positive multiple of 64 (thresholdLine processes "
          "64 u8 lanes a step)",
          {"run", "color_threshold", "--param", "width=100"});
    c.cli("example.color_threshold_height", kDesign,
          "design 'color_threshold': parameter height=10 must be a positive multiple of 4 (the W x H byte image is "
          "read in RGBA lines of 4W bytes)",
          {"run", "color_threshold", "--param", "height=10"});
    c.site("examples/src/Softmax.cpp");
    c.cli("example.softmax_size", kDesign,
          "design 'softmax': parameter size=4096 must be a positive multiple of 8192 (tile_size 1024 x columns=4 x "
          "channels=2)",
          {"run", "softmax", "--device", "npu1", "--param", "size=4096"});
    c.site("examples/src/Swiglu.cpp");
    c.cli("example.swiglu_size", kDesign,
          "design 'swiglu': parameter size=2048 must be a positive multiple of 4096 (1024-element lines x "
          "columns=4)",
          {"run", "swiglu", "--device", "npu1", "--param", "size=2048"});
    c.cli("example.swiglu_columns", kDesign,
          "design 'swiglu': parameter columns=5 exceeds device npu1's 4 columns (or is below 1)",
          {"run", "swiglu", "--device", "npu1", "--param", "columns=5"});
    c.site("examples/src/RmsNorm.cpp");
    c.cli("example.rms_norm_rows", kDesign,
          "design 'rms_norm': parameter sequence_length=12 must be a positive multiple of 8 (the cores)",
          {"run", "rms_norm", "--device", "npu2", "--param", "sequence_length=12"});
    c.cli("example.rms_norm_cols", kDesign,
          "design 'rms_norm': parameter embedding_dim=100 must be a positive multiple of 16 (the kernel's vector)",
          {"run", "rms_norm", "--device", "npu2", "--param", "embedding_dim=100"});
    c.site("examples/src/Conv2d.cpp");
    c.cli("example.conv2d_width", kDesign,
          "design 'conv2d': parameter width=12: width must be a multiple of 8 and >= 8 (conv2d.py)",
          {"run", "conv2d", "--param", "width=12"});
    c.cli("example.conv2d_channels", kDesign,
          "design 'conv2d': parameters in_channels=12 and out_channels=64 must be multiples of 8 and >= 8 (conv2d.py)",
          {"run", "conv2d", "--param", "in_channels=12"});
    c.cli("example.conv2d_height", kDesign,
          "design 'conv2d': parameter height=3 must be even and at least 2 (conv2d.py requires height > 1; the "
          "mem-tile fifos hold 2 rows per object, so the last row of an odd height would never be forwarded)",
          {"run", "conv2d", "--param", "height=3"});
    c.cli("example.conv2d_scale", kDesign, "design 'conv2d': parameter scale=40 must be in 0..31",
          {"run", "conv2d", "--param", "scale=40"});
    c.site("examples/src/PerTile.cpp");
    c.cli("example.per_tile", kDesign, "design 'per_tile': tiles 3x2 must divide the tensor 8x8",
          {"run", "per_tile", "--param", "th=3"});
    c.site("examples/src/RowWiseBiasAdd.cpp");
    c.cli("example.row_wise_bias_add", kDesign,
          "design 'row_wise_bias_add': the kernel adds the bias in 32-float vectors; parameter n=16 is not a multiple "
          "of 32",
          {"run", "row_wise_bias_add", "--param", "n=16"});
    c.site("examples/src/TransposeDma.cpp");
    c.cli("example.transpose_dma", kDesign, "design 'transpose_dma': parameters M=0 and K=64 must be positive",
          {"run", "transpose_dma", "--param", "M=0"});
    c.site("examples/src/VecVecAddObjfifoInit.cpp");
    c.cli("example.vec_vec_add_objfifo_init", kDesign, "design 'vec_vec_add_objfifo_init': n=7 must divide N=256",
          {"run", "vec_vec_add_objfifo_init", "--param", "n=7"});
    c.site("examples/src/VectorReduceMaxMemtile.cpp");
    c.cli("example.vector_reduce_max_memtile", kDesign,
          "design 'vector_reduce_max_memtile': parameter size=1000 must be a positive multiple of 2048 (one of_in "
          "object)",
          {"run", "vector_reduce_max_memtile", "--device", "npu1", "--param", "size=1000"});
    c.site("examples/src/ReduceMaxKernels.hpp");
    c.cli("example.reduce_max_vectors", kDesign,
          "design 'vector_reduce_max': reduce_max_vector reads whole 16 x i32 vectors, at least 8 of them; size = 100 "
          "is not a multiple of 16 of at least 128",
          {"run", "vector_reduce_max", "--param", "size=100"});
    c.internal("example.reduce_max_empty", "reduce_max of an empty tensor",
               "The designs' parameters refuse an empty input first (example.reduce_max_vectors, "
               "example.vector_reduce_max_memtile).");
    c.site("examples/src/StreamPortPassthrough.cpp");
    c.internal("example.stream_kernel_outside_core", "passThroughStream called outside a worker's kernel call",
               "The design's reference kernel is only called through its Kernel inside the worker body, and Kernel "
               "calls outside a worker body are refused first ('kernel ... called outside a worker body').");
}

} // namespace npusim::errcat
