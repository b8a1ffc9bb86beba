#pragma once
// ObjectFifoLink (IRON aie.iron.dataflow.ObjectFifoLink, python/iron/dataflow/objectfifo.py:1135):
// the explicit form of what forward(), split() and join() build. It links consumer handles of
// fifos that already exist (the link's inputs) to producer handles of other existing fifos (its
// outputs) on a link tile: one to one (a forward: the output may have another object size, and
// when it is larger and pads, the link holds the input-sized object), one to many (a distribute:
// one dst offset per output, into the input object) or many to one (a join: one src offset per
// input, into the output object). The output fifos keep their own options (dims_to_stream,
// repeat_count, pad_dimensions, pad_value), e.g. a padded output made with
// `ObjectFifo(big, "out", 2, {.dims_to_stream = ..., .pad_dimensions = ..., .pad_value = v})`.
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/Tile.hpp"

#include <cstdint>
#include <vector>

namespace npusim::iron {

class ObjectFifoLink {
public:
    /// IRON ObjectFifoLink(srcs, dsts, tile=AnyMemTile, src_offsets=None, dst_offsets=None).
    /// `srcs` are consumer handles, `dsts` producer handles, each not yet used elsewhere.
    ObjectFifoLink(std::vector<ObjectFifoHandle> srcs, std::vector<ObjectFifoHandle> dsts, Tile tile = AnyMemTile,
                   std::vector<std::int64_t> src_offsets = {}, std::vector<std::int64_t> dst_offsets = {});
    /// The one-to-one link: `ObjectFifoLink(in.cons(), out.prod())`.
    ObjectFifoLink(const ObjectFifoHandle& src, const ObjectFifoHandle& dst, Tile tile = AnyMemTile);
};

} // namespace npusim::iron
