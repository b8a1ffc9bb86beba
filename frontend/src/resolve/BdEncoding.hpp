#pragma once
// BdEncoding: turning design-level layouts into DMA buffer-descriptor fields, and every BD
// field-width check, for tile BDs (compute and mem) and shim BDs alike. Each limit comes from the
// tile's model::TileResources (length bits, wrap/step/iteration bits, dims count, padding) and
// model::DeviceSpec::max_repeat_count (see docs/resolve.md, steps 5, 7 and 9).
#include "FifoState.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/ShimTasks.hpp"
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/frontend/TensorType.hpp"
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Netlist.hpp"
#include "resolve/Padding.hpp" // encode_padding

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron::detail {

// --- field widths (one function per field) --------------------------------------------------

/// Largest value of a BD size ("wrap") field: 2^wrap_bits - 1.
std::uint64_t max_wrap(const model::TileResources& res);
/// Largest value of a BD stride ("step") field, in words: 2^step_bits.
std::int64_t max_step(const model::TileResources& res);
/// Largest BD length, in words: 2^buffer_length_bits - 1.
std::uint64_t max_length_words(const model::TileResources& res);
/// Largest outermost (iteration) size of a shim BD: 2^iteration_bits.
std::int64_t max_iterations(const model::TileResources& res);

bool wrap_fits(std::uint64_t size, const model::TileResources& res);
bool step_fits(std::int64_t stride, const model::TileResources& res);

// --- tile BDs ---------------------------------------------------------------------------------

/// A design layout (elements, outermost first) as BD dims in 32-bit words, checked against the
/// tile's dims count and size/stride field widths. `who` names the layout in errors.
std::vector<model::Dim> to_words(const StreamDims& dims, const TensorType& t, const model::TileResources& res,
                                 model::TileKind kind, const std::string& who);
/// A BD's length must fit the tile's length field.
void check_bd_length(const model::BufferDescriptor& bd, const model::TileResources& res, model::TileKind kind);
/// A BD moving `len` bytes of `buffer` with `dims`, acquiring `acq` and releasing `rel` by 1.
model::BufferDescriptor make_bd(int buffer, std::uint32_t len, std::vector<model::Dim> dims, int acq, int rel,
                                model::Provenance prov);
/// A layout on a fifo's ring must move exactly one object and stay inside it.
void check_layout_fits_object(const std::vector<model::Dim>& dims, std::uint32_t len, const std::string& fifo,
                              const std::string& role);
/// Each BD's layout must move exactly its length within its segment of its buffer (a padded BD:
/// check_padded_bd, resolve/Padding.hpp).
void check_layout_fits_segment(const std::vector<model::BufferDescriptor>& bds,
                               const std::vector<model::NetBuffer>& buffers, const std::string& fifo,
                               const std::string& role);

// --- shim BDs ---------------------------------------------------------------------------------

/// Byte offset of a runtime transfer into its host tensor (must be 4-byte aligned).
std::uint64_t shim_task_offset(const TensorAccessPattern& tap, std::int64_t elem_bytes, const std::string& who);
/// aie-decompose-large-dma-bd (AIEDecomposeLargeDmaBd.cpp, DmaDecomposition.cpp decomposeRecursive):
/// the shim_task_count(tap, shim) pieces of a pattern (npusim/frontend/ShimTasks.hpp): chunks of
/// 1 << iteration_bits repeats, each at offset + i x chunk x outermost stride; a pattern that stays
/// one task is returned whole (a contiguous one beyond the range is refused later).
std::vector<TensorAccessPattern> shim_repeat_chunks(const TensorAccessPattern& tap, const model::TileResources& shim);
/// The 4 shim BD dims of a runtime transfer, outermost (repeat) first, in 32-bit words; a
/// contiguous d0..d2 part uses only the length field (linear mode).
std::vector<model::Dim> shim_task_dims(const TensorAccessPattern& tap, std::int64_t elem_bytes,
                                       const model::TileResources& shim, int max_repeat_count, const std::string& who);

} // namespace npusim::iron::detail
