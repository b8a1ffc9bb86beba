#include "ShimDmaChannel.hpp"

#include "npusim/model/NetlistRelations.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

ShimDmaChannel::ShimDmaChannel(const ShimDmaServices& services, model::StreamEndpoint ep)
    : SimProcess(services.run, model::shim_dma_name(ep)), tasks_(services.tasks), host_tensors_(services.host),
      board_(services.board), stats_(services.stats), queue_depth_(services.queue_depth), locks_(services.locks),
      ep_(ep) {
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

bool ShimDmaChannel::push(int task, std::uint64_t ready_cycle, std::uint64_t shift, const CriticalPath* path) {
    if (!has_room()) return false;
    queue_.push_back({task, ready_cycle, shift, path ? *path : CriticalPath::unknown(ready_cycle)});
    pushed_.notify();
    return true;
}

void ShimDmaChannel::activate() {
    const auto& t = svc_.timing;
    for (;;) {
        switch (phase_) {
        case Phase::Idle:
            ps_.status = ProcessState::Status::Idle;
            ps_.detail.clear();
            current_ = -1;
            phase_ = Phase::Queue;
            [[fallthrough]];
        case Phase::Queue: {
            if (queue_.empty()) {
                clk_.trigger_for(Wake::on(pushed_));
                return;
            }
            q_ = queue_.front();
            queue_.pop_front();
            current_ = q_.task; // out of the queue: its slot is free for the next push
            step_ = 0;
            ps_.status = ProcessState::Status::Running;
            const auto& task = tasks_.at(static_cast<std::size_t>(q_.task));
            ps_.detail = fmt::format("task {} ({})", task.id, task.prov.describe());
            phase_ = Phase::Acquire;
            acquire_ = LockAcquire{task.acquire_value, task.acquire_equal, &lock_stall_};
            // A task starts no earlier than it is ready (a cold channel's first task starts late).
            // A channel running ahead of simulated time past that keeps its lead; one that must
            // wait for it waits in simulated time, so that channels starting together reserve host
            // memory in simulated-time order whatever the engine's scheduling.
            clk_.join(q_.path); // a task pushed after the channel's own time starts after the push
            if (q_.ready > clk_.local_cycles()) {
                clk_.set_local_cycles(q_.ready);
                if (clk_.trigger_sync()) return;
            }
            break;
        }
        case Phase::Acquire: {
            // A BD with Lock_Acq_Enable waits for its shim lock before it moves data (AM025 DMA_BD<n>_7).
            const auto& task = tasks_.at(static_cast<std::size_t>(q_.task));
            if (task.acquire_lock >= 0) {
                const auto w = locks_.at(task.acquire_lock).acquire_step(acquire_, clk_, ps_);
                if (!w.done()) {
                    if (clk_.trigger_for(w)) return;
                    break;
                }
                ps_.status = ProcessState::Status::Running;
                ps_.detail = fmt::format("task {} ({})", task.id, task.prov.describe());
            }
            phase_ = Phase::Start;
            break;
        }
        case Phase::Start: {
            const auto& task = tasks_.at(static_cast<std::size_t>(q_.task));
            if (ep_.dir == model::Direction::MM2S)
                clk_.advance(t.shim_mm2s_task_overhead_cycles, PathCost::ShimMm2sOverhead);
            else
                clk_.advance(t.shim_s2mm_task_overhead_cycles, PathCost::ShimS2mmOverhead);
            // The task's next BD: its only one, or the next of its chain (model/ShimChainSteps.hpp).
            const auto step = model::shim_task_step(task, step_, q_.shift);
            pat_.emplace(step.pattern);
            auto& host = host_tensors_.at(static_cast<std::size_t>(step.host_tensor));
            host_ = host.data();
            begin_ = clk_.local_cycles();
            if (step_ == 0) task_begin_ = begin_;
            if (!link_) {
                fail(SimulationError(SimulationError::Kind::Protocol,
                                     fmt::format("{}: task {} has no stream flow", ps_.name, task.id)));
            }
            if (ep_.dir == model::Direction::MM2S) {
                const std::uint8_t* data;
                if (pat_->run_bytes() == pat_->total_bytes()) {
                    data = host_ + pat_->min_offset();
                } else {
                    staging_.resize(pat_->total_bytes());
                    model::AddressPattern::Cursor(*pat_).gather(host_, staging_.data(), pat_->total_bytes());
                    data = staging_.data();
                }
                stalled_before_ = time_.stream_stall;
                const auto total = pat_->total_bytes();
                if (packet_ && task.packet_id < 0) {
                    // A task without a header of its own: its first data word is the packet's header
                    // (PacketSwitch.hpp).
                    const std::uint32_t h = packet_->data_header(
                        packet_source_, data, total, fmt::format("task {} ({})", task.id, task.prov.describe()));
                    packet_->begin_send(packet_send_, packet_source_, static_cast<int>(h & 0x1fu), h, data + 4,
                                        total - 4);
                } else if (packet_) { // one packet: its header from the task's BD, then the data (AM025)
                    packet_->begin_send(packet_send_, packet_source_, task.packet_id,
                                        model::packet_header(task.packet_id, task.packet_type, ep_.tile), data, total);
                } else if (task.packet_id >= 0) {
                    // A packet task on a circuit flow: its header word travels as the first data word.
                    const std::uint32_t h = model::packet_header(task.packet_id, task.packet_type, ep_.tile);
                    packet_staging_.resize(total + 4);
                    std::memcpy(packet_staging_.data(), &h, 4);
                    std::memcpy(packet_staging_.data() + 4, data, total);
                    link_->begin_send(send_, packet_staging_.data(), total + 4);
                } else {
                    link_->begin_send(send_, data, total);
                    // The link sends `data` in order, whether host memory or the gathered copy.
                    send_.ahead.reset(data, total, false);
                    send_.ahead.advance(0);
                }
                phase_ = Phase::Sending;
            } else {
                cursor_.emplace(*pat_);
                if (pat_->run_bytes() == pat_->total_bytes()) { // written in order: its next bytes are known
                    out_ahead_.reset(host_ + pat_->min_offset(), pat_->total_bytes(), true);
                    out_ahead_.advance(0);
                } else {
                    out_ahead_.clear();
                }
                phase_ = Phase::Receiving;
                if (pat_->total_bytes() > 0) {
                    link_->post_receive(*this, pat_->total_bytes(), clk_, ps_);
                    if (posted && clk_.trigger_for(Wake::on(filled))) return;
                }
            }
            break;
        }
        case Phase::Sending: {
            const auto w = packet_ ? packet_->step(packet_send_, clk_, ps_, time_) : link_->step(send_, clk_, ps_, time_);
            if (!w.done()) {
                if (clk_.trigger_for(w)) return;
                break;
            }
            trace_stream_stall(tasks_.at(static_cast<std::size_t>(q_.task)), begin_,
                               time_.stream_stall - stalled_before_, "back-pressure");
            phase_ = Phase::Sync;
            break;
        }
        case Phase::Receiving: {
            if (posted && clk_.trigger_for(Wake::on(filled))) return;
            if (pat_->total_bytes() > 0) {
                // The data arrived at or after the time this channel posted (StreamLink::receive).
                clk_.set_local_cycles(now_cycles());
                clk_.join(arrival_path);
                ps_.status = ProcessState::Status::Running;
            }
            // As a tile S2MM: the task's bytes moved at the link's rate up to its end; before, it waited.
            const auto span = clk_.local_cycles() - begin_;
            const auto streaming =
                std::min(span, stream_transfer_cycles(pat_->total_bytes(), link_->bytes_per_cycle(), 0));
            time_.active += streaming;
            time_.stream_stall += span - streaming;
            trace_stream_stall(tasks_.at(static_cast<std::size_t>(q_.task)), begin_, span - streaming, "starved");
            phase_ = Phase::Sync;
            break;
        }
        case Phase::Sync:
            if (step_ + 1 < model::shim_task_steps(tasks_.at(static_cast<std::size_t>(q_.task)))) {
                // A chained BD follows (next_bd): it starts when this one has moved its data.
                bytes_ += pat_->total_bytes();
                ++stats_.bd_transfers;
                ++step_;
                phase_ = Phase::Start;
                break;
            }
            phase_ = Phase::Retire;
            if (clk_.trigger_sync()) return;
            break;
        case Phase::Retire: {
            const auto& task = tasks_.at(static_cast<std::size_t>(q_.task));
            bytes_ += pat_->total_bytes();
            ++tasks_done_;
            ++stats_.bd_transfers;
            if (track_ >= 0) svc_.tracks.sink()->span(track_, task.prov.describe(), task_begin_, now_cycles());
            if (task.issue_token) {
                ++tokens_received_;
                token_paths_.push_back(clk_.path());
            }
            if (task.release_lock >= 0) locks_.at(task.release_lock).release_unsynced(task.release_value, clk_, ps_.name);
            ps_.acted("completed", &task_labels_[static_cast<std::size_t>(q_.task)], -1, now_cycles());
            current_ = -1; // retired: the channel takes the next queued task
            phase_ = Phase::Idle;
            board_.mark_done(q_.task);
            break;
        }
        }
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
    out_ahead_.moved(n);
}

} // namespace npusim::sim
