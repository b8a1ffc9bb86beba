#include "TileMemory.hpp"

#include "MemoryFences.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace npusim::sim {

std::uint32_t tile_memory_extent(const std::vector<model::NetBuffer>& buffers, model::TileCoord tile) {
    std::uint32_t extent = 4;
    for (const auto& b : buffers)
        if (b.tile == tile) extent = std::max(extent, b.address + b.bytes);
    return extent;
}

// [fence][unused rest of the first page][guard | memory | guard][fence]: the span ends where the
// back fence begins, so the first byte past the back guard zone faults (an overrun is the common
// case); up to a page before the front guard zone is accessible but unwatched.
TileMemory::Block::Block(std::size_t bytes) : size_(bytes) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t body = (bytes + page - 1) / page * page;
    map_bytes_ = kFenceBytes + body + kFenceBytes;
    map_ = ::mmap(nullptr, map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        throw std::bad_alloc();
    }
    auto* first = static_cast<std::uint8_t*>(map_) + kFenceBytes;
    if (::mprotect(first, body, PROT_READ | PROT_WRITE) != 0) {
        ::munmap(map_, map_bytes_);
        map_ = nullptr;
        throw std::bad_alloc();
    }
    data_ = first + (body - bytes); // fresh anonymous pages are zero
    add_memory_fence(map_, kFenceBytes);
    add_memory_fence(first + body, kFenceBytes);
}

TileMemory::Block::~Block() {
    if (!map_) return;
    remove_memory_fence(map_);
    remove_memory_fence(static_cast<std::uint8_t*>(map_) + map_bytes_ - kFenceBytes);
    ::munmap(map_, map_bytes_);
}

TileMemory::Block::Block(Block&& o) noexcept
    : map_(std::exchange(o.map_, nullptr)), map_bytes_(o.map_bytes_), data_(o.data_), size_(o.size_) {}

TileMemory::Span TileMemory::with_guards(model::TileCoord tile) {
    auto it = memory_.find(tile);
    if (it == memory_.end()) {
        const std::size_t extent = tile_memory_extent(buffers_, tile);
        Block m(extent + 2 * kGuardBytes);
        std::memset(m.data(), kGuardPattern, kGuardBytes);
        std::memset(m.data() + kGuardBytes + extent, kGuardPattern, kGuardBytes);
        it = memory_.emplace(tile, std::move(m)).first;
    }
    return {it->second.data(), it->second.size()};
}

bool TileMemory::watched_by_other(model::TileCoord tile, const void* guard) const {
    const auto it = watchers_.find(tile);
    return it != watchers_.end() &&
           std::any_of(it->second.begin(), it->second.end(), [guard](const void* g) { return g != guard; });
}

void TileMemory::log_write(model::TileCoord tile, const std::uint8_t* begin, const std::uint8_t* end, const void* by) {
    if (begin >= end || !watched_by_other(tile, by)) return;
    if (log_.size() == kLogCapacity) {
        const auto drop = kLogCapacity / 2;
        log_.erase(log_.begin(), log_.begin() + static_cast<std::ptrdiff_t>(drop));
        log_base_ += drop;
    }
    log_.push_back({begin, end, by});
}

std::uint8_t* TileMemory::of(model::TileCoord tile) { return with_guards(tile).base + kGuardBytes; }

std::uint8_t* TileMemory::buffer(int buffer) {
    const auto& b = buffers_.at(static_cast<std::size_t>(buffer));
    return of(b.tile) + b.address;
}

} // namespace npusim::sim
