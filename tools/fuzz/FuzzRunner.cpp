#include "FuzzRunner.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/sim/Simulator.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::fuzz {

const char* ending_name(Ending e) {
    switch (e) {
    case Ending::Success: return "success";
    case Ending::DesignError: return "design error";
    case Ending::Deadlock: return "deadlock";
    case Ending::Limit: return "limit";
    case Ending::Protocol: return "protocol error";
    case Ending::Kernel: return "kernel error";
    case Ending::SizeMismatch: return "size mismatch";
    case Ending::WrongData: return "WRONG DATA (bug)";
    case Ending::Internal: return "INVARIANT BROKEN (bug)";
    case Ending::Unexpected: return "UNEXPECTED EXCEPTION (bug)";
    case Ending::MissedFault: return "FAULT NOT CAUGHT (bug)";
    }
    return "?";
}

std::uint64_t FuzzRunner::Tally::bugs() const {
    std::uint64_t n = 0;
    for (int i = 0; i < kEndings; ++i)
        if (is_bug(static_cast<Ending>(i))) n += count[static_cast<std::size_t>(i)];
    return n;
}

bool fault_caught_by(const Plan& p, Fault f, Ending e) {
    if (e == Ending::DesignError) return true; // the API or resolve may refuse any design
    switch (f) {
    case Fault::None:
    case Fault::NoDrainWait: return true; // the run may end before the output is written: not checked
    case Fault::KernelThrows:
    case Fault::KernelOverrun: return e == Ending::Kernel; // the memory check finds every changed byte
    case Fault::BodyOverAcquire: return e == Ending::Deadlock;
    case Fault::BodyExtraRelease: return e == Ending::Protocol;
    case Fault::BodyStopsEarly:
    case Fault::FillFewer:
    case Fault::DrainMore: return e == Ending::Deadlock;
    case Fault::RaggedTensor: {
        // Half an object more: its first half completes the BDs of a mem-tile split's first part
        // (one lock pair per part), so it flows through and the drain, which wants that half too,
        // is satisfied; a transposed drain reads whole objects only. Otherwise it hangs.
        const bool split = std::any_of(p.stages.begin(), p.stages.end(),
                                       [](const StagePlan& s) { return s.kind == StagePlan::Kind::SplitJoin; });
        return e == Ending::Deadlock || ((split || p.transpose_drain) && e == Ending::Success);
    }
    case Fault::BadDepth: return false; // depth 0: refused before it runs
    }
    return false;
}

namespace {

std::string first_difference(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
    if (got.size() != want.size()) return fmt::format("{} B instead of {} B", got.size(), want.size());
    std::size_t diffs = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && diffs++ == 0) first = i;
    return fmt::format("{} of {} bytes differ, first at byte {} (got 0x{:02x}, want 0x{:02x})", diffs, got.size(),
                       first, got[first], want[first]);
}

Ending ending_of(SimulationError::Kind k) {
    switch (k) {
    case SimulationError::Kind::Deadlock: return Ending::Deadlock;
    case SimulationError::Kind::Limit: return Ending::Limit;
    case SimulationError::Kind::Protocol: return Ending::Protocol;
    case SimulationError::Kind::Kernel: return Ending::Kernel;
    case SimulationError::Kind::Mismatch: return Ending::SizeMismatch;
    case SimulationError::Kind::Internal: return Ending::Internal;
    }
    return Ending::Unexpected;
}

} // namespace

CaseResult FuzzRunner::run(const Plan& plan, std::uint64_t seed,
                           const std::function<void(BuiltDesign&)>& tamper) const {
    CaseResult r;
    r.well_formed = plan.well_formed();
    try {
        BuiltDesign d = build_design(plan, seed);
        if (tamper) tamper(d);
        const auto net = d.program->resolve();
        sim::SimOptions o;
        o.timing = model::TimingParams::for_arch(net.device->arch);
        o.max_cycles = limits_.max_cycles;
        o.wall_timeout_seconds = limits_.wall_seconds;
        const auto res = sim::simulate(net, d.host, o);
        r.cycles = res.cycles;
        static const char* names[] = {"input", "output", "broadcast output"};
        for (std::size_t i = 0; i < d.expected.size(); ++i)
            if (d.expected[i] && res.host[i] != *d.expected[i]) {
                r.ending = Ending::WrongData;
                r.message += fmt::format("{}{}: {}", r.message.empty() ? "" : "; ", names[i],
                                         first_difference(res.host[i], *d.expected[i]));
            }
        for (const auto f : plan.faults())
            if (!fault_caught_by(plan, f, r.ending)) {
                r.message = fmt::format("planted fault {} ended in {}", fault_name(f), ending_name(r.ending));
                r.ending = Ending::MissedFault;
            }
    } catch (const DesignError& e) {
        r.ending = Ending::DesignError;
        r.message = e.what();
    } catch (const SimulationError& e) {
        r.ending = ending_of(e.kind());
        r.message = e.what();
    } catch (const std::exception& e) {
        r.ending = Ending::Unexpected;
        r.message = fmt::format("{}: {}", typeid(e).name(), e.what());
    }
    return r;
}

void FuzzRunner::add(Tally& t, const Plan& p, const CaseResult& r) const {
    ++t.cases;
    ++t.count[static_cast<int>(r.ending)];
    if (r.well_formed) ++t.well_formed[static_cast<int>(r.ending)];
    for (const auto f : p.faults()) ++t.faults_seen[fault_name(f)];
}

} // namespace npusim::fuzz
