#include "ShimDmaChannel.hpp"

#include "npusim/model/NetlistRelations.hpp"

#include <fmt/format.h>

namespace npusim::sim {

ShimDmaChannel::ShimDmaChannel(const ShimDmaServices& services, model::StreamEndpoint ep)
    : SimProcess(services.run, model::shim_dma_name(ep)), tasks_(services.tasks), host_tensors_(services.host),
      board_(services.board), stats_(services.stats), queue_depth_(services.queue_depth), ep_(ep) {
    bytes_per_cycle = svc_.timing.shim_dma_bytes_per_cycle;
    ps_.status = ProcessState::Status::Idle;
    for (const auto& t : tasks_) task_labels_.push_back(fmt::format("task {} ({})", t.id, t.prov.describe()));
    open_track(ep);
}

std::string ShimDmaChannel::label() const { return ps_.name; }

ProcessView ShimDmaChannel::view() const {
    auto v = base_view(ProcessView::Kind::ShimDma);
    v.endpoint = ep_;
    v.link = link_;
    v.task = current_;
    for (const auto& q : queue_) v.queued.push_back(q.task);
    std::uint64_t done = 0, total = 0;
    if (current_ >= 0) {
        total = tasks_.at(static_cast<std::size_t>(current_)).bytes();
        if (ep_.dir == model::Direction::S2MM) {
            v.rx_total = total;
            v.rx_remaining = posted ? remaining : total;
            done = total - v.rx_remaining;
        } else if (link_) {
            v.tx_done = done = link_->sent();
            v.tx_total = total;
        }
    }
    v.progress.steps = tasks_done_;
    v.progress.steps_unit = "tasks";
    v.progress.bytes = bytes_ + done;
    if (current_ >= 0)
        v.progress.current =
            fmt::format("{}: {} of {} B", task_labels_[static_cast<std::size_t>(current_)], done, total);
    return v;
}

bool ShimDmaChannel::push(int task, std::uint64_t ready_cycle, std::uint64_t shift) {
    if (!has_room()) return false;
    queue_.push_back({task, ready_cycle, shift});
    pushed_.notify();
    return true;
}

void ShimDmaChannel::body() {
    const auto& t = svc_.timing;
    for (;;) {
        ps_.status = ProcessState::Status::Idle;
        ps_.detail.clear();
        current_ = -1;
        while (queue_.empty()) clk_.wait(pushed_);
        const Queued q = queue_.front();
        queue_.pop_front();
        current_ = q.task; // still holds its slot (pending()) until it retires below
        ps_.status = ProcessState::Status::Running;
        const auto& task = tasks_.at(static_cast<std::size_t>(q.task));
        ps_.detail = fmt::format("task {} ({})", task.id, task.prov.describe());
        if (q.ready > now_cycles()) clk_.wait_cycles(q.ready - now_cycles());
        clk_.advance(ep_.dir == model::Direction::MM2S ? t.shim_mm2s_task_overhead_cycles
                                                       : t.shim_s2mm_task_overhead_cycles);
        const model::AddressPattern pat(static_cast<std::int64_t>(task.offset_bytes + q.shift), task.dims);
        auto& host = host_tensors_.at(static_cast<std::size_t>(task.host_tensor));
        host_ = host.data();
        const std::uint64_t begin = clk_.local_cycles();
        if (!link_) {
            fail(SimulationError(SimulationError::Kind::Protocol,
                                 fmt::format("{}: task {} has no stream flow", ps_.name, task.id)));
        }
        if (ep_.dir == model::Direction::MM2S) {
            const std::uint8_t* data;
            if (pat.run_bytes() == pat.total_bytes()) {
                data = host_ + pat.min_offset();
            } else {
                staging_.resize(pat.total_bytes());
                model::AddressPattern::Cursor(pat).gather(host_, staging_.data(), pat.total_bytes());
                data = staging_.data();
            }
            const auto stalled_before = time_.stream_stall;
            link_->send(data, pat.total_bytes(), clk_, ps_, time_);
            trace_stream_stall(task, begin, time_.stream_stall - stalled_before, "back-pressure");
        } else {
            cursor_.emplace(pat);
            link_->receive(*this, pat.total_bytes(), clk_, ps_);
            // As a tile S2MM: the task's bytes moved at the link's rate up to its end; before, it waited.
            const auto span = clk_.local_cycles() - begin;
            const auto streaming =
                std::min(span, stream_transfer_cycles(pat.total_bytes(), link_->bytes_per_cycle(), 0));
            time_.active += streaming;
            time_.stream_stall += span - streaming;
            trace_stream_stall(task, begin, span - streaming, "starved");
        }
        clk_.sync();
        bytes_ += pat.total_bytes();
        ++tasks_done_;
        ++stats_.bd_transfers;
        if (track_ >= 0) svc_.tracks.sink()->span(track_, task.prov.describe(), begin, now_cycles());
        if (task.issue_token) ++tokens_received_;
        ps_.acted("completed", &task_labels_[static_cast<std::size_t>(q.task)], -1, now_cycles());
        current_ = -1; // retired: its slot is free
        board_.mark_done(q.task);
    }
}

void ShimDmaChannel::trace_stream_stall(const model::ShimTask& task, std::uint64_t from, std::uint64_t cycles,
                                        std::string_view why) {
    if (track_ < 0 || cycles == 0) return;
    const TraceArg args[] = {TraceArg::str("fifo", task.prov.object), TraceArg::num("task", task.id),
                             TraceArg::str("cause", why)};
    svc_.tracks.sink()->detailed_span(track_, TraceKind::StreamStall, fmt::format("stream stall: {}", why), from,
                                      from + cycles, args);
}

void ShimDmaChannel::accept(const std::uint8_t* data, std::uint64_t n) {
    written += cursor_->scatter(host_, data, n);
}

} // namespace npusim::sim
