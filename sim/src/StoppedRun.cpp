#include "StoppedRun.hpp"

#include <algorithm>

namespace npusim::sim {

bool is_blocked(const ProcessView& v) { return v.progress.state == ProcessProgress::State::Blocked; }

bool over_pool(const ProcessView& p) {
    return p.state && p.state->status == ProcessState::Status::WaitLock && p.state->ring &&
           p.state->count > p.state->pool;
}

StoppedRun::StoppedRun(const model::Netlist& n, std::vector<ProcessView> processes, std::vector<LinkView> l,
                       std::vector<LockView> k, std::uint64_t c, std::vector<std::string> w)
    : net(n), rel(n), procs(std::move(processes)), links(std::move(l)), locks(std::move(k)), cycle(c),
      warnings(std::move(w)) {}

int StoppedRun::process_of(const model::Actor& a) const {
    for (std::size_t i = 0; i < procs.size(); ++i) {
        const auto& p = procs[i];
        if (a.kind == model::Actor::Kind::Core && p.kind == ProcessView::Kind::Worker && p.index == a.index)
            return static_cast<int>(i);
        if (a.kind == model::Actor::Kind::DmaBd && p.kind == ProcessView::Kind::TileDma && p.index == a.index)
            return static_cast<int>(i);
        if (a.kind == model::Actor::Kind::Runtime && p.kind == ProcessView::Kind::Runtime) return static_cast<int>(i);
        if (a.kind == model::Actor::Kind::ShimTask && p.kind == ProcessView::Kind::ShimDma &&
            p.endpoint == rel.tasks.at(static_cast<std::size_t>(a.index)))
            return static_cast<int>(i);
    }
    return -1;
}

int StoppedRun::shim_process(const model::StreamEndpoint& e) const {
    for (std::size_t i = 0; i < procs.size(); ++i)
        if (procs[i].kind == ProcessView::Kind::ShimDma && procs[i].endpoint == e) return static_cast<int>(i);
    return -1;
}

int StoppedRun::later_start(const model::StreamEndpoint& e) const {
    for (const auto& r : procs)
        if (r.kind == ProcessView::Kind::Runtime)
            for (std::size_t k = static_cast<std::size_t>(std::max(0, r.next_op)); k < net.sequence.size(); ++k) {
                const auto& op = net.sequence[k];
                if (op.kind == model::RuntimeOp::Kind::StartTask &&
                    rel.tasks.at(static_cast<std::size_t>(op.task)) == e)
                    return static_cast<int>(k);
            }
    return -1;
}

int StoppedRun::link_of(const ProcessView& p) const {
    const auto self = static_cast<int>(&p - procs.data());
    for (std::size_t li = 0; li < links.size(); ++li) {
        if (links[li].sender == self) return static_cast<int>(li);
        for (int r : links[li].receivers)
            if (r == self) return static_cast<int>(li);
    }
    return -1;
}

} // namespace npusim::sim
