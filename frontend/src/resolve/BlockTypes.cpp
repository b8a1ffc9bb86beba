#include "resolve/BlockTypes.hpp"

#include "FifoState.hpp"

#include "npusim/frontend/Runtime.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

namespace {

// mlir-aie at 3ca0193: only the NPU2 target model accepts block formats
// (lib/Dialect/AIE/IR/AIETargetModel.cpp l.1604-1620); aie-transform-bfp-types then fails with
// "Block type ... is not supported in the specified model" (lib/Dialect/AIEX/Transforms/
// AIETransformBfpTypes.cpp l.56-66).
[[noreturn]] void refuse(const ResolveContext& ctx, const std::string& what, const TensorType& t) {
    throw DesignError(fmt::format("{} ({}): block type {} is not supported on {}: only AIE2P (npu2) has the bfp16 "
                                  "datapath (aiecc: \"Block type {} is not supported in the specified model\")",
                                  what, t.str(), model::dtype_name(t.dtype), ctx.dev.name, model::dtype_name(t.dtype)));
}

} // namespace

void refuse_block_types_without_bfp(const ResolveContext& ctx) {
    if (ctx.dev.arch == model::Arch::AIE2P) return;
    for (const auto* f : ctx.fifos)
        if (model::dtype_is_block(f->obj_type.dtype)) refuse(ctx, fmt::format("fifo '{}'", f->name), f->obj_type);
    const auto rt = ctx.program.runtime().state();
    for (std::size_t i = 0; i < rt->tensors.size(); ++i)
        if (model::dtype_is_block(rt->tensors[i].dtype))
            refuse(ctx, fmt::format("runtime sequence argument {}", i), rt->tensors[i]);
}

} // namespace npusim::iron::detail
