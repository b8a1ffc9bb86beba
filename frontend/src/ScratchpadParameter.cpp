#include "npusim/frontend/ScratchpadParameter.hpp"

#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron {

ScratchpadParameter::ScratchpadParameter(std::string name, DType dtype)
    : state_(std::make_shared<detail::ScratchpadParamState>()) {
    if (name.empty()) throw DesignError("ScratchpadParameter: a name is required (it is the parameter's symbol)");
    state_->uid = detail::next_uid();
    state_->name = std::move(name);
    state_->dtype = dtype;
}

void sync_parameters() {
    auto* rec = detail::SequenceRecorder::current();
    if (!rec) throw DesignError("sync_parameters() called outside the runtime sequence");
    rec->ops.push_back({detail::RecordedOp::Kind::SyncParameters, -1});
}

namespace detail {

std::uint32_t read_scratchpad_word(const ScratchpadParamState& p, DType requested) {
    auto* svc = model::CoreServices::current();
    if (!svc)
        throw DesignError(fmt::format("ScratchpadParameter '{}': read() called outside a worker body "
                                      "('aiex.read_scratchpad_parameter' op must be inside an aie.core)",
                                      p.name));
    // AIEXDialect.cpp ReadScratchpadParameterOp::verify.
    if (p.dtype == DType::f32)
        throw DesignError(fmt::format("ScratchpadParameter '{}': f32 parameters are not supported: the scratchpad "
                                      "encoding zeroes the top 2 bits, which clobbers the sign bit and top exponent "
                                      "bit of an f32. Use bf16 or an integer type up to i32 instead.",
                                      p.name));
    if (requested != p.dtype)
        throw DesignError(fmt::format("ScratchpadParameter '{}' is {}: read<{}>() does not match its type", p.name,
                                      model::dtype_name(p.dtype), model::dtype_name(requested)));
    return svc->scratchpad_word(p.uid);
}

} // namespace detail

} // namespace npusim::iron
