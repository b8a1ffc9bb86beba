#include "TileDmaChannel.hpp"

#include "npusim/model/NetlistRelations.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

TileDmaChannel::TileDmaChannel(const TileDmaServices& services, const model::DmaChannelProgram& prog)
    : SimProcess(services.run, model::tile_dma_name({prog.tile, prog.dir, prog.channel})), buffers_(services.buffers),
      locks_(services.locks), stats_(services.stats), prog_(prog), memory_(services.memory),
      mem_(services.memory.of(prog.tile)) {
    bytes_per_cycle = svc_.timing.tile_dma_bytes_per_cycle;
    for (const auto& bd : prog.bds) {
        const auto& buf = buffers_.at(static_cast<std::size_t>(bd.buffer));
        patterns_.emplace_back(static_cast<std::int64_t>(buf.address + bd.offset_bytes), bd.dims, bd.length_bytes);
        bd_labels_.push_back(fmt::format("BD {} ({})", bd.bd_id, bd.prov.describe()));
        const auto& p = patterns_.back();
        if (p.min_offset() < buf.address || p.max_offset() >= static_cast<std::int64_t>(buf.address + buf.bytes))
            throw SimulationError(SimulationError::Kind::Protocol,
                                  fmt::format("{}: BD {} of {} reaches outside buffer '{}'", ps_.name, bd.bd_id,
                                              bd.prov.describe(), buf.name));
    }
    open_track({prog.tile, prog.dir, prog.channel});
}

std::string TileDmaChannel::label() const { return ps_.name; }

ProcessView TileDmaChannel::view() const {
    auto v = base_view(ProcessView::Kind::TileDma);
    v.endpoint = {prog_.tile, prog_.dir, prog_.channel};
    v.link = link_;
    if (prog_.dir == model::Direction::S2MM && posted && !prog_.bds.empty()) {
        v.rx_remaining = remaining;
        v.rx_total = patterns_[static_cast<std::size_t>(bd_)].total_bytes();
    }
    if (prog_.dir == model::Direction::MM2S && link_) {
        v.tx_done = link_->sent();
        v.tx_total = link_->sending();
    }
    v.progress.steps = bds_done_;
    v.progress.steps_unit = "BDs";
    v.progress.bytes = bytes_;
    if (!prog_.bds.empty() && ps_.status != ProcessState::Status::Done)
        v.progress.current = bd_labels_[static_cast<std::size_t>(bd_)];
    return v;
}

void TileDmaChannel::activate() {
    for (;;) {
        switch (phase_) {
        case Phase::Start:
            if (!link_ || prog_.bds.empty()) {
                ps_.status = ProcessState::Status::Done;
                phase_ = Phase::Done;
                return;
            }
            repeats_left_ = prog_.repeat_count;
            bd_ = prog_.start;
            phase_ = prog_.dir == model::Direction::MM2S ? Phase::Mm2sBd : Phase::S2mmBd;
            break;
        case Phase::Mm2sBd: {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            ps_.prov = &bd.prov;
            begin_bd_lock(bd);
            phase_ = Phase::Mm2sLock;
            [[fallthrough]];
        }
        case Phase::Mm2sLock: {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            if (const auto w = acquire_bd_lock(bd); !w.done()) {
                if (clk_.trigger_for(w)) return;
                break;
            }
            start_bd(bd);
            phase_ = Phase::Mm2sSend;
            [[fallthrough]];
        }
        case Phase::Mm2sSend: {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            const auto w =
                packet_ ? packet_->step(packet_send_, clk_, ps_, time_) : link_->step(send_, clk_, ps_, time_);
            if (!w.done()) {
                if (clk_.trigger_for(w)) return;
                break;
            }
            finish_bd(bd);
            phase_ = Phase::Mm2sNext;
            if (clk_.trigger_maybe_sync()) return; // as SemaphoreLock::release in a thread
            [[fallthrough]];
        }
        case Phase::Mm2sNext:
            if (++repeat_ <= prog_.bds[static_cast<std::size_t>(bd_)].repeat) {
                phase_ = Phase::Mm2sBd;
                break;
            }
            repeat_ = 0;
            if (advance()) {
                phase_ = Phase::Mm2sBd;
                break;
            }
            ps_.status = ProcessState::Status::Done;
            phase_ = Phase::Done;
            return;
        case Phase::S2mmBd: {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            ps_.prov = &bd.prov;
            begin_bd_lock(bd, waiting_since_);
            phase_ = Phase::S2mmLock;
            [[fallthrough]];
        }
        case Phase::S2mmLock: {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            if (const auto w = acquire_bd_lock(bd); !w.done()) {
                if (clk_.trigger_for(w)) return;
                break;
            }
            clk_.advance(svc_.timing.bd_setup_cycles, PathCost::BdSetup);
            post(clk_.local_cycles(), clk_.path());
            // Sleep while on_filled() keeps the chain going; it wakes us when the chain ends, or
            // when the next BD's lock, held when its predecessor filled, has been released (or
            // must be waited for, for an acquire-equal).
            ps_.status = ProcessState::Status::WaitStream;
            ps_.since = clk_.local_cycles();
            thread_asleep_ = true;
            phase_ = Phase::S2mmAsleep;
            [[fallthrough]];
        }
        case Phase::S2mmAsleep:
            if (thread_asleep_) {
                clk_.trigger_for(Wake::on(wake_));
                return;
            }
            if (watching_ >= 0) {
                locks_.at(watching_).unwatch(wake_);
                watching_ = -1;
                waiting_since_ = resume_at_;
            } else {
                waiting_since_ = UINT64_MAX;
            }
            ps_.status = ProcessState::Status::Running;
            clk_.set_local_cycles(resume_at_);
            clk_.set_path(resume_path_); // the chain on_filled kept while the process slept
            if (chain_done_) {
                ps_.status = ProcessState::Status::Done;
                phase_ = Phase::Done;
                return;
            }
            phase_ = Phase::S2mmBd;
            break;
        case Phase::Done: return;
        }
    }
}

bool TileDmaChannel::advance() {
    const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
    if (bd.next >= 0) {
        bd_ = bd.next;
        return true;
    }
    if (repeats_left_-- > 0) {
        bd_ = prog_.start;
        return true;
    }
    return false;
}

// MM2S with padding: walk the padded index space; real positions read memory, padding emits the
// pad word. dims and pad are outermost first; the innermost dim's units are words. Dimension d
// streams pad[d].before blocks, then its size data blocks, then pad[d].after blocks, a block being
// one padded element of the inner dimensions (the mem-tile MM2S zero-padding of AM020, memory tile
// DMA: before/after counts per dimension d0-d2; docs/hardware-sources.md zero_padding). The pad
// word is the channel's CONSTANT_PAD_VALUE on AIE2P and zero on AIE2 (constant_pad_value); the
// BD's length is the padded size (resolve checks it, DMABDOp::verify).
void TileDmaChannel::gather_padded(const model::BufferDescriptor& bd, std::int64_t base) {
    staging_.clear();
    const auto& dims = bd.dims;
    const std::size_t nd = dims.size();
    std::vector<std::uint64_t> block(nd + 1, 4); // bytes of one padded element of dim d
    for (std::size_t d = nd; d-- > 0;) block[d] = block[d + 1] * (dims[d].size + bd.pad[d].before + bd.pad[d].after);
    auto emit_pad = [&](std::uint64_t bytes) {
        for (std::uint64_t i = 0; i < bytes; i += 4) {
            const auto* w = reinterpret_cast<const std::uint8_t*>(&bd.pad_word);
            staging_.insert(staging_.end(), w, w + 4);
        }
    };
    auto rec = [&](auto&& self, std::size_t d, std::int64_t off) -> void {
        if (d == nd) {
            staging_.insert(staging_.end(), mem_ + off, mem_ + off + 4);
            return;
        }
        emit_pad(bd.pad[d].before * block[d + 1]);
        for (std::uint32_t i = 0; i < dims[d].size; ++i)
            self(self, d + 1, off + static_cast<std::int64_t>(i) * dims[d].stride * 4);
        emit_pad(bd.pad[d].after * block[d + 1]);
    };
    rec(rec, 0, base);
}

void TileDmaChannel::begin_bd_lock(const model::BufferDescriptor& bd, std::uint64_t waiting_since) {
    if (bd.acquire_lock < 0) return;
    // An S2MM that slept until the lock's release (on_filled) has waited since then already.
    lock_from_ = std::min(waiting_since, clk_.local_cycles());
    lock_stall_ = clk_.local_cycles() - lock_from_;
    acquire_ = LockAcquire{bd.acquire_value, bd.acquire_equal, &lock_stall_};
}

Wake TileDmaChannel::acquire_bd_lock(const model::BufferDescriptor& bd) {
    if (bd.acquire_lock < 0) return {};
    auto& l = locks_.at(bd.acquire_lock);
    if (const auto w = l.acquire_step(acquire_, clk_, ps_); !w.done()) return w;
    note_lock_stall(bd, l, lock_from_, lock_stall_);
    return {};
}

void TileDmaChannel::note_lock_stall(const model::BufferDescriptor& bd, const SemaphoreLock& lock, std::uint64_t from,
                                     std::uint64_t stall) {
    time_.lock_stall += stall;
    if (track_ >= 0 && stall > 0) {
        const TraceArg args[] = {TraceArg::str("lock", lock.name()), TraceArg::num("amount", bd.acquire_value),
                                 TraceArg::num("BD", bd.bd_id)};
        svc_.tracks.sink()->detailed_span(track_, TraceKind::LockStall, fmt::format("lock stall: {}", lock.name()),
                                          from, from + stall, args);
    }
}

void TileDmaChannel::emit_bd(const model::BufferDescriptor& bd, std::uint64_t begin, std::uint64_t end,
                             std::uint64_t bytes, std::uint64_t streaming) {
    const TraceArg args[] = {TraceArg::str("fifo", bd.prov.object),
                             TraceArg::str("role", bd.prov.role),
                             TraceArg::num("element", bd.prov.element),
                             TraceArg::num("bytes", static_cast<std::int64_t>(bytes)),
                             TraceArg::num("BD", bd.bd_id),
                             TraceArg::num("streaming_cycles", static_cast<std::int64_t>(streaming))};
    auto* sink = svc_.tracks.sink();
    sink->detailed_span(track_, TraceKind::Transfer, bd.prov.describe(), begin, end, args);
    streaming = std::min(streaming, end - std::min(begin, end));
    if (streaming > 0) sink->detailed_span(track_, TraceKind::Streaming, "streaming", end - streaming, end, args);
}

void TileDmaChannel::emit_stream_stall(const model::BufferDescriptor& bd, std::uint64_t from, std::uint64_t cycles,
                                       std::string_view why) {
    const TraceArg args[] = {TraceArg::str("fifo", bd.prov.object), TraceArg::num("BD", bd.bd_id),
                             TraceArg::str("cause", why)};
    svc_.tracks.sink()->detailed_span(track_, TraceKind::StreamStall, fmt::format("stream stall: {}", why), from,
                                      from + cycles, args);
}

void TileDmaChannel::start_bd(const model::BufferDescriptor& bd) {
    clk_.advance(svc_.timing.bd_setup_cycles, PathCost::BdSetup);
    const auto& pat = patterns_[static_cast<std::size_t>(bd_)];
    bd_begin_ = clk_.local_cycles();
    const std::uint8_t* data;
    std::uint64_t total = pat.total_bytes();
    if (!bd.pad.empty()) {
        const auto& buf = buffers_[static_cast<std::size_t>(bd.buffer)];
        gather_padded(bd, static_cast<std::int64_t>(buf.address + bd.offset_bytes));
        data = staging_.data();
        total = staging_.size();
    } else if (bd.dims.empty()) {
        data = mem_ + pat.min_offset();
    } else {
        staging_.resize(pat.total_bytes());
        model::AddressPattern::Cursor(pat).gather(mem_, staging_.data(), pat.total_bytes());
        data = staging_.data();
    }
    active_before_ = time_.active;
    stalled_before_ = time_.stream_stall;
    if (packet_ && bd.packet_id < 0) {
        // No header of its own: the first data word is the packet's header (PacketSwitch.hpp).
        const std::uint32_t h = packet_->data_header(
            packet_source_, data, total, fmt::format("{} BD {} ({})", ps_.name, bd.bd_id, bd.prov.describe()));
        packet_->begin_send(packet_send_, packet_source_, static_cast<int>(h & 0x1fu), h, data + 4, total - 4);
    } else if (packet_) {
        packet_->begin_send(packet_send_, packet_source_, bd.packet_id,
                            model::packet_header(bd.packet_id, bd.packet_type, prog_.tile), data, total);
    } else if (bd.packet_id >= 0) {
        // A packet BD on a circuit-switched flow: its header word travels as the first data word.
        const std::uint32_t h = model::packet_header(bd.packet_id, bd.packet_type, prog_.tile);
        packet_staging_.resize(total + 4);
        std::memcpy(packet_staging_.data(), &h, 4);
        std::memcpy(packet_staging_.data() + 4, data, total);
        total += 4;
        link_->begin_send(send_, packet_staging_.data(), total);
    } else {
        link_->begin_send(send_, data, total);
    }
    total_ = total;
}

void TileDmaChannel::finish_bd(const model::BufferDescriptor& bd) {
    // The wait for the receivers comes before the data (a BD is usually one chunk): traced first.
    trace_stream_stall(bd, bd_begin_, time_.stream_stall - stalled_before_, "back-pressure");
    bytes_ += total_;
    ++bds_done_;
    ps_.acted("sent", &bd_labels_[static_cast<std::size_t>(bd_)], -1, clk_.local_cycles());
    ++stats_.bd_transfers;
    trace_bd(bd, bd_begin_, clk_.local_cycles(), total_, time_.active - active_before_);
    if (bd.release_lock >= 0) locks_.at(bd.release_lock).release_unsynced(bd.release_value, clk_, ps_.name);
}

void TileDmaChannel::post(std::uint64_t at, const CriticalPath& path) {
    const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
    const auto& pat = patterns_[static_cast<std::size_t>(bd_)];
    ps_.prov = &bd.prov;
    bd_begin_ = at;
    cursor_.emplace(pat);
    remaining = pat.total_bytes();
    ready_at = at;
    ready_path = path;
    posted = true;
    // Waiting for the stream's data since the BD was posted: also when on_filled posts the next
    // BD of the chain itself (its lock free, or taken from a release made ahead), so that a run
    // that stops here reports the wait from the same cycle with lock run-ahead on or off.
    ps_.since = at;
    link_->notify_posted();
}

void TileDmaChannel::on_filled() {
    // Runs in the sender's process at the arrival time of the BD's last byte.
    const auto& t = svc_.timing;
    const std::uint64_t now = now_cycles();
    const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
    bytes_ += patterns_[static_cast<std::size_t>(bd_)].total_bytes();
    ++bds_done_;
    ps_.acted("received", &bd_labels_[static_cast<std::size_t>(bd_)], -1, now);
    ++stats_.bd_transfers;
    {
        // The receiving side does not see the sender's chunk times: its data moved for the BD's
        // bytes at the link's rate, up to the arrival of the last byte; before that it waited.
        const auto bytes = patterns_[static_cast<std::size_t>(bd_)].total_bytes();
        const auto span = now - std::min(now, bd_begin_);
        const auto streaming = std::min(span, stream_transfer_cycles(bytes, link_->bytes_per_cycle(), 0));
        time_.active += streaming;
        time_.stream_stall += span - streaming;
        trace_bd(bd, bd_begin_, now, bytes, streaming);
        trace_stream_stall(bd, bd_begin_, span - streaming, "starved");
    }
    // The channel's chain goes on from the sender's at the arrival (StreamLink), through what this
    // callback does on the channel's behalf.
    std::uint64_t at = now;
    CriticalPath chain = arrival_path;
    chain.settle(at);
    if (bd.release_lock >= 0) {
        locks_.at(bd.release_lock).release_at(bd.release_value, at, ps_.name, &chain);
        at += t.lock_release_cycles;
        chain.add(PathCost::LockRelease, t.lock_release_cycles);
    }
    resume_path_ = chain;
    if (!advance()) {
        chain_done_ = true;
        resume_at_ = at;
        thread_asleep_ = false;
        wake_.notify();
        return;
    }
    const auto& next = prog_.bds[static_cast<std::size_t>(bd_)];
    if (next.acquire_lock < 0) {
        chain.add(PathCost::BdSetup, t.bd_setup_cycles);
        post(at + t.bd_setup_cycles, chain);
        return;
    }
    // A run-ahead lock (SemaphoreLock::set_run_ahead) is taken at a release already made for a
    // later cycle: the BD waits for it as it would have in the channel's process.
    auto& lock = locks_.at(next.acquire_lock);
    std::uint64_t taken = at;
    if (!next.acquire_equal && lock.try_acquire_ge_at(next.acquire_value, at, ps_.name, &taken)) {
        if (taken > at) note_lock_stall(next, lock, at, taken - at);
        chain.join(lock.last_path()); // a release made ahead, for a later cycle, delayed the BD
        chain.settle(taken);
        chain.add(PathCost::LockAcquire, t.lock_acquire_cycles);
        chain.add(PathCost::BdSetup, t.bd_setup_cycles);
        post(taken + t.lock_acquire_cycles + t.bd_setup_cycles, chain);
        return;
    }
    // The next BD's lock is not free: the channel's process takes over and acquires it. For an
    // acquire-greater-equal the lock can only become free by a release (or set), so the process
    // sleeps until then (the lock wakes it, SemaphoreLock::watch): one SystemC wait instead of
    // waking now to wait on the lock. It is blocked on the lock meanwhile, for reports.
    resume_at_ = at;
    thread_asleep_ = false;
    if (next.acquire_equal) {
        wake_.notify();
        return;
    }
    watching_ = next.acquire_lock;
    ps_.waiting_on_lock(next.acquire_lock, next.acquire_value, false, at);
    ps_.prov = &next.prov;
    lock.watch(wake_);
}

void TileDmaChannel::accept(const std::uint8_t* data, std::uint64_t n) {
    written += cursor_->scatter(mem_, data, n);
    // For the memory check (MemoryGuard::catch_up): the BD wrote into its buffer.
    const auto& buf = buffers_[static_cast<std::size_t>(prog_.bds[static_cast<std::size_t>(bd_)].buffer)];
    memory_.note_write(prog_.tile, mem_ + buf.address, mem_ + buf.address + buf.bytes);
}

} // namespace npusim::sim
