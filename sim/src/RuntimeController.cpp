#include "RuntimeController.hpp"

#include "SemaphoreLock.hpp"
#include "ShimDmaChannel.hpp"
#include "SimEngine.hpp"

#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

RuntimeController::RuntimeController(SimEngine& eng) : eng_(eng) {
    ps_.name = "runtime sequence";
    eng.register_process(&ps_);
    if (eng.trace()) track_ = eng.add_track({TrackInfo::Kind::Runtime, 0, 0, "runtime sequence"});
}

void RuntimeController::spawn(std::size_t stack_bytes) {
    sc_core::sc_spawn_options o;
    o.set_stack_size(static_cast<int>(stack_bytes));
    sc_core::sc_spawn([this] { run(); }, "runtime_sequence", &o);
}

void RuntimeController::run() {
    try {
        const auto& net = eng_.net();
        const auto& t = eng_.timing();
        for (std::size_t i = 0; i < net.sequence.size(); ++i) {
            const auto& op = net.sequence[i];
            clk_.pending += t.runtime_op_cycles;
            switch (op.kind) {
            case model::RuntimeOp::Kind::StartTask: {
                clk_.sync();   // the queue write happens at the controller's time
                const auto& task = net.tasks.at(static_cast<std::size_t>(op.task));
                auto* ch = eng_.shim_channel({task.tile, task.dir, task.channel});
                if (!ch || !ch->has_link())
                    eng_.fail(SimulationError(SimulationError::Kind::Protocol,
                                                     fmt::format("runtime sequence: task {} ({}) targets {} {} {}, which has no flow",
                                                                 task.id, task.prov.describe(), model::to_string(task.tile),
                                                                 model::direction_name(task.dir), task.channel)));
                if (!ch->push(op.task, clk_.local_cycles() + t.shim_task_dispatch_cycles))
                    eng_.fail(SimulationError(
                        SimulationError::Kind::Limit,
                        fmt::format("runtime sequence op {}: the task queue of shim {} {} {} is full ({} tasks pending) when "
                                    "starting task {} ({}); the hardware would drop it. Await earlier tasks (wait=true + "
                                    "TaskGroup.finish) before issuing more",
                                    i, model::to_string(task.tile), model::direction_name(task.dir), task.channel,
                                    eng_.task_queue_depth(), task.id, task.prov.describe())));
                break;
            }
            case model::RuntimeOp::Kind::AwaitTask: {
                clk_.sync();
                if (!eng_.task_complete(op.task)) {
                    const auto& task = net.tasks.at(static_cast<std::size_t>(op.task));
                    ps_.status = ProcessState::Status::WaitTask;
                    ps_.detail = fmt::format("awaits task {} ({}) on shim {} {} {}", task.id, task.prov.describe(),
                                             model::to_string(task.tile), model::direction_name(task.dir), task.channel);
                    waiting_ = op.task;
                    const auto begin = now_cycles();
                    while (!eng_.task_complete(op.task)) clk_.wait(eng_.task_event());
                    waiting_ = -1;
                    ps_.status = ProcessState::Status::Running;
                    if (track_ >= 0) eng_.trace()->span(track_, fmt::format("await {}", task.prov.describe()), begin, now_cycles());
                }
                break;
            }
            case model::RuntimeOp::Kind::FreeTask: break;   // BD ids are returned statically
            case model::RuntimeOp::Kind::WriteBuffer: {
                clk_.sync();
                const auto& buf = net.buffers.at(static_cast<std::size_t>(op.buffer));
                if (op.offset_bytes + op.data.size() > buf.bytes)
                    eng_.fail(SimulationError(SimulationError::Kind::Protocol,
                                                     fmt::format("runtime sequence: write of {} B at {} overruns buffer '{}' ({} B)",
                                                                 op.data.size(), op.offset_bytes, buf.name, buf.bytes)));
                std::memcpy(eng_.tile_memory(buf.tile) + buf.address + op.offset_bytes, op.data.data(), op.data.size());
                break;
            }
            case model::RuntimeOp::Kind::SetLock: eng_.lock(op.lock).set(op.value, clk_, "runtime sequence"); break;
            }
        }
        clk_.sync();
        ps_.status = ProcessState::Status::Done;
        eng_.controller_finished();
    } catch (const ProcessAbort&) {
    } catch (const SimulationError& e) {
        try { eng_.fail(e); } catch (const ProcessAbort&) {}
    }
}

} // namespace npusim::sim
