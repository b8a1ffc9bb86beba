#pragma once
// The command line of `npusim run` (and `golden`, and the design options `args` shares): RunArgs,
// the option tables that fill it, and what every run the command makes is built from it - the
// harness options (run_options) and the guards against native code that crashes or never returns.
#include "CliOptions.hpp"

#include "npusim/harness/DesignRunner.hpp"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::tools {

class ProgressLine;

// A run stops at these unless told otherwise (a normal design is far from both: the largest
// registered one, matmul_whole_array on npu2, simulates about 10^6 cycles in under a second).
constexpr std::uint64_t kDefaultMaxCycles = 10'000'000'000;
constexpr double kDefaultTimeoutSeconds = 600;
/// --timeout's largest value, a week: a larger one is a usage error (a deadline 10^19 s away
/// overflows the clock; 0 is the way to ask for none).
constexpr double kMaxTimeoutSeconds = 604'800;

struct RunArgs {
    std::string design;
    std::string device = "npu1_1col";
    harness::Params params;
    std::uint64_t seed = 1;
    std::uint64_t max_cycles = kDefaultMaxCycles;
    double timeout_seconds = kDefaultTimeoutSeconds;
    std::uint64_t core_stack_bytes = 0; ///< 0: SimOptions' default
    std::uint64_t kernel_threads = 0; ///< SimOptions::kernel_threads
    std::string timing_file, trace_file, vcd_file, dot_file, html_file;
    bool mlir_aie_trace = false; ///< --trace-format mlir-aie
    bool json = false, netlist = false, progress = false, queue_wait = false, werror = false, check_memory = true;
    bool no_memory_check = false; ///< --no-memory-check (check_memory is its negation)
    harness::KernelSet kernels = harness::KernelSet::reference;
    std::map<std::string, std::string> inputs, expected;
    std::string save_dir;
    std::optional<double> rtol, atol;
    std::optional<iron::AllocScheme> alloc_scheme;
    std::uint32_t iters = 1, warmup = 0;
    bool cold = false; ///< --cold: the first invocation is a new context's first command
    std::optional<harness::ToleranceMode> tolerance; ///< unset: the design's own
    std::vector<std::string> what_if; ///< --what-if: ablation names, in the order given
};

/// The options run, golden and args share: the design, where it runs (`device_list`: --device
/// takes a list), its parameters and inputs' seed, the kernel build, --json.
void add_design_options(CliOptions& o, RunArgs& r, bool device_list);
/// The options of a run (run, golden) besides the design's.
void add_run_options(CliOptions& o, RunArgs& r);

/// The runs `npusim run` makes.
enum class RunKind {
    single, ///< the run of one device (`--device D`, or none)
    device_list, ///< one device of a `--device D1,D2` list
    what_if, ///< a --what-if rerun after the single run (before its ablation is applied)
};

/// The harness options of a run of `r` on `dev`: the one place every run of `npusim run` gets them.
/// Every kind takes the same: the seed, kernels, inputs, expected outputs, tolerances, iterations,
/// --werror, the timing model (with --timing), --max-cycles, --queue-wait, the memory check,
/// --timeout (the simulation's wall-clock limit), --core-stack, --kernel-threads and, when
/// `progress` is given (--progress), a report every million simulated cycles. The only difference:
/// a what_if rerun has no --save-outputs (the baseline's files stay the baseline's). Trace sinks
/// are the single run's own (run_command's). Every run is made under a RunGuard (guarded_run,
/// RunGuard.hpp): the crash reporter, the exit guard and a watchdog of its own.
harness::RunOptions run_options(const RunArgs& r, const model::DeviceSpec& dev, RunKind kind,
                                ProgressLine* progress = nullptr);

} // namespace npusim::tools
