#pragma once
// Padding: mem-tile MM2S padding (pad_dimensions, pad_value) as BD fields, with the toolchain's
// checks. The geometry is per BD (aie.dma_bd pad [<const_pad_before, const_pad_after>, ...]), the
// value per channel (aie.dma_start pad_value: one CONSTANT_PAD_VALUE register per MM2S channel,
// only on targets that have it). A padded BD's length counts the padding: the stream carries
// prod(size + before + after) words (DMABDOp::verify, AIEDialect.cpp:2467-2500).
#include "FifoState.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/TileDma.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron::detail {

/// IRON pack_pad_value (python/helpers/util.py:221-238): a per-element pad value as the 32-bit
/// stream word, the element's low bits replicated across the word (elements of at most 4 bytes).
std::uint32_t pack_pad_value(std::int64_t value, std::size_t elem_bytes);

/// Bytes a padded BD streams: prod(size + before + after) over its dims, in 32-bit words.
std::uint64_t padded_bytes(const model::BufferDescriptor& bd);

/// The pad geometry of a design layout (elements, outermost first) in BD units: the innermost
/// dimension's counts in 32-bit words (DMABDOp::verify: "Inner-most padding-before/after count
/// must result in padding in 32-bit words."), the others in that dimension's steps.
std::vector<model::PadDim> pad_in_words(const PadDims& pad, std::int64_t elem_bytes, const std::string& who);

/// A padded BD's data must stay inside its buffer and its padded size must equal its length: more
/// is the toolchain's "Data exceeds len after padding." (DMABDOp::verify); less would leave the
/// address generator running past the pattern, which npusim does not model (refused).
void check_padded_bd(const model::BufferDescriptor& bd, const model::NetBuffer& buf, const std::string& who);

/// pad_dimensions / pad_value of `f` onto every BD of an MM2S chain (mem tiles only).
void encode_padding(std::vector<model::BufferDescriptor>& bds, const FifoState& f, const std::vector<model::Dim>& dims,
                    const model::TileResources& res, model::TileKind kind, model::TileCoord tile);

/// ObjectFifoCreateOp::verify (AIEDialect.cpp:491-497) on a fifo's pad_value: it needs
/// pad_dimensions and a target with the CONSTANT_PAD_VALUE register (NPU2; AIE2 pads with zeros).
void verify_pad_value(const FifoState& f, const model::DeviceSpec& dev);

/// A TileDma Bd's pad_dimensions onto `bd` (whose dims are set), with DMABDOp::verify's checks
/// (AIEDialect.cpp:2467-2500) and the MM2S-only rule.
void encode_bd_padding(model::BufferDescriptor& bd, const Bd& b, std::int64_t elem_bytes, model::TileKind kind,
                       model::Direction dir, const std::string& who);

/// A DmaChannel's pad_value as its padded BDs' word: IRON _channel_pad_word (tile_dma.py:152-177),
/// then DMAStartOp::verify (AIEDialect.cpp:2778-2786). 0 when the value is 0.
std::uint32_t channel_pad_word(const DmaChannel& ch, const model::TileResources& res, model::TileKind kind,
                               const std::string& who);

} // namespace npusim::iron::detail
