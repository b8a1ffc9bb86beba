#include "npusim/harness/RunOutcome.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <sstream>

namespace npusim::harness {

const char* to_string(RunOutcome::Status s) {
    switch (s) {
    case RunOutcome::Status::Ok: return "ok";
    case RunOutcome::Status::Mismatch: return "mismatch";
    case RunOutcome::Status::Deadlock: return "deadlock";
    case RunOutcome::Status::Limit: return "limit";
    case RunOutcome::Status::Refused: return "refused";
    case RunOutcome::Status::Error: return "error";
    case RunOutcome::Status::Crashed: return "crashed";
    case RunOutcome::Status::Timeout: return "timeout";
    }
    return "?";
}

std::string RunOutcome::describe() const {
    switch (status) {
    case Status::Ok: return std::to_string(cycles);
    case Status::Deadlock:
    case Status::Limit:
    case Status::Mismatch: return to_string(status);
    default:
        return message.empty() ? std::string(to_string(status)) : fmt::format("{}: {}", to_string(status), message);
    }
}

namespace {

constexpr std::size_t kMaxMessage = 400;

// The first line of an error message, shortened: a table cell's reason, not the full diagnosis.
std::string first_line(const std::string& s) {
    std::string l = s.substr(0, s.find('\n'));
    if (l.size() > kMaxMessage) l = l.substr(0, kMaxMessage - 3) + "...";
    return l;
}

} // namespace

RunOutcome outcome_of(const DesignSpec& spec, const std::string& device, const Params& params, const RunOptions& opts) {
    RunOutcome o;
    try {
        const RunReport rep = run_design(spec, device, params, opts);
        o.cycles = rep.result.cycles;
        o.status = rep.all_match ? RunOutcome::Status::Ok : RunOutcome::Status::Mismatch;
        for (const auto& chk : rep.checks)
            if (!chk.match) {
                o.message = fmt::format("output {}: {} of {} elements differ", chk.name, chk.mismatches, chk.elements);
                break;
            }
    } catch (const DesignError& e) {
        o.status = RunOutcome::Status::Refused;
        o.message = first_line(e.what());
    } catch (const SimulationError& e) {
        o.status = e.kind() == SimulationError::Kind::Deadlock ? RunOutcome::Status::Deadlock
                   : e.kind() == SimulationError::Kind::Limit  ? RunOutcome::Status::Limit
                                                               : RunOutcome::Status::Error;
        o.message = first_line(e.what());
    } catch (const std::exception& e) {
        o.status = RunOutcome::Status::Error;
        o.message = first_line(e.what());
    }
    return o;
}

std::string encode(const RunOutcome& o) {
    return fmt::format("{} {} {}\n{}", static_cast<int>(o.status), o.cycles, o.message.size(), o.message);
}

std::optional<RunOutcome> decode(const std::string& s) {
    std::istringstream in(s);
    int status = 0;
    RunOutcome o;
    std::size_t len = 0;
    if (!(in >> status >> o.cycles >> len) || in.get() != '\n') return std::nullopt;
    if (status < 0 || status > static_cast<int>(RunOutcome::Status::Timeout)) return std::nullopt;
    o.status = static_cast<RunOutcome::Status>(status);
    const auto pos = static_cast<std::size_t>(in.tellg());
    if (s.size() != pos + len) return std::nullopt;
    o.message = s.substr(pos);
    return o;
}

} // namespace npusim::harness
