// CoreProcess (CoreProcess.hpp), part 1: the body on its coroutine, its object rings, buffers and
// locks, and what it shows of itself (view, stats). Part 2, CoreProcessCalls.cpp: kernel calls,
// cascade and stream port words, added cycles.
#include "CoreProcess.hpp"

#include "npusim/model/LockRules.hpp"
#include "npusim/model/NativeActivity.hpp"

#include "npusim/model/NetlistRelations.hpp"

#include <chrono>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

CoreProcess::CoreProcess(const CoreProcessServices& services, const model::CoreProgram& prog)
    : SimProcess(services.run, fmt::format("{} on {}", model::worker_label(prog.worker), model::to_string(prog.tile)),
                 this),
      buffers_(services.buffers), memory_(services.memory), locks_(services.locks), prog_(prog) {
    for (const auto& r : prog.rings) {
        Ring x;
        x.ring = &r;
        for (int b : r.buffers) x.elems.push_back(reinterpret_cast<std::byte*>(memory_.buffer(b)));
        x.label = fmt::format("fifo '{}' {}", r.prov.object, r.prov.role);
        rings_.push_back(std::move(x));
    }
    free_kernels_ = services.free_kernels;
    pool_ = services.kernel_pool;
    pool_min_nanos_ = services.kernel_pool_min_nanos;
    if (services.kernel_nanos) kernel_nanos_ = services.kernel_nanos;
    if (services.check_memory) {
        std::vector<model::TileCoord> tiles{prog.tile};
        for (const auto& r : prog.rings)
            for (int b : r.buffers) tiles.push_back(buffers_.at(static_cast<std::size_t>(b)).tile);
        for (const auto& b : prog.buffers) tiles.push_back(buffers_.at(static_cast<std::size_t>(b.buffer)).tile);
        guard_.emplace(memory_, std::move(tiles));
        // Names and address ranges of every object and Buffer the core can write (stable for the run).
        element_names_.resize(rings_.size());
        element_ranges_.resize(rings_.size());
        for (std::size_t i = 0; i < rings_.size(); ++i)
            for (std::size_t e = 0; e < rings_[i].elems.size(); ++e)
                element_names_[i].push_back(fmt::format("{} element {}", rings_[i].label, e));
        for (const auto& b : prog.buffers)
            buffer_names_.push_back(fmt::format("Buffer '{}'", buffers_.at(static_cast<std::size_t>(b.buffer)).name));
        auto range = [&](int buffer, std::string_view name) {
            const auto* p = memory_.buffer(buffer);
            return MemoryGuard::Range{p, p + buffers_.at(static_cast<std::size_t>(buffer)).bytes, name};
        };
        for (std::size_t i = 0; i < rings_.size(); ++i)
            for (std::size_t e = 0; e < rings_[i].elems.size(); ++e)
                element_ranges_[i].push_back(range(rings_[i].ring->buffers[e], element_names_[i][e]));
        for (std::size_t i = 0; i < prog.buffers.size(); ++i)
            buffer_ranges_.push_back(range(prog.buffers[i].buffer, buffer_names_[i]));
        for (const auto& er : element_ranges_) all_ranges_.insert(all_ranges_.end(), er.begin(), er.end());
        all_ranges_.insert(all_ranges_.end(), buffer_ranges_.begin(), buffer_ranges_.end());
    }
    open_track(TrackInfo::Kind::Core, prog.tile);
}

std::vector<MemoryGuard::Range> CoreProcess::body_ranges() const {
    std::vector<MemoryGuard::Range> r(buffer_ranges_.begin(), buffer_ranges_.end());
    for (std::size_t i = 0; i < rings_.size(); ++i) {
        const auto& ring = rings_[i];
        const int depth = static_cast<int>(ring.elems.size());
        for (int k = 0; k < ring.held; ++k)
            r.push_back(element_ranges_[i][static_cast<std::size_t>((ring.index + k) % depth)]);
    }
    return r;
}

void CoreProcess::body_check() {
    if (!guard_) return;
    body_unchecked_ = false;
    const auto bad = guard_->check(body_ranges(), all_ranges_);
    if (!bad.empty()) body_wrote_outside(bad);
    body_clean_at_ = clk_.local_cycles();
}

void CoreProcess::body_wrote_outside(const std::string& bad) {
    fail(SimulationError(SimulationError::Kind::Kernel,
                         fmt::format("{}: its body wrote outside the objects it holds and its Buffers (between "
                                     "cycle {}, its last fifo or kernel call checked, and cycle {}, this one): {}",
                                     error_subject(), body_clean_at_, clk_.local_cycles(), bad)));
}

void CoreProcess::acquire_check(const Ring& r, int first, int need) {
    if (!guard_) return;
    // Nobody else runs unless the acquire waits: then the whole check is made, before the wait
    // (check_before_wait). An acquire that did not wait checks only the objects it took (a write
    // there came before the body held them; nothing ran since the acquire began); the rest waits
    // for the next full check, which comes before the core next waits or calls a kernel, and finds
    // the same writes (the copy changes only at a release, over what was held, and after a wait).
    const auto ri = static_cast<std::size_t>(&r - rings_.data());
    const int depth = static_cast<int>(r.elems.size());
    body_unchecked_ = true;
    const auto allowed = body_ranges();
    for (int k = 0; k < std::min(need, depth - r.held); ++k) {
        const auto& taken = element_ranges_[ri][static_cast<std::size_t>((first + k) % depth)];
        if (const auto bad = guard_->check_within({&taken, 1}, allowed, all_ranges_); !bad.empty())
            body_wrote_outside(bad);
    }
}

void CoreProcess::check_before_wait(void* self) { static_cast<CoreProcess*>(self)->body_check(); }

void CoreProcess::resync(std::uint64_t waits_before) {
    if (guard_ && clk_.waits() != waits_before) guard_->catch_up();
}

void CoreProcess::suspending() {
    // Writes an acquire left unchecked (acquire_check) are checked before others run; inside a
    // kernel the body's writes were checked at the call.
    if (body_unchecked_ && !kernel_) body_check();
    // What the body and its kernels may have written, for other cores' guards on these tiles.
    if (guard_ && guard_->shares_tiles()) guard_->publish(body_ranges());
}

void CoreProcess::resumed() noexcept {
    model::NativeActivity::enter(model::NativeActivity::Phase::Simulation, prog_.worker, {}, now_cycles());
}

std::string CoreProcess::error_subject() const { return model::worker_label(prog_.worker); }

void CoreProcess::protocol(const std::string& msg) {
    fail(SimulationError(SimulationError::Kind::Protocol, fmt::format("{}: {}", error_subject(), msg)));
}

void CoreProcess::body() {
    // The body's calls reach this core through CoreServices::current() while it runs.
    struct Current {
        explicit Current(model::CoreServices* s) { model::CoreServices::set_current(s); }
        ~Current() { model::CoreServices::set_current(nullptr); }
        Current(const Current&) = delete;
        Current& operator=(const Current&) = delete;
    } current(this);
    if (guard_) guard_->snapshot();
    // The parameter-sync preamble (aie-lower-scratchpad-parameters emitCorePreambles): use_lock
    // Acquire 1 at the top of the core, before the body's loop; the sequence's sync sets it.
    if (prog_.param_sync_lock >= 0)
        lock_wait(locks_.at(prog_.param_sync_lock), "the scratchpad parameter sync (acquire == 1 before its body)", 1,
                  true);
    do {
        const auto ops_before = sync_ops_;
        const auto t_before = clk_.local_cycles();
        resumed();
        run_body();
        model::NativeActivity::leave();
        const bool parked = prog_.while_true && sync_ops_ == ops_before;
        // What the body wrote after its last call: a forever loop's next iteration checks it from its
        // first fifo or kernel call on (acquire_check, then before it waits or calls a kernel), which
        // sees the same memory and holds the same objects (nothing runs in between).
        if (!prog_.while_true || parked) body_check();
        ++iterations_;
        if (parked) {
            // A forever-loop body that never synchronises would spin without end.
            clk_.sync();
            svc_.run.warn(fmt::format("{}: its body acquires and releases nothing; it ran once and was parked "
                                      "(after {} cycles)",
                                      error_subject(), clk_.local_cycles() - t_before));
            break;
        }
    } while (prog_.while_true);
    clk_.sync();
    ps_.status = ProcessState::Status::Done;
}

// One run of the body. What it throws (itself, or npusim's design API it calls) is a protocol
// error naming the worker once: "worker 'w': body threw: ..." for its own exceptions, the API's
// message (which may name the worker already) for a DesignError.
void CoreProcess::run_body() {
    try {
        prog_.body();
    } catch (const ProcessAbort&) {
        throw;
    } catch (const SimulationError&) {
        throw;
    } catch (const DesignError& e) {
        const std::string subject = error_subject() + ": ";
        const std::string_view what = e.what();
        protocol(std::string(what.starts_with(subject) ? what.substr(subject.size()) : what));
    } catch (const std::exception& e) {
        protocol(fmt::format("body threw: {}", e.what()));
    } catch (...) {
        protocol("body threw an unknown exception");
    }
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
    // An acquire beyond the ring's buffers waits on a lock that can never reach the count, as on
    // the NPU (the toolchain emits use_lock(AcquireGreaterEqual, n - held) unchecked,
    // AIEObjectFifoStatefulTransform LowerObjectFifoAcquire): it ends in a deadlock report.
    const int need = std::max(0, n - r.held);
    if (need > 0) {
        const int first = r.index + r.held; // the first object it takes
        const auto waits = clk_.waits();
        ps_.ring = &r.label;
        ps_.count = n;
        ps_.pool = depth;
        ps_.element = (r.index + r.held) % depth;
        // A ring without locks (a fifo with disable_synchronization) only counts what it holds
        // (AIEObjectFifoStatefulTransform LowerObjectFifoAcquire emits no use_lock then).
        if (r.ring->acquire_lock >= 0) {
            const int amount = model::repeat_scaled(need, r.ring->repeat);
            auto& lock = locks_.at(r.ring->acquire_lock);
            const auto requested = clk_.local_cycles();
            const auto stalled_before = stall_;
            trace_lock_request(TraceKind::LockAcquire, r.label, lock, amount, requested);
            lock.acquire_ge(amount, clk_, ps_, &stall_, guard_ ? &CoreProcess::check_before_wait : nullptr, this);
            trace_lock_stall(r.label, lock, amount, requested, stall_ - stalled_before);
        }
        if (clk_.waits() == waits) acquire_check(r, first, need); // else checked before the wait
        r.held += need;
        r.acquired += static_cast<std::uint64_t>(need);
        ps_.acted("acquired", &r.label, need, clk_.local_cycles());
        resync(waits);
    }
    r.out.clear();
    // Without locks an acquire beyond the ring wraps around it (the rotating index, mod depth).
    const int given = r.ring->acquire_lock < 0 ? n : std::min(n, depth);
    for (int k = 0; k < given; ++k) r.out.push_back(r.elems[static_cast<std::size_t>((r.index + k) % depth)]);
    return {r.out.data(), r.out.size()};
}

void CoreProcess::release(int key, int n) {
    auto& r = ring(key);
    ++sync_ops_;
    if (n > r.held) protocol(fmt::format("release({}) on {} but only {} element(s) are held", n, r.label, r.held));
    if (guard_) {
        // The released objects leave the writable set: their bytes (written while held) go to the copy.
        std::vector<MemoryGuard::Range> released;
        const auto ri = static_cast<std::size_t>(&r - rings_.data());
        for (int k = 0; k < n; ++k)
            released.push_back(
                element_ranges_[ri][static_cast<std::size_t>((r.index + k) % static_cast<int>(r.elems.size()))]);
        guard_->refresh(released);
        if (guard_->shares_tiles()) guard_->publish(released);
    }
    if (r.ring->release_lock >= 0) { // none without synchronization (LowerObjectFifoRelease)
        auto& lock = locks_.at(r.ring->release_lock);
        trace_lock_request(TraceKind::LockRelease, r.label, lock, model::repeat_scaled(n, r.ring->repeat),
                           clk_.local_cycles());
        const auto waits = clk_.waits();
        lock.release(model::repeat_scaled(n, r.ring->repeat), clk_, ps_.name); // may sync (ProcessClock quantum)
        resync(waits);
    }
    r.held -= n;
    r.released += static_cast<std::uint64_t>(n);
    ps_.acted("released", &r.label, n, clk_.local_cycles());
    r.index = (r.index + n) % static_cast<int>(r.elems.size());
}

std::byte* CoreProcess::buffer(int key) {
    for (const auto& b : prog_.buffers)
        if (b.key == key) return reinterpret_cast<std::byte*>(memory_.buffer(b.buffer));
    protocol("uses a Buffer that is not among its fn_args");
}

std::uint32_t CoreProcess::scratchpad_word(int key) {
    for (const auto& b : prog_.params)
        if (b.key == key) {
            std::uint32_t w = 0;
            std::memcpy(&w, memory_.buffer(b.buffer), 4);
            return w;
        }
    protocol("reads a ScratchpadParameter that has no buffer on its tile");
}

const model::CoreLockRef* CoreProcess::lock_of(int key) const {
    for (const auto& l : prog_.locks)
        if (l.key == key) return &l;
    return nullptr;
}

void CoreProcess::lock_acquire_equal(int key, int value) {
    const auto* ref = lock_of(key);
    if (!ref) protocol("uses a barrier that is not among its fn_args");
    auto& lock = locks_.at(ref->lock);
    lock_wait(lock,
              ref->user_lock ? fmt::format("lock '{}' acquire_exact({})", lock.name(), value)
                             : fmt::format("barrier wait_for_value({})", value),
              value, true);
}

void CoreProcess::lock_acquire_ge(int key, int value) {
    const auto* ref = lock_of(key);
    if (!ref) protocol("uses a lock that is not among its fn_args");
    auto& lock = locks_.at(ref->lock);
    lock_wait(lock, fmt::format("lock '{}' acquire({})", lock.name(), value), value, false);
}

void CoreProcess::lock_wait(SemaphoreLock& lock, std::string detail, int value, bool equal) {
    ++sync_ops_;
    ps_.ring = nullptr;
    ps_.detail = std::move(detail);
    body_check();
    const auto waits = clk_.waits();
    const auto requested = clk_.local_cycles();
    const auto stalled_before = stall_;
    trace_lock_request(TraceKind::LockAcquire, ps_.detail, lock, value, requested);
    if (equal)
        lock.acquire_eq(value, clk_, ps_, &stall_);
    else
        lock.acquire_ge(value, clk_, ps_, &stall_);
    trace_lock_stall(ps_.detail, lock, value, requested, stall_ - stalled_before);
    resync(waits);
}

void CoreProcess::lock_release(int key, int value) {
    const auto* ref = lock_of(key);
    if (!ref) protocol("uses a barrier that is not among its fn_args");
    ++sync_ops_;
    auto& lock = locks_.at(ref->lock);
    trace_lock_request(TraceKind::LockRelease, ref->user_lock ? "lock release" : "barrier release", lock, value,
                       clk_.local_cycles());
    const auto waits = clk_.waits();
    lock.release(value, clk_, ps_.name);
    resync(waits);
}

void CoreProcess::emit_lock_request(TraceKind kind, std::string_view what, const SemaphoreLock& lock, int amount,
                                    std::uint64_t at) {
    const TraceArg args[] = {TraceArg::str("what", what), TraceArg::str("lock", lock.name()),
                             TraceArg::num("amount", amount)};
    svc_.tracks.sink()->instant(track_, kind, kind == TraceKind::LockAcquire ? "acquire request" : "release request",
                                at, args);
}

void CoreProcess::emit_lock_stall(std::string_view what, const SemaphoreLock& lock, int amount, std::uint64_t from,
                                  std::uint64_t cycles) {
    const TraceArg args[] = {TraceArg::str("what", what), TraceArg::str("lock", lock.name()),
                             TraceArg::num("amount", amount)};
    svc_.tracks.sink()->detailed_span(track_, TraceKind::LockStall, fmt::format("lock stall: {}", lock.name()), from,
                                      from + cycles, args);
}

ProcessView CoreProcess::view() const {
    auto v = base_view(ProcessView::Kind::Worker);
    for (std::size_t i = 0; i < prog_.rings.size(); ++i) {
        const auto& r = rings_[i];
        v.rings.push_back({r.held, r.acquired, r.released});
        v.progress.fifo_ends.push_back({r.label, r.acquired, r.released, r.held});
    }
    if (ps_.status == ProcessState::Status::WaitCascade) {
        v.cascade_put = ps_.detail.starts_with("cascade_put");
        const auto* l = v.cascade_put ? cascade_out_ : cascade_in_;
        v.cascade = v.cascade_put ? prog_.cascade_out : prog_.cascade_in;
        if (l) {
            v.cascade_words = l->words_held();
            v.cascade_depth = l->depth();
            v.cascade_words_put = l->words_put();
            v.cascade_words_got = l->words_got();
        }
    }
    v.progress.steps = iterations_;
    v.progress.steps_unit = "iterations";
    return v;
}

CoreStats CoreProcess::stats() const {
    CoreStats s;
    s.worker = prog_.worker;
    s.tile = prog_.tile;
    s.busy_cycles = busy_;
    s.kernel_cycles = kernel_cycles_;
    s.body_cycles = busy_ - kernel_cycles_;
    s.stall_cycles = stall_;
    s.cascade_stall_cycles = cascade_stall_;
    s.kernel_calls = kernel_calls_;
    s.pooled_kernel_calls = pooled_calls_;
    s.macs = macs_;
    s.peak_macs_per_cycle = peak_macs_per_cycle_;
    s.iterations = iterations_;
    return s;
}

} // namespace npusim::sim
