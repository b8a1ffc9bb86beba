#include "CoreProcess.hpp"

#include "SemaphoreLock.hpp"
#include "SimEngine.hpp"

#include <fmt/format.h>

namespace npusim::sim {

CoreProcess::CoreProcess(SimEngine& eng, const model::CoreProgram& prog)
    : eng_(eng), prog_(prog), clk_(this), mem_(eng.tile_memory(prog.tile)) {
    ps_.name = fmt::format("worker '{}' on {}", prog.worker, model::to_string(prog.tile));
    for (const auto& r : prog.rings) {
        Ring x;
        x.ring = &r;
        for (int b : r.buffers) {
            const auto& buf = eng.net().buffers.at(static_cast<std::size_t>(b));
            x.elems.push_back(reinterpret_cast<std::byte*>(eng.tile_memory(buf.tile) + buf.address));
        }
        x.label = fmt::format("fifo '{}' {}", r.prov.object, r.prov.role);
        rings_.push_back(std::move(x));
    }
    eng.register_process(&ps_);
    if (eng.trace()) track_ = eng.add_track({TrackInfo::Kind::Core, prog.tile.col, prog.tile.row, ps_.name});
}

void CoreProcess::spawn(std::size_t stack_bytes) {
    sc_core::sc_spawn_options o;
    o.set_stack_size(static_cast<int>(stack_bytes));
    sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("core"), &o);
}

void CoreProcess::protocol(const std::string& msg) {
    eng_.fail(SimulationError(SimulationError::Kind::Protocol, fmt::format("worker '{}': {}", prog_.worker, msg)));
}

void CoreProcess::run() {
    model::CoreServices::set_current(this);
    try {
        do {
            const auto ops_before = sync_ops_;
            const auto t_before = clk_.local_cycles();
            prog_.body();
            ++iterations_;
            if (prog_.while_true && sync_ops_ == ops_before) {
                // A forever-loop body that never synchronises would spin without end.
                clk_.sync();
                eng_.warn(fmt::format("worker '{}': its body acquires and releases nothing; it ran once and was parked "
                                      "(after {} cycles)",
                                      prog_.worker, clk_.local_cycles() - t_before));
                break;
            }
        } while (prog_.while_true);
        clk_.sync();
        ps_.status = ProcessState::Status::Done;
    } catch (const ProcessAbort&) {
    } catch (const SimulationError& e) {
        try { eng_.fail(e); } catch (const ProcessAbort&) {}
    } catch (const std::exception& e) {
        try {
            eng_.fail(SimulationError(SimulationError::Kind::Protocol, fmt::format("worker '{}': {}", prog_.worker, e.what())));
        } catch (const ProcessAbort&) {}
    } catch (...) {
        try {
            eng_.fail(SimulationError(SimulationError::Kind::Protocol,
                                             fmt::format("worker '{}': body threw an unknown exception", prog_.worker)));
        } catch (const ProcessAbort&) {}
    }
    model::CoreServices::set_current(nullptr);
}

CoreProcess::Ring& CoreProcess::ring(int key) {
    for (auto& r : rings_)
        if (r.ring->key == key) return r;
    protocol("uses a fifo handle that is not among its fn_args");
}

std::span<std::byte* const> CoreProcess::acquire(int key, int n) {
    auto& r = ring(key);
    ++sync_ops_;
    const int depth = static_cast<int>(r.elems.size());
    if (n > depth) protocol(fmt::format("acquire({}) on {} exceeds its depth {}", n, r.label, depth));
    const int need = std::max(0, n - r.held);
    if (need > 0) {
        ps_.ring = &r.label;
        ps_.count = n;
        ps_.element = (r.index + r.held) % depth;
        eng_.lock(r.ring->acquire_lock).acquire_ge(need * r.ring->repeat, clk_, ps_, &stall_);
        r.held += need;
    }
    r.out.clear();
    for (int k = 0; k < n; ++k) r.out.push_back(r.elems[static_cast<std::size_t>((r.index + k) % depth)]);
    return {r.out.data(), r.out.size()};
}

void CoreProcess::release(int key, int n) {
    auto& r = ring(key);
    ++sync_ops_;
    if (n > r.held) protocol(fmt::format("release({}) on {} but only {} element(s) are held", n, r.label, r.held));
    eng_.lock(r.ring->release_lock).release(n * r.ring->repeat, clk_, ps_.name);
    r.held -= n;
    r.index = (r.index + n) % static_cast<int>(r.elems.size());
}

std::byte* CoreProcess::buffer(int key) {
    for (const auto& b : prog_.buffers)
        if (b.key == key) {
            const auto& buf = eng_.net().buffers.at(static_cast<std::size_t>(b.buffer));
            return reinterpret_cast<std::byte*>(eng_.tile_memory(buf.tile) + buf.address);
        }
    protocol("uses a Buffer that is not among its fn_args");
}

int CoreProcess::lock_of(int key) const {
    for (const auto& l : prog_.locks)
        if (l.key == key) return l.lock;
    return -1;
}

void CoreProcess::lock_acquire_equal(int key, int value) {
    const int l = lock_of(key);
    if (l < 0) protocol("uses a barrier that is not among its fn_args");
    ++sync_ops_;
    ps_.ring = nullptr;
    ps_.detail = fmt::format("barrier wait_for_value({})", value);
    eng_.lock(l).acquire_eq(value, clk_, ps_, &stall_);
}

void CoreProcess::lock_release(int key, int value) {
    const int l = lock_of(key);
    if (l < 0) protocol("uses a barrier that is not among its fn_args");
    ++sync_ops_;
    eng_.lock(l).release(value, clk_, ps_.name);
}

void CoreProcess::kernel_call(std::string_view kernel, std::uint64_t cycles, const std::function<void()>& run) {
    const std::uint64_t begin = clk_.local_cycles();
    try {
        run();
    } catch (const ProcessAbort&) {
        throw;
    } catch (const std::exception& e) {
        eng_.fail(SimulationError(SimulationError::Kind::Kernel,
                                         fmt::format("worker '{}': kernel '{}' threw: {}", prog_.worker, kernel, e.what())));
    } catch (...) {
        eng_.fail(SimulationError(SimulationError::Kind::Kernel,
                                         fmt::format("worker '{}': kernel '{}' threw an unknown exception", prog_.worker, kernel)));
    }
    const std::uint64_t total = cycles + eng_.timing().kernel_call_overhead_cycles;
    clk_.pending += total;
    busy_ += total;
    clk_.maybe_sync();
    ++kernel_calls_;
    if (track_ >= 0) eng_.trace()->span(track_, kernel, begin, begin + total);
}

void CoreProcess::add_cycles(std::uint64_t cycles) {
    clk_.pending += cycles;
    busy_ += cycles;
    clk_.maybe_sync();
}

CoreStats CoreProcess::stats() const {
    CoreStats s;
    s.worker = prog_.worker;
    s.tile = prog_.tile;
    s.busy_cycles = busy_;
    s.stall_cycles = stall_;
    s.kernel_calls = kernel_calls_;
    s.iterations = iterations_;
    return s;
}

} // namespace npusim::sim
