#pragma once
// A compute tile that copies what it receives into what it sends, written with the low-level API
// (the manual_switchbox / custom_dma core): its S2MM 0 fills in_buf, the worker 'copy' copies
// in_buf to out_buf, its MM2S 0 streams out_buf. Locks in_empty (0, init 1), in_full (1),
// out_empty (2, init 1) and out_full (3) hand the buffers between the DMA and the core; the TileDma
// is 'core_dma'. The test adds the flows into and out of the tile and the runtime sequence.
#include "npusim/iron.hpp"

namespace npusim::test {

struct CoreCopyLoop {
    iron::Lock in_empty, in_full, out_empty, out_full;
    iron::Worker worker;
    iron::TileDma dma;
};

/// The loop on `core` with two buffers of type `buffer` (in_buf, out_buf).
CoreCopyLoop core_copy_loop(iron::Tile core, const iron::TensorType& buffer);

} // namespace npusim::test
