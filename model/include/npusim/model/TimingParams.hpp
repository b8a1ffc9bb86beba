#pragma once
// The timing model's parameters. ONE table, timing_param_table() in TimingParams.cpp, has one row
// per parameter: its name (the TimingParams member; the unit is in the name), its unit, and for each
// device generation (AIE2 = NPU1, AIE2P = NPU2) its default and the source of that default. A source
// starts with a tag: [doc] AMD manual, [code] mlir-aie, [HW] measured on silicon, [est] estimate.
// TimingParams::for_arch builds a generation's parameters from the table; a JSON object
// {"name": value, ...} overrides any of them (--timing FILE) and is checked against the same table
// (an unknown name is a DesignError). docs/timing-model.md and docs/hardware-sources.md list the
// table (tests/model/TimingParams_test.cpp keeps them equal to it); docs/timing-model.md explains
// each approximation.
#include "npusim/model/DeviceSpec.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace npusim::model {

enum class TimingUnit : std::uint8_t { MHz, BytesPerCycle, Cycles, Microseconds };
const char* timing_unit_name(TimingUnit u); ///< "MHz", "B/cycle", "cycles", "us"
/// A parameter carries its unit in its name: "..._mhz", "..._bytes_per_cycle", "..._cycles", "..._us".
bool timing_name_carries_unit(std::string_view name, TimingUnit u);
/// Rates and the clock are divided by, so they must be positive; a cycle count may be 0.
bool timing_unit_must_be_positive(TimingUnit u);

/// The parameters of one run. Every value comes from timing_param_table() (for_arch); the member
/// comments say what each one times.
struct TimingParams {
    Arch arch = Arch::AIE2; ///< generation whose defaults and sources these are
    double clock_mhz{}; ///< array clock, for cycles -> seconds only
    double stream_bytes_per_cycle{}; ///< per stream port
    std::uint32_t switch_hop_latency_cycles{}; ///< per stream switch traversed
    double shim_dma_bytes_per_cycle{}; ///< per shim DMA channel
    double tile_dma_bytes_per_cycle{}; ///< per compute / mem tile DMA channel
    double ddr_bytes_per_cycle{}; ///< host memory (DDR / NoC), shared by all shim channels
    double memtile_memory_bytes_per_cycle{}; ///< a mem tile's banks, shared by the tile's DMA channels
    std::uint32_t lock_acquire_cycles{}; ///< uncontended acquire
    std::uint32_t lock_release_cycles{};
    std::uint32_t bd_setup_cycles{}; ///< BD fetch + lock handshake per BD on a tile DMA
    std::uint32_t shim_task_dispatch_cycles{}; ///< queue push -> task start (pipelined)
    std::uint32_t shim_cold_task_dispatch_cycles{}; ///< the first START_TASK on a channel
    std::uint32_t shim_mm2s_task_overhead_cycles{}; ///< per task, host memory read path
    std::uint32_t shim_s2mm_task_overhead_cycles{}; ///< per task, host memory write path
    std::uint32_t kernel_call_overhead_cycles{}; ///< call/return + prologue of a kernel
    std::uint32_t cascade_word_latency_cycles{}; ///< a cascade word's put -> visible to the next core's get
    std::uint32_t core_element_access_cycles{}; ///< one element load or store a body makes itself (at<T>)
    std::uint32_t runtime_op_cycles{}; ///< controller cost per runtime-sequence op
    double host_invocation_latency_us{}; ///< what the host adds around one run (XRT call, sync); not array time
    /// What the first run on a newly created hardware context adds to host_invocation_latency_us: the
    /// driver connects the context (firmware context, PDI load) on its first command, inside the
    /// host's timed region. Used only for a cold run (`npusim run --cold`).
    double host_cold_start_us{};

    /// The host time around one run: host_invocation_latency_us, plus host_cold_start_us for the
    /// first run on a newly created context.
    double host_latency_us(bool first_on_new_context) const {
        return host_invocation_latency_us + (first_on_new_context ? host_cold_start_us : 0.0);
    }

    /// The AIE2 defaults (the same as for_arch(Arch::AIE2)).
    TimingParams();
    /// Defaults for a device generation, from timing_param_table().
    static TimingParams for_arch(Arch arch);
    /// Override from a JSON object given as text; `origin` names it in errors. A key "calibration"
    /// (the metadata object `npusim calibrate` writes) is no parameter: it is ignored except for
    /// its "generation", which must be this table's (arch_name) when given.
    void apply_json(const std::string& json_text, const std::string& origin);
    /// The largest timing file read (1 MiB; the full table as JSON is under 2 KiB).
    static constexpr std::uint64_t kMaxTimingFileBytes = 1 << 20;
    /// Override from a JSON file of at most kMaxTimingFileBytes: a larger one (or a device such as
    /// /dev/zero) is a DesignError before more than that is read.
    void apply_json_file(const std::string& path);

    struct Info {
        std::string name;
        double value;
        std::string unit;
        std::string source;
    };
    /// Every parameter with its current value, unit and the source of its `arch` default, in table order.
    std::vector<Info> describe() const;

private:
    explicit TimingParams(Arch generation);
};

/// One row of the timing table.
struct TimingParamRow {
    const char* name; ///< the TimingParams member and the --timing JSON key
    TimingUnit unit;
    std::variant<double TimingParams::*, std::uint32_t TimingParams::*> member; ///< cycles are integers
    double aie2;
    const char* aie2_source;
    double aie2p;
    const char* aie2p_source;

    double default_for(Arch a) const { return a == Arch::AIE2 ? aie2 : aie2p; }
    const char* source_for(Arch a) const { return a == Arch::AIE2 ? aie2_source : aie2p_source; }
    double get(const TimingParams& p) const;
    /// Store `v` into `p` (checked first with timing_value_problem: a cycle count is a whole number
    /// within 32 bits).
    void set(TimingParams& p, double v) const;
};

/// The timing table: every parameter, in a stable order (the order of describe() and the docs).
std::span<const TimingParamRow> timing_param_table();
/// The row named `name`, or nullptr when the table has no such parameter.
const TimingParamRow* find_timing_param(std::string_view name);
/// Why `v` cannot be the value of `row` ("must be a non-negative number", "must be positive", "must
/// be a whole number of cycles, got 2.7", "must be at most 4294967295 cycles (32 bits), got ..."),
/// or an empty string when it can.
std::string timing_value_problem(const TimingParamRow& row, double v);

} // namespace npusim::model
