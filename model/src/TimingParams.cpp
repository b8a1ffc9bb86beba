#include "npusim/model/TimingParams.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

namespace npusim::model {

namespace {

struct Field {
    const char* name;
    std::variant<double TimingParams::*, std::uint32_t TimingParams::*> member;
    const char* unit;
    const char* source;
};

// One row per parameter: name = member name (unit in the name), source tag.
const Field kFields[] = {
    {"clock_mhz", &TimingParams::clock_mhz, "MHz",
     "[code] mlir-aie examples assume 1 GHz (plot_sweep.py); driver DPM tables give 0.8-1.8 GHz"},
    {"stream_bytes_per_cycle", &TimingParams::stream_bytes_per_cycle, "B/cycle",
     "[doc] AM020: 32-bit stream switch; AIE2P [est] same until measured (AM027 says 64 bit)"},
    {"switch_hop_latency_cycles", &TimingParams::switch_hop_latency_cycles, "cycles",
     "[doc] AM020: 2 cycles slave + 2 cycles master per switch"},
    {"shim_dma_bytes_per_cycle", &TimingParams::shim_dma_bytes_per_cycle, "B/cycle",
     "[doc] AM020 shim DMA 4 B/cycle/channel; [HW] xdna-emu ~1 word/cycle"},
    {"tile_dma_bytes_per_cycle", &TimingParams::tile_dma_bytes_per_cycle, "B/cycle",
     "[est] bounded by the 32-bit stream port; [HW] memtile stream-bound at 1 word/cycle"},
    {"lock_acquire_cycles", &TimingParams::lock_acquire_cycles, "cycles",
     "[HW] xdna-emu: +1 cycle arbitration stall per lock request"},
    {"lock_release_cycles", &TimingParams::lock_release_cycles, "cycles", "[est] as acquire"},
    {"bd_setup_cycles", &TimingParams::bd_setup_cycles, "cycles", "[est] BD fetch and lock handshake"},
    {"shim_task_dispatch_cycles", &TimingParams::shim_task_dispatch_cycles, "cycles",
     "[HW] xdna-emu: pipelined START_TASK gap ~520 cycles (cold ~3050)"},
    {"shim_mm2s_task_overhead_cycles", &TimingParams::shim_mm2s_task_overhead_cycles, "cycles",
     "[HW] xdna-emu: per-task MM2S overhead 249 cycles"},
    {"shim_s2mm_task_overhead_cycles", &TimingParams::shim_s2mm_task_overhead_cycles, "cycles",
     "[HW] xdna-emu: per-task S2MM overhead 177 cycles"},
    {"kernel_call_overhead_cycles", &TimingParams::kernel_call_overhead_cycles, "cycles",
     "[est] call/return and loop prologue"},
    {"runtime_op_cycles", &TimingParams::runtime_op_cycles, "cycles", "[est] controller per instruction"},
};

} // namespace

TimingParams TimingParams::for_arch(Arch arch) {
    TimingParams p;
    (void)arch;   // AIE2P: same starting values until measured (docs/timing-model.md)
    return p;
}

void TimingParams::apply_json(const std::string& json_text, const std::string& origin) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
        throw DesignError(fmt::format("timing file {}: not valid JSON: {}", origin, e.what()));
    }
    if (!j.is_object()) throw DesignError(fmt::format("timing file {}: expected a JSON object", origin));
    for (auto it = j.begin(); it != j.end(); ++it) {
        const Field* f = nullptr;
        for (const auto& x : kFields)
            if (it.key() == x.name) f = &x;
        if (!f) {
            std::string known;
            for (const auto& x : kFields) known += std::string(known.empty() ? "" : ", ") + x.name;
            throw DesignError(fmt::format("timing file {}: unknown parameter '{}' (known: {})", origin, it.key(), known));
        }
        if (!it.value().is_number() || it.value().get<double>() < 0)
            throw DesignError(fmt::format("timing file {}: parameter '{}' must be a non-negative number", origin, it.key()));
        const double v = it.value().get<double>();
        if (std::holds_alternative<double TimingParams::*>(f->member)) {
            if (v <= 0 && (std::string(f->name).find("per_cycle") != std::string::npos || std::string(f->name) == "clock_mhz"))
                throw DesignError(fmt::format("timing file {}: parameter '{}' must be positive", origin, it.key()));
            this->*std::get<double TimingParams::*>(f->member) = v;
        } else {
            this->*std::get<std::uint32_t TimingParams::*>(f->member) = static_cast<std::uint32_t>(v);
        }
    }
}

void TimingParams::apply_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw DesignError(fmt::format("cannot open timing file '{}'", path));
    std::stringstream ss;
    ss << in.rdbuf();
    apply_json(ss.str(), "'" + path + "'");
}

std::vector<TimingParams::Info> TimingParams::describe() const {
    std::vector<Info> out;
    for (const auto& f : kFields) {
        double v = std::holds_alternative<double TimingParams::*>(f.member)
                       ? this->*std::get<double TimingParams::*>(f.member)
                       : static_cast<double>(this->*std::get<std::uint32_t TimingParams::*>(f.member));
        out.push_back({f.name, v, f.unit, f.source});
    }
    return out;
}

} // namespace npusim::model
