#include "npusim/model/TimingParams.hpp"

#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace npusim::model {

namespace {

using P = TimingParams;

constexpr const char* kCalibrationKey = "calibration"; // a profile's metadata (apply_json)

// THE timing table. One row per parameter: name, unit, member, then the AIE2 default and its source,
// then the AIE2P default and its source. docs/hardware-sources.md says where each cited figure is
// (document section, file and line). Where the generations share a value, the AIE2P value is carried
// over from AIE2 until it is calibrated per generation, and its source says why.
const TimingParamRow kTable[] = {
    {"clock_mhz", TimingUnit::MHz, &P::clock_mhz, 1000.0,
     "[code] mlir-aie examples assume 1 GHz (plot_sweep.py); [HW] xdna-emu observed Phoenix's default H-clock (the "
     "array clock) at 1028 MHz, the nominal xdna-driver npu1_get_tops scales by (npu1 DPM H-clock 800-1600 MHz); 1000 "
     "is 2.7% below it",
     1800.0,
     "[code] xdna-driver npu4_regs.c: the npu4 (Strix, Krackan, Strix Halo) DPM table's top H-clock, 1800 MHz, which "
     "turbo and high power modes select (aie2_pm.c) and npu4_get_tops counts 4096 ops per column per H-clock cycle "
     "(the array clock); [HW] consistent: Hello-XDNA 1,760 GFLOPS = 96% x 1,024 FLOP/cycle x 1.79 GHz, xrt-smi gemm "
     "51.0 TOPS on 32 cores needs >= 1.56 GHz (row 36). In the default power mode a context without QoS "
     "parameters, as mlir-aie's runs create, requests the top level too (aie2_ctx.c aie2_calc_ctx_dpm)"},
    {"stream_bytes_per_cycle", TimingUnit::BytesPerCycle, &P::stream_bytes_per_cycle, 4.0,
     "[doc] AM020: 32-bit stream switch ports", 4.0,
     "[est] carried over from AIE2 until measured: AM027 (AIE-ML v2) gives 64-bit ports, not confirmed for AIE2P"},
    {"switch_hop_latency_cycles", TimingUnit::Cycles, &P::switch_hop_latency_cycles, 4,
     "[doc] AM020: 2 cycles slave + 2 cycles master per switch", 4,
     "[est] carried over from AIE2: no AIE2P switch latency published"},
    {"shim_dma_bytes_per_cycle", TimingUnit::BytesPerCycle, &P::shim_dma_bytes_per_cycle, 4.0,
     "[doc] AM020 shim DMA 4 B/cycle/channel; [HW] xdna-emu ~1 word/cycle", 4.0,
     "[est] carried over from AIE2: no AIE2P shim DMA figure (AM027 64-bit ports unconfirmed for AIE2P)"},
    {"tile_dma_bytes_per_cycle", TimingUnit::BytesPerCycle, &P::tile_dma_bytes_per_cycle, 4.0,
     "[est] bounded by the 32-bit stream port; [HW] memtile stream-bound at 1 word/cycle", 4.0,
     "[est] carried over from AIE2: bounded by the stream port, as stream_bytes_per_cycle"},
    {"ddr_bytes_per_cycle", TimingUnit::BytesPerCycle, &P::ddr_bytes_per_cycle, 50.0,
     "[est] carried over from AIE2P: no NPU1 host-memory figure published; LPDDR5 class as on XDNA2 (~50 GB/s at "
     "this generation's 1 GHz)",
     27.78,
     "[HW] (secondary quote) Taka et al. (arXiv:2512.13282): ~50 GB/s effective NPU-DRAM, dual-channel "
     "DDR5-5600; 50 GB/s at clock_mhz 1800 is 27.78 B/cycle"},
    {"memtile_memory_bytes_per_cycle", TimingUnit::BytesPerCycle, &P::memtile_memory_bytes_per_cycle, 256.0,
     "[doc] UG1603 AIE-ML memory tile: 16 banks x 128 bit, 1 read or 1 write per bank per cycle (16 x 16 B); [HW] "
     "xdna-emu: memtile DMA is stream-bound, memory never the bottleneck",
     256.0,
     "[doc] AM027 AIE-ML v2 memory tile: 8 banks x 256 bit (8 x 32 B), the same figure as AIE2, from its own "
     "document; [est] AIE-ML v2 is not exactly XDNA2's AIE2P"},
    {"lock_acquire_cycles", TimingUnit::Cycles, &P::lock_acquire_cycles, 1,
     "[HW] xdna-emu: +1 cycle arbitration stall per lock request", 1,
     "[est] carried over from AIE2 in cycles: xdna-emu measures NPU1 (Phoenix, array clock 1028 MHz) only"},
    {"lock_release_cycles", TimingUnit::Cycles, &P::lock_release_cycles, 1, "[est] as acquire", 1,
     "[est] carried over from AIE2: an estimate, not yet calibrated per generation"},
    {"bd_setup_cycles", TimingUnit::Cycles, &P::bd_setup_cycles, 4,
     "[est] BD fetch and lock handshake: a few cycles, as xdna-emu's Phoenix co-trace shows a producer's stream "
     "stalling 1-6 cycles after its consumer's lock stall (the crossing latency); no per-BD figure published",
     4, "[est] carried over from AIE2: an estimate, not yet calibrated per generation"},
    {"shim_task_dispatch_cycles", TimingUnit::Cycles, &P::shim_task_dispatch_cycles, 520,
     "[HW] xdna-emu: pipelined START_TASK gap ~520 cycles (cold ~3050)", 520,
     "[est] carried over from AIE2 in cycles: xdna-emu measures NPU1 (Phoenix, array clock 1028 MHz) only"},
    {"shim_cold_task_dispatch_cycles", TimingUnit::Cycles, &P::shim_cold_task_dispatch_cycles, 3050,
     "[HW] xdna-emu: cold START_TASK ~3,050 cycles apart on one channel (the first task a channel runs starts this "
     "late; channels warm up in parallel [est])",
     3050, "[est] carried over from AIE2 in cycles: xdna-emu measures NPU1 (Phoenix, array clock 1028 MHz) only"},
    {"shim_mm2s_task_overhead_cycles", TimingUnit::Cycles, &P::shim_mm2s_task_overhead_cycles, 249,
     "[HW] xdna-emu: per-task MM2S overhead 249 cycles", 249,
     "[est] carried over from AIE2 in cycles: xdna-emu measures NPU1 (Phoenix, array clock 1028 MHz) only"},
    {"shim_s2mm_task_overhead_cycles", TimingUnit::Cycles, &P::shim_s2mm_task_overhead_cycles, 177,
     "[HW] xdna-emu: per-task S2MM overhead 177 cycles", 177,
     "[est] carried over from AIE2 in cycles: xdna-emu measures NPU1 (Phoenix, array clock 1028 MHz) only"},
    {"kernel_call_overhead_cycles", TimingUnit::Cycles, &P::kernel_call_overhead_cycles, 8,
     "[HW] row 4 - [TH] row 7: the int16 vector_scalar_mul call measures 72 cycles event0 -> event1, of which the "
     "store-bound loop is 64; the one place a call's overhead is counted (kernel cost models give the body)",
     8, "[est] carried over from AIE2: no AIE2P kernel trace published"},
    {"cascade_word_latency_cycles", TimingUnit::Cycles, &P::cascade_word_latency_cycles, 1,
     "[est] AM020 describes the cascade as a direct core-to-core accumulator stream; no latency figure published", 1,
     "[est] carried over from AIE2: no AIE2P cascade figure published"},
    {"core_element_access_cycles", TimingUnit::Cycles, &P::core_element_access_cycles, 1,
     "[est] one at<T>() load or store in a body, with its share of the scalar op between: the core issues two "
     "loads, one store and a 1-cycle scalar add/sub/compare per VLIW bundle (AM020 'AIE-ML Processor'; AM009 "
     "'Scalar Unit'), so a pipelined scalar element loop sustains about one access per cycle",
     1, "[est] carried over from AIE2: the AIE2P core keeps the two load units and one store unit"},
    {"runtime_op_cycles", TimingUnit::Cycles, &P::runtime_op_cycles, 10, "[est] controller per instruction", 10,
     "[est] carried over from AIE2: an estimate, not yet calibrated per generation"},
    {"host_invocation_latency_us", TimingUnit::Microseconds, &P::host_invocation_latency_us, 250.0,
     "[HW] row 9: vector_scalar_mul (4 x 1024 int32) measures 200-300 us NPU time after 4 warm-ups, of which the "
     "array works a few us: the rest is the host's invocation (XRT run, syncs)",
     52.0,
     "[HW] row 36: xrt-smi validate's latency test on Strix Halo (XDNA2), default power mode, averages 52 us per run "
     "of its test design, whose 20-byte instruction stream (XRT PR 8154) leaves next to no array time: host time"},
    {"host_cold_start_us", TimingUnit::Microseconds, &P::host_cold_start_us, 200.0,
     "[HW] row 9: section-4a's vector_scalar_mul timed in one run without warm-up measures 300-600 us NPU time, "
     "200-300 us after 4 warm-ups: 450 - 250 us between the middles of the two ranges, the first run's extra host "
     "time (what it is made of on NPU1 is not measured; on NPU2 see the AIE2P source)",
     476.0,
     "[HW] ROCm/hrx-system issue 807 (Strix, amdxdna 2.26.0, NPU firmware 1.1.2.64): a call that loads its PDI costs "
     "570 us, the same call without the load 94 us, for an 8-worker copy: 476 us. amdxdna connects a context on its "
     "first command (PR 370; aie2_ctx_connect: firmware context and aie2_config_cu's PDI load), so a host's first "
     "timed run pays this load. [est] the same for every design: how the load grows with the PDI is not published"},
};

} // namespace

const char* timing_unit_name(TimingUnit u) {
    switch (u) {
    case TimingUnit::MHz: return "MHz";
    case TimingUnit::BytesPerCycle: return "B/cycle";
    case TimingUnit::Cycles: return "cycles";
    case TimingUnit::Microseconds: return "us";
    }
    return "?";
}

bool timing_name_carries_unit(std::string_view name, TimingUnit u) {
    switch (u) {
    case TimingUnit::MHz: return name.ends_with("_mhz");
    case TimingUnit::BytesPerCycle: return name.ends_with("_bytes_per_cycle");
    case TimingUnit::Cycles: return name.ends_with("_cycles");
    case TimingUnit::Microseconds: return name.ends_with("_us");
    }
    return false;
}

bool timing_unit_must_be_positive(TimingUnit u) { return u != TimingUnit::Cycles && u != TimingUnit::Microseconds; }

double TimingParamRow::get(const TimingParams& p) const {
    if (const auto* d = std::get_if<double TimingParams::*>(&member)) return p.**d;
    return static_cast<double>(p.*std::get<std::uint32_t TimingParams::*>(member));
}

void TimingParamRow::set(TimingParams& p, double v) const {
    if (const auto* d = std::get_if<double TimingParams::*>(&member))
        p.** d = v;
    else
        p.*std::get<std::uint32_t TimingParams::*>(member) = static_cast<std::uint32_t>(v);
}

std::span<const TimingParamRow> timing_param_table() { return kTable; }

const TimingParamRow* find_timing_param(std::string_view name) {
    for (const auto& row : kTable)
        if (name == row.name) return &row;
    return nullptr;
}

std::string timing_value_problem(const TimingParamRow& row, double v) {
    if (!std::isfinite(v)) return "must be a finite number";
    if (v < 0) return "must be a non-negative number";
    if (v <= 0 && timing_unit_must_be_positive(row.unit)) return "must be positive";
    if (std::holds_alternative<std::uint32_t TimingParams::*>(row.member)) {
        // Cycle counts are 32-bit integers: no fraction is dropped and nothing wraps.
        if (v != std::floor(v)) return fmt::format("must be a whole number of cycles, got {}", v);
        if (v > static_cast<double>(std::numeric_limits<std::uint32_t>::max()))
            return fmt::format("must be at most 4294967295 cycles (32 bits), got {:.0f}", v);
    }
    return {};
}

TimingParams::TimingParams() : TimingParams(Arch::AIE2) {}

TimingParams::TimingParams(Arch generation) : arch(generation) {
    for (const auto& row : kTable) row.set(*this, row.default_for(generation));
}

TimingParams TimingParams::for_arch(Arch arch) { return TimingParams(arch); }

void TimingParams::apply_json(const std::string& json_text, const std::string& origin) {
    nlohmann::json j;
    // A key given twice would silently keep its last value (nlohmann keeps one): refuse it.
    std::set<std::string> keys;
    std::string duplicate;
    const nlohmann::json::parser_callback_t seen = [&](int depth, nlohmann::json::parse_event_t event,
                                                       nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::key && depth == 1 &&
            !keys.insert(parsed.get<std::string>()).second && duplicate.empty())
            duplicate = parsed.get<std::string>();
        return true;
    };
    try {
        j = nlohmann::json::parse(json_text, seen);
    } catch (const nlohmann::json::exception& e) {
        throw DesignError(fmt::format("timing file {}: not valid JSON: {}", origin, e.what()));
    }
    if (!duplicate.empty())
        throw DesignError(fmt::format("timing file {}: parameter '{}' is given twice", origin, duplicate));
    if (!j.is_object()) throw DesignError(fmt::format("timing file {}: expected a JSON object", origin));
    TimingParams next = *this; // all or nothing: a refused file leaves the table as it was
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == kCalibrationKey) { // what `npusim calibrate` fitted this profile to: its generation counts
            const auto& meta = it.value();
            if (!meta.is_object())
                throw DesignError(fmt::format("timing file {}: '{}' must be an object", origin, kCalibrationKey));
            const std::string gen = meta.contains("generation") && meta["generation"].is_string()
                                        ? meta["generation"].get<std::string>()
                                        : std::string(arch_name(arch));
            if (gen != arch_name(arch))
                throw DesignError(fmt::format("timing file {} was calibrated on {} ({}), and this run's device is {}: "
                                              "a profile holds one generation's parameters",
                                              origin, gen, meta.value("device", "?"), arch_name(arch)));
            continue;
        }
        const TimingParamRow* row = find_timing_param(it.key());
        if (!row) {
            std::string known;
            for (const auto& x : kTable) known += std::string(known.empty() ? "" : ", ") + x.name;
            throw DesignError(
                fmt::format("timing file {}: unknown parameter '{}' (known: {})", origin, it.key(), known));
        }
        const std::string problem = it.value().is_number() ? timing_value_problem(*row, it.value().get<double>())
                                                           : "must be a non-negative number";
        if (!problem.empty())
            throw DesignError(fmt::format("timing file {}: parameter '{}' {}", origin, it.key(), problem));
        row->set(next, it.value().get<double>());
    }
    *this = next;
}

void TimingParams::apply_json_file(const std::string& path) {
    std::string text;
    try {
        text = read_bounded_file(path, kMaxTimingFileBytes);
    } catch (const BoundedFileError& e) {
        switch (e.kind()) {
        case BoundedFileError::Kind::Directory:
            throw DesignError(fmt::format("cannot read timing file '{}': it is a directory", path));
        case BoundedFileError::Kind::Open: throw DesignError(fmt::format("cannot open timing file '{}'", path));
        case BoundedFileError::Kind::Read:
            throw DesignError(fmt::format("cannot read timing file '{}': {}", path, e.what()));
        case BoundedFileError::Kind::TooLarge:
            throw DesignError(fmt::format("timing file '{}' is too large: {} (a timing file is a JSON object of "
                                          "a few dozen parameters)",
                                          path, e.what()));
        }
        throw;
    }
    apply_json(text, "'" + path + "'");
}

std::vector<TimingParams::Info> TimingParams::describe() const {
    std::vector<Info> out;
    for (const auto& row : kTable)
        out.push_back({row.name, row.get(*this), timing_unit_name(row.unit), row.source_for(arch)});
    return out;
}

} // namespace npusim::model
