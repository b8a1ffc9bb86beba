#pragma once
// The golden-testing harness: build a registered design for a device, give it inputs (generated
// from a seed, or loaded from .npy files), resolve and simulate it, compute the expected outputs
// (the design's reference on those same inputs, or .npy files), optionally save every tensor as
// .npy, and compare each output: exactly for integers, with rtol/atol for f32 and bf16.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/HostMemory.hpp"
#include "npusim/sim/Simulator.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::harness {

struct RunOptions {
    std::uint64_t seed = 1; ///< seeds the inputs not loaded from files
    KernelSet kernels = KernelSet::reference;
    std::map<std::string, std::string> input_files; ///< input argument -> .npy file with its contents
    std::map<std::string, std::string> expected_files; ///< output argument -> .npy file with the expected
        ///< values (used instead of the design's reference)
    /// When set: the directory (created if needed) receives NAME.npy for every input and output
    /// argument and NAME.expected.npy for every output.
    std::string save_dir;
    std::optional<double> rtol; ///< override every float output's rtol
    std::optional<double> atol; ///< override every float output's atol
    /// How float outputs are compared; unset: the design's own (DesignSpec::tolerance).
    std::optional<ToleranceMode> tolerance;
    sim::SimOptions sim;
    /// aiecc `--alloc-scheme` for this run; unset: the design's own (DesignSpec::alloc_scheme).
    std::optional<iron::AllocScheme> alloc_scheme;
    /// Invocations of the loaded design, as XRT's test wrapper runs it (xrt_test_wrapper.h): `warmup`
    /// runs first, unchecked, then `iters` runs, each checked against the reference at its index.
    std::uint32_t iters = 1;
    std::uint32_t warmup = 0;
    /// The first invocation is the first command on a newly created hardware context (a host that
    /// creates its context and times its first run): its host time includes host_cold_start_us.
    /// Array cycles do not change; only the npu time a report gives.
    bool cold = false;
    /// Resolve-time warnings (static hang checks) are errors (iron::ResolveOptions::werror).
    bool werror = false;
    /// Host memory the run may use, in bytes (0: host_memory_limit(), the smallest of MemAvailable,
    /// the rlimits and the cgroup's limit). A design whose runtime arguments need more (about 3x
    /// their bytes) is refused as soon as its Runtime gives their types, before its inputs are
    /// generated (iron::RuntimeArgumentsCheck). A std::bad_alloc anywhere in the run becomes a
    /// DesignError naming the run and what it was doing.
    std::uint64_t host_memory_bytes = 0;
    /// Depths of single fifo endpoints (iron::ResolveOptions::depth_overrides; `npusim depth`).
    std::vector<iron::DepthOverride> depth_overrides;
};

/// One run of the runtime sequence in a RunReport.
struct InvocationReport {
    std::uint32_t index = 0; ///< since the design was loaded, warm-up runs included
    bool warmup = false; ///< warm-up runs are not checked
    std::uint64_t cycles = 0;
    std::vector<OutputCheck> checks; ///< empty for warm-up runs
    bool all_match = true;
};

/// Host memory that can be allocated now, in bytes (host_memory_limit().bytes); 0 when unknown.
std::uint64_t available_host_memory();

/// The options `spec` is resolved with in a run: its alloc_scheme unless `opts` overrides it.
iron::ResolveOptions resolve_options(const DesignSpec& spec, const RunOptions& opts);

struct RunReport {
    std::string design;
    std::string device;
    Params params;
    KernelSet kernels = KernelSet::reference;
    std::string kernels_note; ///< the design's note when it has no kernel
    std::vector<ArgSpec> args;
    std::vector<std::string> arg_sources; ///< per argument: "seed 7", the file, "-" (outputs, unused)
    std::vector<std::string> saved_files;
    std::vector<std::string> notes; ///< e.g. tolerances given for a design without float outputs
    std::vector<model::TileCoord> tiles_used;
    std::size_t workers = 0;
    sim::SimResult result; ///< its warnings start with the netlist's (resolve-time) ones
    std::vector<OutputCheck> checks; ///< of the last invocation
    bool all_match = false; ///< every checked invocation matched
    std::vector<InvocationReport> invocations; ///< every invocation (one unless iters/warmup ask more)
    bool cold = false; ///< RunOptions::cold: the first invocation paid the context's cold start
    /// Building the design and its host tensors: inputs generated or read from --input files,
    /// outputs zeroed.
    double build_seconds = 0;
    double resolve_seconds = 0; ///< Program::resolve
    double simulate_seconds = 0;
    double reference_seconds = 0; ///< the golden reference computations (every checked invocation)
    double check_seconds = 0; ///< comparing the outputs with the expected values
};

/// Throws DesignError (bad design, unsupported device or kernel set, bad parameter, unknown or
/// misused argument name), NpyError (a file that cannot be read or written, or whose dtype or
/// shape differs from its argument) or SimulationError.
RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides,
                     const RunOptions& opts);
/// The seed-only form: run_design(spec, device, overrides, {.seed = seed, .sim = base}).
RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides, std::uint64_t seed,
                     const sim::SimOptions& base);

/// Read `path` for argument `arg` of `design`: NpyError unless its dtype and shape are the argument's.
Tensor load_tensor_for(const ArgSpec& arg, const std::string& path, const std::string& design);

} // namespace npusim::harness
