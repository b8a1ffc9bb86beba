#include "RuntimeController.hpp"

#include "ShimDmaChannel.hpp"
#include "npusim/model/NetlistRelations.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

RuntimeController::RuntimeController(const ControllerServices& services)
    : SimProcess(services.run, "runtime sequence"), net_(services.net), memory_(services.memory),
      locks_(services.locks), board_(services.board), shim_channel_(services.shim_channel) {
    open_track(TrackInfo::Kind::Runtime, {0, 0});
}

void RuntimeController::body() {
    const auto& net = net_;
    const auto& t = svc_.timing;
    for (std::size_t i = 0; i < net.sequence.size(); ++i) {
        const auto& op = net.sequence[i];
        clk_.advance(t.runtime_op_cycles);
        switch (op.kind) {
        case model::RuntimeOp::Kind::StartTask: {
            clk_.sync(); // the queue write happens at the controller's time
            const auto& task = net.tasks.at(static_cast<std::size_t>(op.task));
            const auto shim = model::task_completer(task);
            auto* ch = shim_channel_(shim);
            if (!ch || !ch->has_link())
                fail(SimulationError(SimulationError::Kind::Protocol,
                                     fmt::format("runtime sequence: task {} ({}) targets {}, which has no flow",
                                                 task.id, task.prov.describe(), model::to_string(shim))));
            if (!ch->push(op.task, clk_.local_cycles() + t.shim_task_dispatch_cycles))
                fail(SimulationError(
                    SimulationError::Kind::Limit,
                    fmt::format("runtime sequence op {}: the task queue of shim {} is full ({} tasks pending) when "
                                "starting task {} ({}); the hardware would drop it. Await earlier tasks (wait=true + "
                                "TaskGroup.finish) before issuing more",
                                i, model::to_string(shim), net.device->task_queue_depth, task.id,
                                task.prov.describe())));
            break;
        }
        case model::RuntimeOp::Kind::AwaitTask: {
            clk_.sync();
            if (!board_.done(op.task)) {
                const auto& task = net.tasks.at(static_cast<std::size_t>(op.task));
                ps_.status = ProcessState::Status::WaitTask;
                ps_.detail = fmt::format("awaits task {} ({}) on shim {}", task.id, task.prov.describe(),
                                         model::to_string(model::task_completer(task)));
                waiting_ = op.task;
                const auto begin = now_cycles();
                while (!board_.done(op.task)) clk_.wait(board_.event());
                waiting_ = -1;
                ps_.status = ProcessState::Status::Running;
                if (track_ >= 0)
                    svc_.tracks.sink()->span(track_, fmt::format("await {}", task.prov.describe()), begin,
                                             now_cycles());
            }
            break;
        }
        case model::RuntimeOp::Kind::FreeTask: break; // BD ids are returned statically
        case model::RuntimeOp::Kind::WriteBuffer: {
            clk_.sync();
            const auto& buf = net.buffers.at(static_cast<std::size_t>(op.buffer));
            if (op.offset_bytes + op.data.size() > buf.bytes)
                fail(SimulationError(SimulationError::Kind::Protocol,
                                     fmt::format("runtime sequence: write of {} B at {} overruns buffer '{}' ({} B)",
                                                 op.data.size(), op.offset_bytes, buf.name, buf.bytes)));
            std::memcpy(memory_.buffer(op.buffer) + op.offset_bytes, op.data.data(), op.data.size());
            break;
        }
        case model::RuntimeOp::Kind::SetLock: locks_.at(op.lock).set(op.value, clk_, "runtime sequence"); break;
        }
    }
    clk_.sync();
    ps_.status = ProcessState::Status::Done;
    svc_.run.finish();
}

} // namespace npusim::sim
