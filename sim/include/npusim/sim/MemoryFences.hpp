#pragma once
// The inaccessible pages around the tile memories of the runs alive now (TileMemory's fences), so
// that a crash reporter can tell a fault there - native code reading or writing far outside the
// views it was given, beyond the guard zones the memory check watches - from other faults. The
// query is safe in a signal handler (no locks, no allocation).
#include <cstddef>

namespace npusim::sim {

/// `addr` lies in a fence of a live tile memory.
bool in_memory_fence(const void* addr) noexcept;

} // namespace npusim::sim
