#include "RunArgs.hpp"

#include "CliSupport.hpp"
#include "CrashReporter.hpp"
#include "ExitReport.hpp"
#include "JsonDocument.hpp"
#include "OutputPaths.hpp"
#include "ProgressLine.hpp"
#include "WhatIf.hpp"

#include "npusim/harness/TimingProfiles.hpp"
#include "npusim/model/NativeActivity.hpp"
#include "npusim/traces/OutputFile.hpp"

#include <charconv>
#include <fmt/format.h>
#include <limits>

namespace npusim::tools {

namespace {

double parse_tolerance(const std::string& s, const std::string& opt) {
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !(v >= 0) || v == std::numeric_limits<double>::infinity())
        throw UsageError(fmt::format("{} expects a non-negative number, got '{}'", opt, s));
    return v;
}

} // namespace

void add_design_options(CliOptions& o, RunArgs& r, bool device_list) {
    o.design(r.design);
    o.value("--device", device_list ? "NAME[,NAME...]" : "NAME",
            device_list ? "npu1, npu1_1col..npu1_3col, npu2, npu2_1col..npu2_7col (default npu1_1col); a list "
                          "(--device npu1_4col,npu2) runs the same design, parameters and seed on each and prints "
                          "cycles and output digests side by side"
                        : "npu1, npu1_1col..npu1_3col, npu2, npu2_1col..npu2_7col (default npu1_1col)",
            [&r](const std::string& v) { r.device = v; });
    o.repeated("--param", "K=V", "override a design parameter (repeatable); see `npusim list`",
               [&r](const std::string& v) { parse_param(v, r.params); });
    o.value("--seed", "N", "seed of the generated inputs (default 1)",
            [&r](const std::string& v) { r.seed = parse_u64(v, "--seed"); });
    o.value("--kernels", "ref|aie",
            "which kernel build the workers call (default ref): the reference C++ kernels, or aie: the AIE-API "
            "kernel sources (kernels_ref/aie) compiled natively, checked against the same golden reference. aie "
            "applies to every design with an external kernel (`npusim list` marks them), e.g. passthrough_kernel "
            "(E1: passThrough) and vector_scalar_mul (E3: scale); passthrough_dmas (E2) and transpose_dma move data "
            "by DMA only (no kernel) and vector_vector_add (E4) has no external kernel (it computes in the core body)",
            [&r](const std::string& k) {
                const auto ks = harness::parse_kernel_set(k);
                if (!ks) throw UsageError(fmt::format("--kernels expects ref or aie, got '{}'", k));
                r.kernels = *ks;
            });
    o.flag("--json", "print one machine-readable result object", r.json);
}

void add_run_options(CliOptions& o, RunArgs& r) {
    o.repeated("--what-if", "LIST",
            "after the run, rerun with each ablation alone and show it beside the baseline: free-kernels, "
            "unlimited-ddr, ideal-locks, zero-host-latency, all (names separated by commas; repeatable); "
            "sensitivity: each [est] timing parameter at half and double, and the time range they span",
               [&r](const std::string& v) { parse_what_if(v, r.what_if); });
    o.repeated("--input", "NAME=FILE",
               "read input argument NAME from a .npy file (repeatable); inputs without a file are generated from "
               "--seed. dtype and shape must match the argument",
               [&r](const std::string& v) { parse_named_file(v, "--input", r.inputs); });
    o.repeated("--expect", "NAME=FILE",
               "compare output NAME with a .npy file instead of the design's reference (repeatable)",
               [&r](const std::string& v) { parse_named_file(v, "--expect", r.expected); });
    o.value("--save-outputs", "DIR",
            "write NAME.npy for every input and output argument and NAME.expected.npy for every output (bf16 is "
            "saved with descr '<V2', as ml_dtypes does: np.load(f).view(ml_dtypes.bfloat16))",
            [&r](const std::string& v) { r.save_dir = output_name("--save-outputs", v); });
    o.value("--rtol", "X", "relative tolerance of f32/bf16 outputs (default: the design's own); integer outputs are "
                           "always compared exactly",
            [&r](const std::string& v) { r.rtol = parse_tolerance(v, "--rtol"); });
    o.value("--atol", "Y", "absolute tolerance of f32/bf16 outputs (default: the design's own)",
            [&r](const std::string& v) { r.atol = parse_tolerance(v, "--atol"); });
    o.value("--tolerance", "allclose|nearly-equal",
            "allclose (numpy): |got - want| <= atol + rtol*|want|, NaN == NaN; nearly-equal (mlir-aie verify.py): "
            "got == want or |got - want| < max(atol, rtol*(|got| + |want|)) in float32, NaN never equal (default: "
            "the design's own, allclose unless it declares nearly-equal)",
            [&r](const std::string& v) {
                const auto m = harness::parse_tolerance_mode(v);
                if (!m) throw UsageError(fmt::format("--tolerance expects allclose or nearly-equal, got '{}'", v));
                r.tolerance = *m;
            });
    o.value("--max-cycles", "N", "stop with exit code 4 after N simulated cycles (default 10000000000; 0: none)",
            [&r](const std::string& v) { r.max_cycles = parse_u64(v, "--max-cycles"); });
    o.value("--core-stack", "BYTES",
            "host stack of each core's worker body and kernels (default 4194304; 1048576 up to 1073741824); a kernel "
            "with large local arrays needs more (a stack overflow is reported, exit 2)",
            [&r](const std::string& v) {
                r.core_stack_bytes = parse_u64(v, "--core-stack");
                if (r.core_stack_bytes < sim::kMinCoreStackBytes || r.core_stack_bytes > sim::kMaxCoreStackBytes)
                    throw UsageError(fmt::format("--core-stack expects {} up to {} bytes (1 GiB), got {}",
                                                 sim::kMinCoreStackBytes, sim::kMaxCoreStackBytes, r.core_stack_bytes));
            });
    o.value("--kernel-threads", "N",
            "run kernel calls on N host threads, the simulating thread one of them (default 0: one per hardware "
            "thread; 1: all on the simulating thread); same results, cycles and traces; used only with --no-memory-check, for "
            "cores without cascade or stream ports, and for kernels whose calls take 20 us or more",
            [&r](const std::string& v) {
                r.kernel_threads = parse_u64(v, "--kernel-threads");
                if (r.kernel_threads > 256)
                    throw UsageError(
                        fmt::format("--kernel-threads expects 0 up to 256 threads, got {}", r.kernel_threads));
            });
    o.value("--timeout", "SECONDS",
            "stop with exit code 4 after this much wall-clock time per simulation (default 600; 0: none; at most "
            "604800, a week), with the progress report; a worker body or kernel that never returns (in the "
            "simulation or the resolve-time trace) is named and the process ends within a second of the limit. A "
            "--device list and --what-if give each of their simulations this limit",
            [&r](const std::string& v) {
                r.timeout_seconds = parse_tolerance(v, "--timeout");
                if (r.timeout_seconds > kMaxTimeoutSeconds)
                    throw UsageError(fmt::format("--timeout expects 0 (none) up to {:g} seconds (a week), got {}",
                                                 kMaxTimeoutSeconds, v));
            });
    o.value("--timing", "FILE|NAME", "JSON object overriding timing parameters, or a shipped profile by name (npu1-public, npu2-public: docs/calibration.md)",
            [&r](const std::string& v) { r.timing_file = v; });
    o.value("--trace", "FILE.json", "Perfetto / Chrome trace of cores, DMA channels and locks (ts in cycles)",
            [&r](const std::string& v) { r.trace_file = output_name("--trace", v); });
    o.value("--trace-format", "rich|mlir-aie",
            "rich (default): every kernel call, BD, lock stall, lock acquire/release and lock value, with arguments "
            "and the clock in its metadata; mlir-aie: the JSON mlir-aie's parse.py makes from a hardware trace (8 "
            "event slots per traced tile, B/E pairs), for its get_trace_summary.py; the design's enable_trace "
            "chooses tiles, events and buffer size, else every core with default events",
            [&r](const std::string& f) {
                if (f != "rich" && f != "mlir-aie")
                    throw UsageError(fmt::format("--trace-format expects rich or mlir-aie, got '{}'", f));
                r.mlir_aie_trace = f == "mlir-aie";
            });
    o.value("--vcd", "FILE.vcd", "VCD waveform for GTKWave", [&r](const std::string& v) { r.vcd_file = output_name("--vcd", v); });
    o.value("--dot", "FILE.dot",
            "on a deadlock or cycle limit: the wait-for graph in Graphviz DOT (blocked processes red, the cycle bold "
            "red, the causal chain bold); render it with `dot -Tsvg FILE.dot -o FILE.svg`",
            [&r](const std::string& v) { r.dot_file = output_name("--dot", v); });
    o.value("--html", "FILE.html",
            "one self-contained HTML report for a browser (no network): per-tile timeline with zoom and tooltips, "
            "fifo occupancy, utilisation against peak, the design graph, and the deadlock graph; written when the "
            "run fails too",
            [&r](const std::string& v) { r.html_file = output_name("--html", v); });
    o.flag("--netlist", "print the resolved netlist before simulating (with --json: the document's \"netlist\")",
           r.netlist);
    o.value("--alloc-scheme", "bank-aware|basic-sequential",
            "buffer allocation scheme, as aiecc's --alloc-scheme (mlir-aie AIEAssignBuffers.cpp): bank-aware or "
            "basic-sequential, each without fallback; unset: the design's own, by default bank-aware falling back "
            "to basic-sequential with a warning",
            [&r](const std::string& v) {
                r.alloc_scheme = iron::parse_alloc_scheme(v);
                if (!r.alloc_scheme)
                    throw UsageError(
                        fmt::format("--alloc-scheme expects bank-aware or basic-sequential, got '{}'", v));
            });
    o.flag("--progress",
           "progress on stderr: sequence ops done/total, simulated cycles, rate, elapsed time (one updating line on "
           "a terminal, cut to its width; whole lines every 5 s otherwise)",
           r.progress);
    auto count = [&r](const char* opt, std::uint64_t lo, std::uint32_t RunArgs::*into) {
        return [&r, opt, lo, into](const std::string& s) {
            const auto v = parse_u64(s, opt);
            if (v < lo || v > 1'000'000)
                throw UsageError(fmt::format("{} expects {} up to 1000000, got {}", opt, lo, v));
            r.*into = static_cast<std::uint32_t>(v);
        };
    };
    o.value("--iters", "N",
            "run the runtime sequence N times on the same loaded array (as XRT runs a kernel again: cores, locks, "
            "buffers persist; init_values are not re-applied) and check every run's outputs against the reference "
            "at its index",
            count("--iters", 1, &RunArgs::iters));
    o.value("--warmup", "W", "W unchecked runs before the N checked ones (default 0)",
            count("--warmup", 0, &RunArgs::warmup));
    o.flag("--cold",
           "time the run as the first on a newly created hardware context, as a host program that creates its context "
           "and times its first run without warm-up (mlir-aie's ml/ test.py harnesses): the first invocation's npu "
           "time adds host_cold_start_us (the driver loads the design's PDI on the context's first command)",
           r.cold);
    o.flag("--no-memory-check",
           "do not look for kernel and worker-body writes outside the memory they were given (on by default: such a "
           "write is an error naming the buffer hit; off, it corrupts data silently, as on the NPU)",
           r.no_memory_check);
    o.flag("--werror",
           "resolve-time warnings (hangs found before simulating, allocation fallback) are design errors (exit 2)",
           r.werror);
    o.flag("--queue-wait",
           "before each shim task push, wait until the channel's 4-deep task queue has room, as a toolchain that "
           "enforces the queue depth does (mlir-aie PR 3734; its --no-enforce-dma-queue-depth is this option left "
           "off). Without it a push onto a full queue is an error (exit 4): the hardware drops it",
           r.queue_wait);
}

harness::RunOptions run_options(const RunArgs& r, const model::DeviceSpec& dev, RunKind kind, ProgressLine* progress) {
    harness::RunOptions ro;
    ro.seed = r.seed;
    ro.kernels = r.kernels;
    ro.input_files = r.inputs;
    ro.expected_files = r.expected;
    ro.save_dir = r.save_dir;
    ro.rtol = r.rtol;
    ro.atol = r.atol;
    ro.alloc_scheme = r.alloc_scheme;
    ro.iters = r.iters;
    ro.tolerance = r.tolerance;
    ro.werror = r.werror;
    ro.warmup = r.warmup;
    ro.cold = r.cold;
    sim::SimOptions& so = ro.sim;
    so.timing = model::TimingParams::for_arch(dev.arch);
    if (!r.timing_file.empty()) so.timing.apply_json_file(harness::timing_profile_path(r.timing_file));
    so.max_cycles = r.max_cycles;
    so.queue_wait = r.queue_wait;
    so.check_memory = r.check_memory;
    if (progress) {
        // Reports every million simulated cycles, printed as ProgressLine throttles them.
        so.progress_interval_cycles = 1'000'000;
        so.progress = [progress](const sim::SimProgress& p) { (*progress)(p); };
    }
    so.wall_timeout_seconds = r.timeout_seconds;
    if (r.core_stack_bytes) so.core_stack_bytes = static_cast<std::size_t>(r.core_stack_bytes);
    so.kernel_threads = static_cast<unsigned>(r.kernel_threads);
    if (kind == RunKind::what_if) ro.save_dir.clear(); // the baseline's files stay the baseline's
    return ro;
}

} // namespace npusim::tools
