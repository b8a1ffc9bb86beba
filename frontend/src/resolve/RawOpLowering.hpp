#pragma once
// RawOpLowering: the register-level operations of a runtime sequence (npu_write32,
// npu_maskwrite32, npu_blockwrite, npu_writebd, npu_address_patch, npu_push_queue, npu_sync,
// set_lock_value) decoded with the generation's register map (model/RegisterMap.hpp) into the
// netlist's runtime ops: lock sets, shim tasks started from the shim BD registers, awaits of a
// channel's token. Writes npusim does not simulate are warnings naming the register.
#include "npusim/frontend/RawSequence.hpp"
#include "resolve/ResolveContext.hpp"

#include <map>
#include <memory>

namespace npusim::iron::detail {

class RawOpLowering {
public:
    explicit RawOpLowering(ResolveContext& ctx);
    ~RawOpLowering();
    RawOpLowering(const RawOpLowering&) = delete;
    RawOpLowering& operator=(const RawOpLowering&) = delete;
    void lower(const RecordedRawOp& op);

private:
    // The shim's BD registers, task queues and tokens (RawShimTasks.cpp).
    void write_bd(const RecordedRawOp& op);
    void patch(const RecordedRawOp& op);
    void push(const RecordedRawOp& op);
    void sync(const RecordedRawOp& op);
    struct State;
    std::unique_ptr<State> s_;
    ResolveContext& ctx_;
};

} // namespace npusim::iron::detail
