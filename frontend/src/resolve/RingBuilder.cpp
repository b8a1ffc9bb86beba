#include "resolve/RingBuilder.hpp"

#include "resolve/BdEncoding.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

std::vector<int> RingBuilder::buffers(model::TileCoord tile, const std::string& prefix, int depth, std::uint32_t bytes,
                                      const std::string& fifo, const std::string& role,
                                      const std::vector<std::vector<std::uint8_t>>& init) {
    std::vector<int> bufs;
    for (int k = 0; k < depth; ++k) {
        bufs.push_back(ledger_.add_buffer(tile, fmt::format("{}_buff_{}", prefix, k), bytes, {fifo, role, k}));
        ledger_.mark_fifo_element(bufs.back());
        if (k < static_cast<int>(init.size()))
            net_.buffers[static_cast<std::size_t>(bufs.back())].init = init[static_cast<std::size_t>(k)];
    }
    return bufs;
}

LockPair RingBuilder::lock_pair(model::TileCoord tile, const std::string& prefix, int index, LockInits inits,
                                const std::string& fifo, const std::string& role) {
    LockPair p;
    p.prod = ledger_.add_lock(tile, fmt::format("{}_prod_lock_{}", prefix, index), inits.free_slots,
                              {fifo, role + " prod_lock (free slots)"});
    p.cons = ledger_.add_lock(tile, fmt::format("{}_cons_lock_{}", prefix, index), inits.full_slots,
                              {fifo, role + " cons_lock (full slots)"});
    return p;
}

Ring RingBuilder::ring(model::TileCoord tile, const std::string& prefix, int depth, std::uint32_t bytes,
                       LockInits inits, const std::string& fifo, const std::string& role,
                       const std::vector<std::vector<std::uint8_t>>& init) {
    Ring r;
    r.buffers = buffers(tile, prefix, depth, bytes, fifo, role, init);
    r.locks = lock_pair(tile, prefix, 0, inits, fifo, role);
    return r;
}

std::vector<model::BufferDescriptor> circular_chain(const std::vector<int>& buffers,
                                                    const std::vector<ChainSegment>& segments,
                                                    const std::vector<model::Dim>& dims, const std::string& fifo,
                                                    const std::string& role) {
    std::vector<model::BufferDescriptor> bds;
    const std::size_t total = buffers.size() * segments.size();
    for (std::size_t k = 0; k < buffers.size(); ++k)
        for (const auto& s : segments) {
            auto bd = make_bd(buffers[k], s.length_bytes, dims, s.acquire_lock, s.release_lock,
                              {fifo, role, static_cast<int>(k)});
            bd.offset_bytes = s.offset_bytes;
            bd.acquire_value = bd.release_value = s.lock_value;
            bd.next = static_cast<int>((bds.size() + 1) % total); // circular chain
            bds.push_back(std::move(bd));
        }
    return bds;
}

void repeat_chain(std::vector<model::BufferDescriptor>& bds, int R, bool allow_hw_repeat) {
    if (R <= 1 || bds.empty()) return;
    if (allow_hw_repeat && bds.size() == 1) {
        bds[0].repeat = R - 1;
        return;
    }
    std::vector<model::BufferDescriptor> out;
    for (const auto& bd : bds)
        for (int r = 0; r < R; ++r) out.push_back(bd);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].next = static_cast<int>((i + 1) % out.size());
    bds = std::move(out);
}

void end_chain_after_iterations(model::DmaChannelProgram& ch, int iters) {
    if (iters <= 0) return;
    if (!ch.bds.empty()) ch.bds.back().next = -1;
    ch.repeat_count = iters - 1;
}

} // namespace npusim::iron::detail
