#include "TileDmaChannel.hpp"

#include "SemaphoreLock.hpp"
#include "SimEngine.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

TileDmaChannel::TileDmaChannel(SimEngine& eng, const model::DmaChannelProgram& prog)
    : eng_(eng), prog_(prog), mem_(eng.tile_memory(prog.tile)) {
    bytes_per_cycle = eng.timing().tile_dma_bytes_per_cycle;
    ps_.name = fmt::format("DMA {} {} {}", model::to_string(prog.tile), model::direction_name(prog.dir), prog.channel);
    for (const auto& bd : prog.bds) {
        const auto& buf = eng.net().buffers.at(static_cast<std::size_t>(bd.buffer));
        patterns_.emplace_back(static_cast<std::int64_t>(buf.address + bd.offset_bytes), bd.dims, bd.length_bytes);
        const auto& p = patterns_.back();
        if (p.min_offset() < buf.address || p.max_offset() >= static_cast<std::int64_t>(buf.address + buf.bytes))
            throw SimulationError(SimulationError::Kind::Protocol,
                                         fmt::format("{}: BD {} of {} reaches outside buffer '{}'", ps_.name, bd.bd_id,
                                                     bd.prov.describe(), buf.name));
    }
    eng.register_process(&ps_);
    if (eng.trace()) track_ = eng.add_track({TrackInfo::Kind::Dma, prog.tile.col, prog.tile.row, ps_.name});
}

std::string TileDmaChannel::label() const { return ps_.name; }

void TileDmaChannel::spawn(std::size_t stack_bytes) {
    sc_core::sc_spawn_options o;
    o.set_stack_size(static_cast<int>(stack_bytes));
    sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("dma"), &o);
}

void TileDmaChannel::run() {
    try {
        if (!link_ || prog_.bds.empty()) {
            ps_.status = ProcessState::Status::Done;
            return;
        }
        int repeats = prog_.repeat_count;
        bd_ = prog_.start;
        for (;;) {
            const auto& bd = prog_.bds[static_cast<std::size_t>(bd_)];
            run_bd(bd);
            if (bd.next >= 0) {
                bd_ = bd.next;
            } else if (repeats-- > 0) {
                bd_ = prog_.start;
            } else {
                break;
            }
        }
        ps_.status = ProcessState::Status::Done;
    } catch (const ProcessAbort&) {
    } catch (const SimulationError& e) {
        try { eng_.fail(e); } catch (const ProcessAbort&) {}
    }
}

void TileDmaChannel::run_bd(const model::BufferDescriptor& bd) {
    ps_.detail = bd.prov.describe();
    if (bd.acquire_lock >= 0) {
        auto& l = eng_.lock(bd.acquire_lock);
        if (bd.acquire_equal) l.acquire_eq(bd.acquire_value, clk_, ps_, ps_.name);
        else l.acquire_ge(bd.acquire_value, clk_, ps_, ps_.name);
    }
    clk_.pending += eng_.timing().bd_setup_cycles;
    const auto& pat = patterns_[static_cast<std::size_t>(bd_)];
    const std::uint64_t begin = clk_.local_cycles();
    if (prog_.dir == model::Direction::MM2S) {
        const std::uint8_t* data;
        if (bd.dims.empty()) {
            data = mem_ + pat.min_offset();
        } else {
            staging_.resize(pat.total_bytes());
            std::uint64_t pos = 0;
            pat.for_each_run([&](std::int64_t off, std::uint64_t len) {
                std::memcpy(staging_.data() + pos, mem_ + off, len);
                pos += len;
            });
            data = staging_.data();
        }
        link_->send(data, pat.total_bytes(), clk_, ps_, &active_);
    } else {
        cursor_.emplace(pat);
        link_->receive(*this, pat.total_bytes(), clk_, ps_);
    }
    bytes_ += pat.total_bytes();
    ++bds_done_;
    eng_.count_bd();
    if (track_ >= 0) eng_.trace()->span(track_, bd.prov.describe(), begin, clk_.local_cycles());
    if (bd.release_lock >= 0) eng_.lock(bd.release_lock).release(bd.release_value, clk_, ps_.name);
}

void TileDmaChannel::accept(const std::uint8_t* data, std::uint64_t n) {
    std::uint64_t pos = 0;
    cursor_->advance(n, [&](std::int64_t off, std::uint64_t len) {
        std::memcpy(mem_ + off, data + pos, len);
        pos += len;
    });
}

} // namespace npusim::sim
