#pragma once
// The timing model's parameters: one table per device generation. Every parameter carries its
// unit in its name and a source tag ([doc] AMD manual, [code] mlir-aie, [HW] measured on silicon,
// [est] estimate). A JSON object {"name": value, ...} can override any of them (--timing FILE);
// an unknown name is a DesignError. docs/timing-model.md explains each approximation.
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::model {

struct TimingParams {
    double clock_mhz = 1000.0;                 ///< array clock, for cycles -> seconds only
    double stream_bytes_per_cycle = 4.0;       ///< per stream port (AIE2: 32 bit/cycle)
    std::uint32_t switch_hop_latency_cycles = 4;   ///< per stream switch traversed
    double shim_dma_bytes_per_cycle = 4.0;     ///< per shim DMA channel
    double tile_dma_bytes_per_cycle = 4.0;     ///< per compute / mem tile DMA channel
    std::uint32_t lock_acquire_cycles = 1;     ///< uncontended acquire
    std::uint32_t lock_release_cycles = 1;
    std::uint32_t bd_setup_cycles = 4;         ///< BD fetch + lock handshake per BD on a tile DMA
    std::uint32_t shim_task_dispatch_cycles = 520;  ///< queue push -> task start (pipelined)
    std::uint32_t shim_mm2s_task_overhead_cycles = 249;  ///< per task, host memory read path
    std::uint32_t shim_s2mm_task_overhead_cycles = 177;  ///< per task, host memory write path
    std::uint32_t kernel_call_overhead_cycles = 20;  ///< call/return + prologue of a kernel
    std::uint32_t runtime_op_cycles = 10;      ///< controller cost per runtime-sequence op

    /// Defaults for a device generation.
    static TimingParams for_arch(Arch arch);
    /// Override from a JSON object given as text; `origin` names it in errors.
    void apply_json(const std::string& json_text, const std::string& origin);
    /// Override from a JSON file.
    void apply_json_file(const std::string& path);

    struct Info {
        std::string name;
        double value;
        std::string unit;
        std::string source;
    };
    /// Every parameter with its current value, unit and source tag, in a stable order.
    std::vector<Info> describe() const;
};

} // namespace npusim::model
