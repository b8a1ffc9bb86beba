#pragma once
// DepthAnalysis (`npusim depth`): for every ObjectFifo endpoint that holds buffers, the smallest
// depth at which the design runs deadlock-free and matches its golden outputs (every other endpoint
// at its resolved depth), the memory that costs on the endpoint's tile, and the simulated cycles at
// depths 1..k: where double buffering pays and where more depth buys nothing. Endpoints without
// buffers of their own (a shared pool's consumer, a link's sub-fifo sides, runtime ends) are listed
// with the endpoint whose buffers they use.
//
// Each configuration (a set of iron::DepthOverride) is resolved and simulated once through
// run_design; results are cached by configuration. Configurations run in parallel worker processes
// (fork: one child per configuration, its result written back through a pipe), or serially in this
// process; both give the same report. A child that crashes or runs past its time limit is a
// reported outcome, never a hang.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/harness/RunOutcome.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npusim::harness {

/// What one configuration did (RunOutcome: ok, mismatch, deadlock, limit, refused, error, crashed,
/// timeout; its cycles and message).
using DepthOutcome = RunOutcome;

/// The analysis of one endpoint.
struct EndpointDepths {
    model::FifoEndpointInfo info; ///< as resolved without overrides (info.depth: the resolved depth)
    /// Every depth tried: the table's 1..table_depth, and any the search tried above it.
    std::map<int, DepthOutcome> by_depth;
    int table_depth = 0; ///< k of this endpoint: the table covers depths 1..k
    std::optional<int> min_depth; ///< the smallest depth that ran and matched
    std::optional<int> search_min; ///< where the bisection from the resolved depth ended
    /// The smallest depth whose cycles are within 1% of the fewest cycles any depth reached: more
    /// depth than this buys (almost) nothing.
    std::optional<int> saturation_depth;
    std::uint64_t tile_bytes_used = 0; ///< the tile's core stack and buffers, at resolved depths
    std::uint32_t tile_capacity = 0; ///< the tile's data memory (0: a shim tile)
    std::vector<std::string> notes; ///< e.g. a depth above the minimum that fails (not monotonic)
    /// Bytes this endpoint's buffers take at `depth`.
    std::uint64_t bytes_at(int depth) const { return static_cast<std::uint64_t>(depth) * info.object_bytes; }
};

struct DepthReport {
    std::string design, device;
    Params params;
    DepthOutcome baseline; ///< every endpoint at its resolved depth
    std::vector<EndpointDepths> endpoints; ///< every used endpoint, in lowering order
    std::size_t configurations = 0; ///< distinct configurations evaluated (each once)
    std::size_t simulations = 0; ///< of those, the ones that resolved and were simulated
    std::size_t reused = 0; ///< configurations asked for again and answered from the cache
    unsigned jobs = 1; ///< worker processes (1 with DepthOptions::fork_workers off)
    double seconds = 0; ///< wall time of the analysis
};

/// Progress of an analysis, after each finished configuration.
struct DepthProgress {
    std::size_t done = 0; ///< configurations finished
    std::size_t total = 0; ///< configurations planned so far (the search can add some)
    double seconds = 0; ///< since the analysis started
    double rate() const { return seconds > 0 ? static_cast<double>(done) / seconds : 0.0; } ///< per second
    /// Estimated seconds until `total` are done (0 when nothing is known yet).
    double eta_seconds() const { return done && total > done ? (total - done) / rate() : 0.0; }
};

struct DepthOptions {
    Params params;
    std::uint64_t seed = 1;
    KernelSet kernels = KernelSet::reference;
    /// Timing of every simulation; unset: TimingParams::for_arch of the device.
    std::optional<model::TimingParams> timing;
    /// k: the table covers depths 1..k of every endpoint; 0: per endpoint, max(declared depth, 4).
    int max_depth = 0;
    /// An endpoint that does not run at its resolved depth is searched upward (doubling) to here.
    int search_limit = 32;
    unsigned jobs = 0; ///< worker processes at a time; 0: the machine's hardware threads
    /// Run each configuration in a forked worker process (crash- and hang-proof). Off: serially in
    /// this process (jobs ignored; a configuration cannot be timed out).
    bool fork_workers = true;
    std::uint64_t max_cycles = 0; ///< per simulation (0: none); reaching it is the status "limit"
    double timeout_seconds = 600; ///< wall time of one worker process before it is killed ("timeout")
    std::function<void(const DepthProgress&)> progress; ///< called after each finished configuration
};

class DepthAnalysis {
public:
    /// Throws DesignError when the design does not resolve as declared (unknown device or
    /// parameter, a design error without any override).
    DepthAnalysis(const DesignSpec& spec, std::string device, DepthOptions opts);

    /// The endpoints of the resolved design (without overrides), in lowering order.
    const std::vector<model::FifoEndpointInfo>& endpoints() const { return ends_; }

    /// The baseline, then per endpoint holding buffers: from its resolved depth a bisection down to
    /// its smallest working depth (upward first, doubling, when the resolved depth fails), then
    /// every depth 1..k not yet known. Each round's configurations run in parallel.
    DepthReport run();

    /// The outcome of one configuration (cached: asking again does not simulate again).
    DepthOutcome evaluate(const std::vector<iron::DepthOverride>& config);

    std::size_t simulations() const { return simulations_; } ///< distinct configurations simulated
    std::size_t configurations() const { return cache_.size(); } ///< distinct configurations evaluated
    std::size_t reused() const { return reused_; } ///< requests answered from the cache

private:
    using Config = std::vector<iron::DepthOverride>;
    /// Sorted, without overrides equal to the endpoint's resolved depth (the same netlist).
    Config canonical(Config c) const;
    static std::string key(const Config& c);
    /// Evaluate every configuration not in the cache (in parallel), then return all outcomes.
    std::vector<DepthOutcome> evaluate_all(const std::vector<Config>& configs);
    DepthOutcome run_one(const Config& c) const;
    void run_forked(const std::vector<Config>& todo, std::vector<DepthOutcome>& out);
    void report_progress() const;

    const DesignSpec& spec_;
    std::string device_;
    DepthOptions opts_;
    std::vector<model::FifoEndpointInfo> ends_;
    std::map<model::TileCoord, std::uint64_t> tile_bytes_; ///< stack + buffers per tile (resolved)
    std::map<std::string, DepthOutcome> cache_; ///< by key(canonical(config))
    std::set<std::string> planned_; ///< keys asked for or planned (the progress total)
    std::size_t simulations_ = 0, reused_ = 0;
    std::chrono::steady_clock::time_point started_;
};

} // namespace npusim::harness
