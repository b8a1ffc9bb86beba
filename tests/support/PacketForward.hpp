#pragma once
// A mem tile that forwards packets by the header they carry in their data (basic/packet_switch's
// mem tile, written with the low-level API): the shim's MM2S 0 sends one packet per task (ids
// 1 and 2, each task's own header) to the mem tile's S2MM 0, which keeps the header
// (keep_pkt_header) in a buffer one word longer than the data; the mem tile's MM2S 0 sends that
// buffer with a BD without a packet header of its own, so the kept header routes it: id 1 to
// compute tile (0,2), id 2 to (0,3). Each compute tile's DMA sends what it received back on a
// circuit Flow to the shim's S2MM 0 (from (0,2)) or 1 (from (0,3)).
//
// Runtime arguments: a, b (the two packets' data, n int32 each), c, d (what (0,2) and (0,3)
// send back). The tasks on a and b carry the ids `id_a` and `id_b`.
#include "npusim/iron.hpp"

#include <cstdint>

namespace npusim::test {

struct PacketForwardOptions {
    std::int64_t n = 16; ///< int32 words per packet
    int id_a = 1, id_b = 2; ///< the ids the shim tasks stamp
    /// Also route id 3 from the shim to the mem tile, but not on from it.
    bool id3_to_mem_only = false;
    /// The (0,2) flow keeps the header too: (0,2)'s buffer is one word longer.
    bool keep_at_core = false;
    const char* device = "npu2_1col";
};

iron::Program packet_forward(const PacketForwardOptions& o = {});

} // namespace npusim::test
