#pragma once
// The runtime sequence of a low-level design fed and drained through two shim symbols (Flow
// shim_symbol "in" and "out"): the input's task from `a`, the output's into `c` with a token, both
// started, the output awaited, then the input's task freed (as mlir-aie's tile_dma.py and
// chaining_channels sequences are written).
#include "npusim/iron.hpp"

namespace npusim::examples {

inline void in_out_symbol_sequence(iron::RuntimeData a, iron::RuntimeData c) {
    using namespace npusim::iron;
    const Task in = shim_dma_single_bd_task("in", a);
    const Task out = shim_dma_single_bd_task("out", c, {.issue_token = true});
    dma_start_task(in);
    dma_start_task(out);
    dma_await_task(out);
    dma_free_task(in);
}

} // namespace npusim::examples
