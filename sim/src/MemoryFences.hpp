#pragma once
// Registering the fences of npusim/sim/MemoryFences.hpp (TileMemory's blocks do).
#include "npusim/sim/MemoryFences.hpp"

namespace npusim::sim {

/// [begin, begin + bytes) is a fence until remove_memory_fence(begin).
void add_memory_fence(const void* begin, std::size_t bytes) noexcept;
void remove_memory_fence(const void* begin) noexcept;

} // namespace npusim::sim
