#include "npusim/frontend/Program.hpp"

#include "resolve/Resolver.hpp"

namespace npusim::iron {

const char* alloc_scheme_name(AllocScheme s) {
    switch (s) {
    case AllocScheme::BankAware: return "bank-aware";
    case AllocScheme::BasicSequential: return "basic-sequential";
    case AllocScheme::Default: break;
    }
    return "";
}

std::optional<AllocScheme> parse_alloc_scheme(const std::string& s) {
    if (s == "bank-aware") return AllocScheme::BankAware;
    if (s == "basic-sequential") return AllocScheme::BasicSequential;
    return std::nullopt;
}

Program::Program(const model::DeviceSpec& device, Runtime rt, std::vector<Worker> workers, std::string name)
    : device_(&device), runtime_(std::move(rt)), workers_(std::move(workers)), name_(std::move(name)) {}

Program::Program(const std::string& device_name, Runtime rt, std::vector<Worker> workers, std::string name)
    : Program(model::device_by_name(device_name), std::move(rt), std::move(workers), std::move(name)) {}

void Program::enable_trace(std::uint64_t trace_size, std::optional<std::vector<Worker>> workers,
                           std::optional<std::vector<TraceEvent>> coretile_events,
                           std::optional<std::vector<TraceEvent>> memtile_events,
                           std::optional<std::vector<TraceEvent>> shimtile_events) {
    TraceOptions o;
    o.trace_size = trace_size;
    o.workers = std::move(workers);
    o.coretile_events = std::move(coretile_events);
    o.memtile_events = std::move(memtile_events);
    o.shimtile_events = std::move(shimtile_events);
    enable_trace(std::move(o));
}

void Program::enable_trace(TraceOptions opts) { trace_ = std::move(opts); }

model::Netlist Program::resolve(const ResolveOptions& opts) const {
    detail::Resolver r(*this, opts);
    return r.run();
}

} // namespace npusim::iron
