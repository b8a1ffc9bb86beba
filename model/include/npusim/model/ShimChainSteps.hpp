#pragma once
// The steps of a shim task of chained BDs (ShimTask::chain_passes > 0): each pass over the chain
// runs its BDs in order, each BD moving its inner three dims once at its offset advanced by its
// iteration (pass mod iteration size, times the iteration stride). A single-BD task is one step,
// its whole 4-D pattern. Plain data: the shim DMA channel walks the steps, tests check them.
#include "npusim/model/AddressPattern.hpp"
#include "npusim/model/Netlist.hpp"

#include <cstdint>

namespace npusim::model {

struct ShimStep {
    int bd_id = 0;
    int host_tensor = -1;
    AddressPattern pattern;
};

/// How many steps the task takes: 1 for a single-BD task, BDs x passes for a chain.
std::uint64_t shim_task_steps(const ShimTask& task);
/// Step `k` (< shim_task_steps(task)); `shift` (an offset_parameter's bytes) moves the first BD.
ShimStep shim_task_step(const ShimTask& task, std::uint64_t k, std::uint64_t shift = 0);

} // namespace npusim::model
