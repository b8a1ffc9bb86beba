#pragma once
// ScratchpadParameter (IRON aie.iron.ScratchpadParameter, python/iron/scratchpad_parameter.py): a
// named scalar the host sets per run, without a Buffer/lock pair of the design's own. Two uses,
// decided by how the design uses it (aie-lower-scratchpad-parameters,
// lib/Dialect/AIEX/Transforms/AIELowerScratchpadParameters.cpp, step 2):
//  - "core": a worker takes it in its fn_args and read<T>()s it in its body. The toolchain gives
//    each reading core an 8-byte buffer __param_<name>_<col>_<row>_<n> and a lock (init 0); the
//    core acquires the lock (== 1) once before its body starts, and the sequence's parameter sync
//    zeroes the buffer, adds the host's scratchpad word to it (update_from_scratchpad, Incr) and
//    sets every such lock to 1. The host writes the value shifted left by 2 (the firmware clears
//    the low 2 bits, test_lib/parameter_scratchpad.h writeBits) and the core shifts it back
//    (logical), so only the low 30 bits survive: an i32 keeps its value only within 0..2^30-1,
//    narrower types and bf16 are exact.
//  - "addr": a fill/drain takes it as TransferOptions::offset_parameter; the value (elements,
//    written raw) times the host tensor's element size is added to the BD's address when the task
//    is configured (AIEUtils.cpp emitUpdateBdAddressFromOffsetParameter, func = Mul).
// sync_parameters() in the runtime sequence places the sync (IRON iron.sync_parameters()); without
// it the sync is the first thing the sequence does. Scratchpad parameters need the full-ELF flow,
// which only npu2 (AIE2P) has: on npu1 resolve refuses them.
#include "npusim/frontend/TensorType.hpp"

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace npusim::iron {

namespace detail {
struct ScratchpadParamState {
    int uid = 0;
    std::string name;
    DType dtype = DType::i32;
};
/// The 32-bit word a core reads from its copy of the parameter (the buffer's first word).
std::uint32_t read_scratchpad_word(const ScratchpadParamState& p, DType requested);
} // namespace detail

class ScratchpadParameter {
public:
    /// IRON ScratchpadParameter(name, dtype). Reading an f32 one is refused, as the toolchain's
    /// verifier does (the encoding clears its sign bit).
    ScratchpadParameter(std::string name, DType dtype);
    template <class T>
    static ScratchpadParameter of(std::string name) {
        return ScratchpadParameter(std::move(name), dtype_of<T>());
    }

    /// In a worker body (aiex.read_scratchpad_parameter): the value the host set, decoded as the
    /// toolchain lowers the read (load word 0, shift right by 2, truncate or bitcast). T must be
    /// the parameter's type.
    template <class T>
    T read() const {
        const std::uint32_t decoded = detail::read_scratchpad_word(*state_, dtype_of<T>()) >> 2;
        if constexpr (std::is_same_v<T, bfloat16>) { // trunci to i16, then bitcast
            return bfloat16::from_bits(static_cast<std::uint16_t>(decoded));
        } else if constexpr (std::is_same_v<T, float>) { // refused by read_scratchpad_word
            return std::bit_cast<float>(decoded);
        } else { // arith.trunci (modular) for narrower integers
            return static_cast<T>(decoded);
        }
    }

    const std::string& name() const { return state_->name; }
    DType dtype() const { return state_->dtype; }
    const std::shared_ptr<detail::ScratchpadParamState>& state() const { return state_; }

private:
    std::shared_ptr<detail::ScratchpadParamState> state_;
};

/// In the runtime sequence: sync the host's parameter values to the cores now
/// (aiex.sync_scratchpad_parameters_from_host).
void sync_parameters();

} // namespace npusim::iron
