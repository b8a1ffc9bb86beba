// The command line (tools/): usage errors, output files, and what ends the process (the crash
// reporter, the wall-clock watchdog). catalog_* designs are registered by the catalog itself: native
// code that crashes or never returns, which no example design has.
#include "Designs.hpp"

#include "OutputPaths.hpp"

#include "npusim/harness/DesignRegistry.hpp"

#include <cstdlib>
#include <cstring>
#include <ostream>

namespace npusim::errcat {

namespace {
// A registered design around passthrough(pass(params)) (objects of i32[256]): arguments a (input)
// and b (output), i32[1024], the reference b = a.
void register_catalog_design(const std::string& name, const std::string& what, std::vector<harness::ParamSpec> params,
                             std::function<Pass(const harness::Params&)> pass, const std::string& out = "b") {
    harness::DesignSpec s;
    s.name = name;
    s.description = what;
    s.devices = {"npu1_1col"};
    s.params = std::move(params);
    s.build = [pass, name, out](const model::DeviceSpec&, const harness::Params& p, const harness::BuildOptions&) {
        const auto t = i32(1024);
        return harness::DesignInstance(
            errcat::passthrough(pass(p)), {harness::ArgSpec::input("a", t), harness::ArgSpec::output(out, t)},
            harness::tensors("a", harness::Tensor(DType::i32, {1024})),
            [out](const harness::Tensors& x) {
                return harness::Tensors{{out, x.at("a")}};
            },
            name);
    };
    harness::register_design(std::move(s));
}

void register_catalog_designs() {
    static bool done = false;
    if (done) return;
    done = true;
    register_catalog_design("catalog_crash", "error catalog: native code that crashes",
                            {{"how", 0,
                              "0: a 16 MiB local array in a kernel, 1: a kernel divides by zero, 2: the body "
                              "traps in its resolve-time trace, 3: a kernel calls abort(), 4: a kernel calls "
                              "exit(0), 5: a kernel writes 64 KiB past its view"}},
                            [](const harness::Params& p) {
                                const auto how = p.at("how");
                                // Two functions: the 16 MiB frame of the first would overflow any call.
                                Kernel big(
                                    "big_local",
                                    [](std::span<const KernelArg> a) {
                                        constexpr std::size_t kBytes = 16u << 20;
                                        volatile char local[kBytes];
                                        for (std::size_t i = kBytes; i >= 4096; i -= 4096) local[i - 1] = 1;
                                        std::memcpy(a[0].data, const_cast<const char*>(&local[kBytes - 64]), 64);
                                    },
                                    {i32(256)}, cost::fixed(10));
                                Kernel divide(
                                    "divide",
                                    [](std::span<const KernelArg> a) {
                                        volatile int n = 7, zero = 0;
                                        *reinterpret_cast<int*>(a[0].data) = n / zero;
                                    },
                                    {i32(256)}, cost::fixed(10));
                                Kernel quit(
                                    "quit",
                                    [how](std::span<const KernelArg> a) {
                                        if (how == 3) std::abort();
                                        if (how == 4) std::exit(0);
                                        auto* y = reinterpret_cast<std::int32_t*>(a[0].data);
                                        for (std::size_t i = 256; i < 256 + 16384; ++i) y[i] = 7;
                                    },
                                    {i32(256)}, cost::fixed(10));
                                Kernel k = how == 0 ? big : how == 1 ? divide : quit;
                                return Pass{.body = [k, how](F in, F out) {
                                    if (how == 2) __builtin_trap();
                                    k(out.acquire(1));
                                    copy(in, out);
                                }};
                            });
    register_catalog_design("catalog_spin", "error catalog: native code that never returns",
                            {{"where", 0, "0: in a kernel, 1: in the body during the resolve-time trace"}},
                            [](const harness::Params& p) {
                                Kernel k(
                                    "spin",
                                    [](std::span<const KernelArg>) {
                                        volatile bool forever = true;
                                        while (forever) {}
                                    },
                                    {i32(256)}, cost::fixed(10));
                                const bool in_body = p.at("where") == 1;
                                return Pass{.body =
                                                [k, in_body](F in, F out) {
                                                    volatile bool forever = in_body;
                                                    while (forever) {}
                                                    k(out.acquire(1));
                                                    copy(in, out);
                                                },
                                            .worker = {.name = "spinner"}};
                            });
    register_catalog_design("catalog_escape", "error catalog: an output named as a path", {},
                            [](const harness::Params&) { return Pass{}; }, "../b");
}
} // namespace

void add_cli(Catalog& c) {
    register_catalog_designs();
    c.component("CLI: usage", "Command lines npusim does not take: the usage text, then the error (`tools/Cli.cpp`, "
                              "`tools/RunArgs.cpp`, `tools/CliOptions.cpp`, `tools/CliSupport.cpp`, `tools/DepthCommand.cpp`); CLI11 parses the command line and "
                              "its own errors are worded as npusim's.");
    c.site("tools/Cli.cpp");
    c.cli("usage.unknown_command", kUsage, "unknown command 'frobnicate'", {"frobnicate"});
    c.site("tools/RunCommand.cpp");
    c.cli("usage.run_without_design", kUsage, "run: which design? (see `npusim list`)", {"run"});
    c.site("tools/Cli.cpp");
    c.cli("usage.unknown_top_option", kUsage, "unknown option '--fast'", {"--fast"});
    c.cli("usage.unexpected_after_dashes", kUsage, "run: unexpected argument 'twice'",
          {"run", "passthrough_kernel", "--", "twice"});
    c.site("tools/InfoCommands.cpp");
    c.cli("usage.help_unknown_command", kUsage, "help: unknown command 'frobnicate'", {"help", "frobnicate"});
    c.site("tools/RunArgs.cpp");
    c.cli("usage.number", kUsage, "--rtol expects a non-negative number, got 'x'",
          {"run", "passthrough_kernel", "--rtol", "x"});
    c.site("tools/CliSupport.cpp");
    c.cli("usage.named_file", kUsage, "--input expects NAME=FILE.npy, got 'in'",
          {"run", "passthrough_kernel", "--input", "in"});
    c.cli("usage.named_file_twice", kUsage, "--input in is given twice",
          {"run", "passthrough_kernel", "--input", "in=a.npy", "--input", "in=b.npy"});
    c.site("tools/RunArgs.cpp");
    c.cli("usage.core_stack", kUsage, "--core-stack expects 1048576 up to 1073741824 bytes (1 GiB), got 1000",
          {"run", "passthrough_kernel", "--core-stack", "1000"});
    c.cli("usage.timeout", kUsage, "--timeout expects 0 (none) up to 604800 seconds (a week), got 1e19",
          {"run", "passthrough_kernel", "--timeout", "1e19"});
    c.cli("usage.kernel_threads", kUsage, "--kernel-threads expects 0 up to 256 threads, got 1000",
          {"run", "passthrough_kernel", "--kernel-threads", "1000"});
    c.site("tools/WhatIf.cpp");
    c.cli("usage.what_if", kUsage,
          "--what-if: unknown ablation 'free-dma' (one of: free-kernels, unlimited-ddr, ideal-locks, "
          "zero-host-latency, all, sensitivity)",
          {"run", "passthrough_kernel", "--what-if", "free-dma"});
    c.site("tools/CompareDevices.cpp");
    c.cli("usage.device_list_empty", kUsage, "--device 'npu1,,npu2': an empty device name in the list",
          {"run", "passthrough_kernel", "--device", "npu1,,npu2"});
    c.cli("usage.device_list_files", kUsage,
          "--trace, --vcd, --dot and --html write one run's files: give one device, not a --device list",
          {"run", "passthrough_kernel", "--device", "npu1,npu2", "--vcd", "w.vcd"});
    c.cli("usage.device_list_save", kUsage, "--save-outputs writes one run's files: give one device, not a list",
          {"run", "passthrough_kernel", "--device", "npu1,npu2", "--save-outputs", "out"});
    c.cli("usage.device_list_what_if", kUsage,
          "--what-if compares ablations on one device: give one device, not a list",
          {"run", "passthrough_kernel", "--device", "npu1,npu2", "--what-if", "all"});
    c.cli("usage.device_list_netlist", kUsage, "--netlist prints one device's netlist: give one device, not a list",
          {"run", "passthrough_kernel", "--device", "npu1,npu2", "--netlist"});
    c.site("tools/RunArgs.cpp");
    c.cli("usage.kernels", kUsage, "--kernels expects ref or aie, got 'hls'",
          {"run", "passthrough_kernel", "--kernels", "hls"});
    c.cli("usage.tolerance", kUsage, "--tolerance expects allclose or nearly-equal, got 'exact'",
          {"run", "passthrough_kernel", "--tolerance", "exact"});
    c.cli("usage.iters", kUsage, "--iters expects 1 up to 1000000, got 0",
          {"run", "passthrough_kernel", "--iters", "0"});
    c.cli("usage.alloc_scheme", kUsage, "--alloc-scheme expects bank-aware or basic-sequential, got 'best'",
          {"run", "passthrough_kernel", "--alloc-scheme", "best"});
    c.site("tools/Cli.cpp");
    c.cli("usage.args_alloc_scheme", kUsage, "args: unknown option '--alloc-scheme'",
          {"args", "passthrough_kernel", "--alloc-scheme", "bank-aware"});
    c.site("tools/InfoCommands.cpp");
    c.cli("usage.args_without_design", kUsage, "args: which design? (see `npusim list`)", {"args"});
    c.site("tools/Cli.cpp");
    c.cli("usage.timing_argument", kUsage, "timing: unknown option '--fast'", {"timing", "--fast"});
    c.cli("usage.list_argument", kUsage, "list: unexpected argument 'all'", {"list", "all"});
    c.cli("usage.devices_argument", kUsage, "devices: unknown option '--fast'", {"devices", "--fast"});
    c.site("tools/RunArgs.cpp");
    c.cli("usage.trace_format", kUsage, "--trace-format expects rich or mlir-aie, got 'ctf'",
          {"run", "passthrough_kernel", "--trace", "t.json", "--trace-format", "ctf"});
    c.site("tools/RunCommand.cpp");
    c.cli("usage.trace_format_without_trace", kUsage, "--trace-format mlir-aie needs --trace FILE.json",
          {"run", "passthrough_kernel", "--trace-format", "mlir-aie"});
    c.site("tools/Cli.cpp");
    c.cli("usage.takes_no_value", kUsage, "--json takes no value", {"run", "passthrough_kernel", "--json=yes"});
    c.cli("usage.needs_value", kUsage, "--device needs a value", {"run", "passthrough_kernel", "--device"});
    c.site("tools/OutputPaths.cpp");
    c.cli("usage.output_name", kUsage, "--trace needs a file name", {"run", "passthrough_kernel", "--trace", ""});
    c.cli("usage.same_output", kUsage,
          "--trace and --vcd name the same file 'x.json': each output needs its own file",
          {"run", "passthrough_kernel", "--trace", "x.json", "--vcd", "x.json"});
    c.site("tools/CliOptions.cpp");
    c.cli("usage.unknown_option", kUsage, "run: unknown option '--fast'", {"run", "passthrough_kernel", "--fast"});
    c.cli("usage.unexpected_argument", kUsage, "run: unexpected argument 'twice'", {"run", "passthrough_kernel", "twice"});
    c.cli("usage.option_as_value", kUsage,
          "--trace needs a value, got the option '--alloc-scheme' (a file of that name: ./--alloc-scheme)",
          {"run", "passthrough_kernel", "--trace", "--alloc-scheme", "bank-aware"});
    c.site("tools/CliSupport.cpp");
    c.cli("usage.integer", kUsage, "--max-cycles expects a non-negative integer, got 'many'",
          {"run", "passthrough_kernel", "--max-cycles", "many"});
    c.cli("usage.param_integer", kUsage, "--param size expects an integer, got 'big'",
          {"run", "passthrough_kernel", "--param", "size=big"});
    c.cli("usage.param_format", kUsage, "--param expects K=V, got 'tile'",
          {"run", "passthrough_kernel", "--param", "tile"});
    c.site("tools/DepthCommand.cpp");
    c.cli("usage.depth_range", kUsage, "--jobs expects an integer in 1..256, got '0'",
          {"depth", "passthrough_kernel", "--jobs", "0"});
    c.cli("usage.depth_csv_name", kUsage, "--csv needs a file name", {"depth", "passthrough_kernel", "--csv", ""});
    c.cli("usage.depth_unknown_option", kUsage, "depth: unknown option '--fast'",
          {"depth", "passthrough_kernel", "--fast"});
    c.cli("usage.depth_unexpected_argument", kUsage, "depth: unexpected argument 'twice'",
          {"depth", "passthrough_kernel", "twice"});
    c.cli("usage.depth_without_design", kUsage, "depth: which design? (see `npusim list`)", {"depth"});
    c.site("tools/SweepCommand.cpp");
    c.cli("usage.sweep_param", kUsage, "--param expects K=V or K=V1,V2,..., got 'tile='",
          {"sweep", "passthrough_kernel", "--param", "tile="});
    c.cli("usage.sweep_device", kUsage, "--device expects D or D1,D2,...",
          {"sweep", "passthrough_kernel", "--device", "npu2,"});
    c.cli("usage.sweep_kernels", kUsage, "--kernels expects ref or aie, got 'fast'",
          {"sweep", "passthrough_kernel", "--kernels", "fast"});
    c.cli("usage.sweep_csv_name", kUsage, "--csv needs a file name", {"sweep", "passthrough_kernel", "--csv", ""});
    c.cli("usage.sweep_unknown_option", kUsage, "sweep: unknown option '--fast'",
          {"sweep", "passthrough_kernel", "--fast"});
    c.cli("usage.sweep_unexpected_argument", kUsage, "sweep: unexpected argument 'twice'",
          {"sweep", "passthrough_kernel", "twice"});
    c.cli("usage.sweep_without_design", kUsage, "sweep: which design? (see `npusim list`)", {"sweep"});

    c.component("CLI: output files and the process",
                "Output files that cannot be written - each output path is checked before the work starts "
                "(`tools/OutputPaths.cpp`) and each trace, report and graph is written under a temporary name and "
                "renamed when complete (`traces/src/OutputFile.cpp`) - and what ends the process: a crash in native "
                "design code (`tools/CrashReporter.cpp`), native code calling exit() during a run and the wall-clock "
                "watchdog of `--timeout` (`tools/RunGuard.cpp`; every simulation of `run` - a single device, each "
                "device of a list, each --what-if rerun - is guarded alike) and an interrupt, each reported as "
                "run_cli reports an error, the error document with --json (`tools/ExitReport.cpp`). The catalog_* "
                "designs are registered by the catalog (`tests/docs/catalog/Cli.cpp`): native code that crashes, "
                "ends the process or never returns, which no example design has.");
    c.site("tools/OutputPaths.cpp");
    c.cli("process.output_file", kFile, "cannot write --trace '/nonexistent/t.json': No such file or directory",
          {"run", "passthrough_kernel", "--trace", "/nonexistent/t.json"});
    c.cli("process.html_file", kFile, "cannot write --html '/nonexistent/r.html': No such file or directory",
          {"run", "passthrough_kernel", "--html", "/nonexistent/r.html"});
    c.cli("process.output_directory", kFile, "cannot write --vcd '/tmp': it is a directory",
          {"run", "passthrough_kernel", "--vcd", "/tmp"});
    c.cli("process.save_outputs_file", kFile, "cannot write --save-outputs '/dev/null': it exists and is not a directory",
          {"run", "passthrough_kernel", "--save-outputs", "/dev/null"});
    c.cli("process.save_outputs_parent", kFile,
          "cannot write --save-outputs '/dev/null/out': '/dev/null' is not a directory",
          {"run", "passthrough_kernel", "--save-outputs", "/dev/null/out"});
    c.cli("process.output_folder", kFile, "cannot write -o '/dev/null/x.mlir': Not a directory",
          {"export", "memcpy", "-o", "/dev/null/x.mlir"});
    NPUSIM_ERROR(c, "process.stdout", kFile, "cannot write standard output: I/O error",
                 std::ostream full(nullptr); // a stream that takes nothing, as stdout on a full disk
                 full << "x"; tools::check_stream_written(full, "standard output"));
    c.internal("process.output_unwritable_folder", "cannot write --trace 'ro/t.json': Permission denied",
               "Only for a user who may not write the folder (the catalog runs as root, who may); "
               "tests/tools/OutputFiles_test.cpp covers the same check with a missing folder.");
    c.site("traces/src/OutputFile.cpp");
    c.cli("process.trace_write", kFile, "cannot write Perfetto trace to '/dev/full': No space left on device",
          {"run", "passthrough_kernel", "--trace", "/dev/full"});
    c.cli("process.html_write", kFile, "cannot write HTML report to '/dev/full': No space left on device",
          {"run", "passthrough_kernel", "--html", "/dev/full"});
    c.internal("process.output_rename", "cannot write VCD trace to 'w.vcd': Permission denied",
               "The complete file is renamed from its temporary name in the same folder, which was checked to be "
               "writable before the run; only a folder changed while the run goes on fails here.");
    c.site("tools/DepthCommand.cpp");
    c.cli("process.csv_file", kFile, "cannot write --csv '/nonexistent/d.csv': No such file or directory",
          {"depth", "passthrough_dmas", "--csv", "/nonexistent/d.csv"});
    c.cli("process.csv_write", kFile, "cannot write --csv '/dev/full': No space left on device",
          {"depth", "passthrough_dmas", "--csv", "/dev/full"});
    c.internal("process.csv_reopen", "cannot write --csv 'd.csv': No such file or directory",
               "The --csv path was opened for writing before the analysis (process.csv_file); only a file removed "
               "or made unwritable while it runs fails here.");
    c.site("tools/SweepCommand.cpp");
    c.cli("process.sweep_csv_file", kFile, "cannot write --csv '/nonexistent/s.csv': No such file or directory",
          {"sweep", "passthrough_dmas", "--csv", "/nonexistent/s.csv"});
    c.internal("process.sweep_malformed", "sweep: rank 1 sent a malformed result",
               "Only if the bytes MPI gathers from a rank are not what that rank encoded (both sides are this code).");
    c.internal("process.sweep_missing", "sweep: no result for point 3",
               "Only if the ranks' shares do not cover every point (each rank takes every N-th point from its own "
               "rank on, and every rank sends all of its share).");
    c.site("tools/MpiSession.cpp");
    c.internal("process.mpi_call", "MPI: MPI_Gatherv failed",
               "Only when the MPI library reports an error (Open MPI's default handler aborts the job before this).");
    c.internal("process.mpi_missing",
               "npusim was built without MPI (CMake found no MPI: install libopenmpi-dev and rebuild; a project built "
               "against an installed npusim asks for it with find_package(npusim COMPONENTS mpi)), so it cannot "
               "split work over the ranks of mpirun",
               "Only in a build made without libopenmpi-dev, or a user's CLI built without the mpi component (the "
               "test install:external-project runs one), started by mpirun (the CI build has MPI).");
    c.site("tools/CrashReporter.cpp");
    c.cli_forked("process.crash_stack", kKernel,
                 "worker 'w' was running kernel 'big_local' (entered at cycle <N>) and it crashed with SIGSEGV "
                 "(invalid memory access). Most likely its stack overflowed (a large local array: each core runs on a "
                 "host stack of SimOptions::core_stack_bytes, 4 MiB by default; raise it with --core-stack BYTES) or "
                 "it wrote through a wild pointer.",
                 {"run", "catalog_crash"})
        .sanitizer_skip = true;
    c.cli_forked("process.crash_arithmetic", kKernel,
                 "worker 'w' was running kernel 'divide' (entered at cycle <N>) and it crashed with SIGFPE (arithmetic "
                 "error, e.g. an integer division by zero)",
                 {"run", "catalog_crash", "--param", "how=1"})
        .sanitizer_skip = true;
    c.cli_forked("process.crash_in_trace", kKernel,
                 "worker 'w' was running its body in the resolve-time trace of its body and it crashed with SIGILL "
                 "(illegal instruction)",
                 {"run", "catalog_crash", "--param", "how=2"})
        .sanitizer_skip = true;
    c.cli_forked("process.crash_abort", kKernel,
                 "worker 'w' was running kernel 'quit' (entered at cycle <N>) and it crashed with SIGABRT (abort: a "
                 "failed assert, a call to abort(), or the C library stopping on a corrupted heap)",
                 {"run", "catalog_crash", "--param", "how=3"})
        .sanitizer_skip = true;
    c.cli_forked("process.crash_far_outside", kKernel,
                 "worker 'w' was running kernel 'quit' (entered at cycle <N>) and it crashed with SIGSEGV (invalid "
                 "memory access) at an address far outside the tile memory it was given (beyond the guard zones the "
                 "memory check watches): it wrote or read well past (or before) one of its views, e.g. with a wrong "
                 "size or index.",
                 {"run", "catalog_crash", "--param", "how=5"})
        .sanitizer_skip = true;
    c.site("tools/ExitGuard.cpp");
    c.cli_forked("process.exit_in_run", kKernel,
                 "worker 'w' is running kernel 'quit' (entered at cycle <N> of the simulation) and it ended the "
                 "process (exit status 0) before the run finished; the run has no result",
                 {"run", "catalog_crash", "--param", "how=4"});
    c.site("tools/RunGuard.cpp");
    c.cli_forked("process.watchdog", kLimit,
                 "wall-clock limit of 1 s reached (--timeout): worker 'spinner' is running kernel 'spin' (entered at "
                 "cycle <N> of the simulation); it has not returned, so npusim stops here",
                 {"run", "catalog_spin", "--timeout", "1"});
    c.cli_forked("process.watchdog_device_list", kLimit,
                 "wall-clock limit of 1 s reached (--timeout) on npu1_1col: worker 'spinner' is running kernel 'spin' "
                 "(entered at cycle <N> of the simulation); it has not returned, so npusim stops here",
                 {"run", "catalog_spin", "--device", "npu1_1col,npu1", "--timeout", "1"});
    c.cli_forked(
        "process.watchdog_in_trace", kLimit,
        "wall-clock limit of 1 s reached (--timeout): worker 'spinner' is running its body in the resolve-time "
        "trace of its body; it has not returned, so npusim stops here",
        {"run", "catalog_spin", "--param", "where=1", "--timeout", "1"});
    c.site("tools/Cli.cpp");
    c.internal("process.watchdog_unknown",
               "wall-clock limit of 1 s reached (--timeout): the simulator did not return; it has not returned, so "
               "npusim stops here",
               "The simulation stops itself at the limit between slices of 100,000 cycles (sim.wall_clock_limit), a "
               "second before the watchdog; only native design code, which the watchdog names, keeps it from "
               "returning.");
    c.site("tools/ExitReport.cpp");
    c.internal("process.interrupted", "interrupted (SIGINT) before the command finished",
               "A signal from outside (Ctrl-C, SIGINT; SIGTERM says \"stopped (SIGTERM)\"), which the catalog does not "
               "send; tests/tools/output_streams.sh does, and checks that the JSON error document is printed and no "
               "temporary file stays. Kind \"interrupted\"; the process then ends by the signal.");
    c.site("tools/Cli.cpp");
    c.internal("process.out_of_memory",
               "a memory allocation failed (std::bad_alloc) while the command ran; this process may use <N> MiB more "
               "(MemAvailable): a smaller design or fewer outputs (--trace, --html and --vcd of a long run hold every "
               "span), or more memory",
               "An allocation that fails outside a run's own memory check (run.host_memory_limit estimates a run "
               "before it allocates): the catalog cannot make one fail deterministically; tools_tests checks the "
               "message and class of a std::bad_alloc. Kind \"out of host memory\", exit code 2.");
    c.site("harness/src/DesignRunner.cpp");
    c.cli("process.save_outputs_name", kDesign,
          "--save-outputs: output '../b' of design 'catalog_escape' cannot be saved as '../b.npy': its name is not a "
          "plain file name (it holds '/' or is '.', '..' or empty) and would be written outside 'out'",
          {"run", "catalog_escape", "--save-outputs", "out"});
    c.site("tools/CliSupport.cpp");
    c.internal("process.child_pipe", "run_cli_in_child: pipe failed: Too many open files",
               "Only tests and the error catalog run a command in a child process (to survive the watchdog); the "
               "pipe fails only when the process has no file descriptors left.");
    c.internal("process.child_fork", "run_cli_in_child: fork failed: Resource temporarily unavailable",
               "fork fails only when the system cannot create another process; the test reports it as the error.");
    c.site("traces/src/PerfettoTraceSink.cpp");
    c.internal("process.trace_track", "PerfettoTraceSink: track 3 added twice ('DMA (0,2) S2MM 0')",
               "The simulator opens one track per process and writes only to tracks it opened; also the "
               "std::out_of_range of an event on a track never added, and the same checks of SummaryTraceSink and "
               "VcdTraceSink (traces/src/).");
    c.site("tools/calibrate/calibrate.cpp");
    c.internal("process.calibrate", "matmul_single_core: output mismatch",
               "tools/calibrate is a developer program that measures the timing model on the registered designs, "
               "not part of npusim: an output mismatch there is a bug in a design or the simulator.");
    c.internal("process.calibrate_channel", "no such channel",
               "tools/calibrate: a calibration step looks for a DMA channel of a registered design that it does not "
               "have (a bug in the calibration program).");
    c.internal("process.calibrate_dtype", "no input dtype f32",
               "tools/calibrate --gemm: a GEMM row names an input type the matrix unit does not take (a bug in the "
               "calibration program; its rows use i8, i16 and bf16).");
    c.internal("process.calibrate_peak", "row 15: 600.0 MAC/cycle above the peak 512",
               "tools/calibrate --gemm: a simulated whole-array GEMM beat the array's peak "
               "(model::matmul_mac_peak x cores), which the kernel cost models never allow: a bug in the simulator "
               "or a cost model, refused rather than printed as a prediction.");
}

} // namespace npusim::errcat
