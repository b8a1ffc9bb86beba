#include "resolve/TileMemoryAllocator.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace npusim::iron::detail {

namespace {
std::uint32_t align_up(std::uint32_t v, std::uint32_t a) { return a ? (v + a - 1) / a * a : v; }
} // namespace

TileMemoryAllocator::TileMemoryAllocator(model::TileCoord tile, const model::TileResources& res,
                                         std::uint32_t stack_bytes, AllocScheme scheme)
    : tile_(tile), res_(&res), stack_(stack_bytes), scheme_(scheme) {}

std::optional<int> TileMemoryAllocator::try_bank_aware(std::vector<model::NetBuffer>& buffers,
                                                       const std::vector<int>& order) const {
    const int banks = res_->alloc_banks;
    if (banks <= 0) return order.empty() ? std::nullopt : std::optional<int>(order.front());
    const std::uint32_t bank_size = res_->memory_bytes / static_cast<std::uint32_t>(banks);
    std::vector<std::uint32_t> top(static_cast<std::size_t>(banks));
    for (int b = 0; b < banks; ++b) top[static_cast<std::size_t>(b)] = static_cast<std::uint32_t>(b) * bank_size;
    top[0] = align_up(stack_, res_->buffer_alignment);
    if (stack_ > bank_size) return -1; // the stack overflows bank 0 (checkAndPrintOverflow)
    int next = 0;
    for (int i : order) {
        auto& buf = buffers[static_cast<std::size_t>(i)];
        bool placed = false;
        for (int k = 0; k < banks && !placed; ++k) {
            const int b = (next + k) % banks;
            const std::uint32_t addr = align_up(top[static_cast<std::size_t>(b)], res_->buffer_alignment);
            const std::uint64_t end = static_cast<std::uint64_t>(b + 1) * bank_size;
            if (addr + static_cast<std::uint64_t>(buf.bytes) <= end) {
                buf.address = addr;
                top[static_cast<std::size_t>(b)] = addr + buf.bytes;
                next = (b + 1) % banks;
                placed = true;
            }
        }
        if (!placed) return i;
    }
    return std::nullopt;
}

bool TileMemoryAllocator::try_sequential(std::vector<model::NetBuffer>& buffers, const std::vector<int>& order) const {
    std::uint64_t top = align_up(stack_, res_->buffer_alignment);
    for (int i : order) {
        auto& buf = buffers[static_cast<std::size_t>(i)];
        top = align_up(static_cast<std::uint32_t>(top), res_->buffer_alignment);
        buf.address = static_cast<std::uint32_t>(top);
        top += buf.bytes;
        if (top > res_->memory_bytes) return false;
    }
    return true;
}

std::string TileMemoryAllocator::tile_name() const {
    return fmt::format("{} tile {}", model::tile_kind_name(model::tile_kind_of_row(tile_.row)),
                       model::to_string(tile_));
}

// "needs N B (stack S B, 'fifo' k x B, ...) but the tile has M B"
std::string TileMemoryAllocator::usage(const std::vector<model::NetBuffer>& buffers,
                                       const std::vector<int>& indices) const {
    std::map<std::string, std::pair<int, std::uint64_t>> by_owner; // owner -> (count, bytes)
    std::vector<std::string> owners;
    std::uint64_t total = stack_;
    for (int i : indices) {
        const auto& b = buffers[static_cast<std::size_t>(i)];
        const std::string owner = b.prov.object.empty() ? b.name : b.prov.object;
        if (!by_owner.count(owner)) owners.push_back(owner);
        auto& e = by_owner[owner];
        e.first += 1;
        e.second += b.bytes;
        total += b.bytes;
    }
    std::string parts = stack_ ? fmt::format("stack {} B", stack_) : std::string();
    for (const auto& o : owners) {
        const auto& e = by_owner[o];
        parts += fmt::format("{}'{}' {} x {} B", parts.empty() ? "" : ", ", o, e.first,
                             e.second / static_cast<std::uint64_t>(e.first));
    }
    return fmt::format("needs {} B ({}) but the tile has {} B{}", total, parts, res_->memory_bytes,
                       note_.empty() ? "" : "; " + note_);
}

AllocResult TileMemoryAllocator::allocate(std::vector<model::NetBuffer>& buffers, const std::vector<int>& indices,
                                          std::vector<std::string>& warnings) const {
    // Both toolchain schemes sort the buffers by descending allocation size first.
    std::vector<int> order = indices;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return buffers[static_cast<std::size_t>(a)].bytes > buffers[static_cast<std::size_t>(b)].bytes;
    });
    auto bank_failure = [&](int i) {
        if (i < 0) return fmt::format("the stack of {} B overflows bank 0", stack_);
        const auto& b = buffers[static_cast<std::size_t>(i)];
        const int banks = res_->alloc_banks;
        return fmt::format("Failed to allocate buffer: {} with size: {} bytes (no bank of {} x {} B has room)", b.name,
                           b.bytes, banks, banks > 0 ? res_->memory_bytes / static_cast<std::uint32_t>(banks) : 0);
    };
    if (scheme_ == AllocScheme::BasicSequential) {
        if (try_sequential(buffers, order)) return AllocResult::Sequential;
        throw DesignError(fmt::format("{}: Basic sequential allocation failed. Out of data memory: {}", tile_name(),
                                      usage(buffers, indices)));
    }
    const auto failed = try_bank_aware(buffers, order);
    if (!failed) return AllocResult::BankAware;
    if (scheme_ == AllocScheme::BankAware)
        throw DesignError(fmt::format("{}: Bank-aware allocation failed. {}; {}", tile_name(), bank_failure(*failed),
                                      usage(buffers, indices)));
    warnings.push_back(fmt::format("{}: Bank-aware allocation failed, trying basic sequential allocation. ({})",
                                   tile_name(), bank_failure(*failed)));
    if (try_sequential(buffers, order)) return AllocResult::Sequential;
    throw DesignError(fmt::format("{}: Basic sequential allocation also failed. Out of data memory: {}", tile_name(),
                                  usage(buffers, indices)));
}

} // namespace npusim::iron::detail
