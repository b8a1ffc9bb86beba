#include "resolve/TileMemoryAllocator.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <map>

namespace npusim::iron::detail {

namespace {
std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return a ? (v + a - 1) / a * a : v; }
} // namespace

TileMemoryAllocator::TileMemoryAllocator(model::TileCoord tile, const model::TileResources& res,
                                         std::uint32_t stack_bytes, bool bank_aware)
    : tile_(tile), res_(&res), stack_(stack_bytes), bank_aware_(bank_aware) {}

bool TileMemoryAllocator::try_bank_aware(std::vector<model::NetBuffer>& buffers,
                                         const std::vector<int>& indices) const {
    const int banks = res_->alloc_banks;
    if (banks <= 0) return false;
    const std::uint32_t bank_size = res_->memory_bytes / static_cast<std::uint32_t>(banks);
    std::vector<std::uint32_t> top(static_cast<std::size_t>(banks));
    for (int b = 0; b < banks; ++b) top[static_cast<std::size_t>(b)] = static_cast<std::uint32_t>(b) * bank_size;
    top[0] = align_up(stack_, res_->buffer_alignment);
    if (stack_ > bank_size) return false;
    int next = 0;
    for (int i : indices) {
        auto& buf = buffers[static_cast<std::size_t>(i)];
        bool placed = false;
        for (int k = 0; k < banks && !placed; ++k) {
            const int b = (next + k) % banks;
            const std::uint32_t addr = align_up(top[static_cast<std::size_t>(b)], res_->buffer_alignment);
            const std::uint32_t end = static_cast<std::uint32_t>(b + 1) * bank_size;
            if (addr + buf.bytes <= end) {
                buf.address = addr;
                top[static_cast<std::size_t>(b)] = addr + buf.bytes;
                next = (b + 1) % banks;
                placed = true;
            }
        }
        if (!placed) return false;
    }
    return true;
}

bool TileMemoryAllocator::try_sequential(std::vector<model::NetBuffer>& buffers,
                                         const std::vector<int>& indices) const {
    std::uint64_t top = align_up(stack_, res_->buffer_alignment);
    for (int i : indices) {
        auto& buf = buffers[static_cast<std::size_t>(i)];
        top = align_up(static_cast<std::uint32_t>(top), res_->buffer_alignment);
        buf.address = static_cast<std::uint32_t>(top);
        top += buf.bytes;
        if (top > res_->memory_bytes) return false;
    }
    return true;
}

AllocResult TileMemoryAllocator::allocate(std::vector<model::NetBuffer>& buffers,
                                          const std::vector<int>& indices) const {
    if (bank_aware_ && try_bank_aware(buffers, indices)) return AllocResult::BankAware;
    if (try_sequential(buffers, indices)) return AllocResult::Sequential;
    // Out of memory: say who uses what.
    std::map<std::string, std::pair<int, std::uint64_t>> by_owner; // owner -> (count, bytes)
    std::vector<std::string> order;
    std::uint64_t total = stack_;
    for (int i : indices) {
        const auto& b = buffers[static_cast<std::size_t>(i)];
        const std::string owner = b.prov.object.empty() ? b.name : b.prov.object;
        if (!by_owner.count(owner)) order.push_back(owner);
        auto& e = by_owner[owner];
        e.first += 1;
        e.second += b.bytes;
        total += b.bytes;
    }
    std::string parts = stack_ ? fmt::format("stack {} B", stack_) : std::string();
    for (const auto& o : order) {
        const auto& e = by_owner[o];
        parts += fmt::format("{}'{}' {} x {} B", parts.empty() ? "" : ", ", o, e.first,
                             e.second / static_cast<std::uint64_t>(e.first));
    }
    throw DesignError(fmt::format("{} tile {}: out of data memory: needs {} B ({}) but the tile has {} B",
                                  model::tile_kind_name(model::tile_kind_of_row(tile_.row)), model::to_string(tile_),
                                  total, parts, res_->memory_bytes));
}

} // namespace npusim::iron::detail
