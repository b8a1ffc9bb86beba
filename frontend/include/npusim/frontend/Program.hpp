#pragma once
// Program (IRON aie.iron.Program): device + runtime + workers. resolve() places tiles, allocates
// memory, locks, BDs and DMA channels, lowers every ObjectFifo, routes the stream flows and
// records the runtime sequence, producing the netlist the simulator executes. Every structural
// problem is a DesignError naming the design object, found here before anything is simulated.
#include "npusim/frontend/Runtime.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <optional>
#include <string>
#include <vector>

namespace npusim::iron {

/// The number of buffers one fifo endpoint gets, set from outside the design (`npusim depth`): used
/// verbatim, as an explicit per-endpoint depth is, and still checked against the endpoint's acquires.
struct DepthOverride {
    std::string fifo; ///< fifo name
    int consumer = -1; ///< -1: the producer end; else the consumer's index among the fifo's consumers
    int depth = 0;
    friend bool operator==(const DepthOverride&, const DepthOverride&) = default;
};

struct ResolveOptions {
    /// aiecc `--alloc-scheme`; a Tile's own `allocation_scheme` overrides it for that tile.
    AllocScheme alloc_scheme = AllocScheme::Default;
    /// Operations a worker body may perform during its resolve-time trace before tracing stops
    /// (the largest acquire seen so far is then used for the depth rule).
    std::uint64_t trace_op_budget = 1u << 20;
    /// Turn the first resolve-time warning (static hang checks, allocation fallback) into a
    /// DesignError (`--werror`).
    bool werror = false;
    /// Depths of single endpoints, replacing what the depth rule would give them. Naming a fifo or
    /// end that does not exist or has no buffers of its own is a DesignError.
    std::vector<DepthOverride> depth_overrides;
};

class Program {
public:
    Program(const model::DeviceSpec& device, Runtime rt, std::vector<Worker> workers, std::string name = "design");
    Program(const std::string& device_name, Runtime rt, std::vector<Worker> workers, std::string name = "design");

    /// Lower the design to a netlist (throws DesignError).
    model::Netlist resolve(const ResolveOptions& opts = {}) const;

    const model::DeviceSpec& device() const { return *device_; }
    const std::string& name() const { return name_; }
    const Runtime& runtime() const { return runtime_; }
    const std::vector<Worker>& workers() const { return workers_; }

private:
    const model::DeviceSpec* device_;
    Runtime runtime_;
    std::vector<Worker> workers_;
    std::string name_;
};

} // namespace npusim::iron
