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

void CoreProcess::PoolThreadServices::refuse(std::string_view what) const {
    throw ThreadCall{fmt::format("a kernel called {} while running on a kernel thread (SimOptions::kernel_threads, "
                                 "--kernel-threads); a kernel that uses its worker's services runs only with "
                                 "--kernel-threads 1",
                                 what)};
}

bool CoreProcess::pooled(const KernelTiming* timing) const {
    // Cores with cascade or stream ports move words on their own clock inside kernels; the memory
    // check compares the reached tile memories around each call with nobody else writing them.
    if (!pool_ || guard_ || cascade_in_ || cascade_out_ || stream_in_ || stream_out_) return false;
    if (pool_min_nanos_ == 0) return true;
    return timing && timing->nanos >= pool_min_nanos_; // a kernel's first call in the run runs here and is timed
}

KernelTiming* CoreProcess::timing_of(std::string_view kernel) const {
    if (!pool_ || !pool_min_nanos_) return nullptr;
    // A kernel's name comes from its one state object: the pointer finds it without comparing text.
    for (auto& t : *kernel_nanos_)
        if ((t.kernel.data() == kernel.data() && t.kernel.size() == kernel.size()) || t.kernel == kernel) return &t;
    return nullptr;
}

bool CoreProcess::time_inline_call(KernelTiming* timing) const {
    if (!pool_ || !pool_min_nanos_) return false;
    return !timing || ++timing->untimed >= KernelTiming::kRetimeEvery;
}

void CoreProcess::note_kernel_time(std::string_view kernel, std::uint64_t nanos) {
    if (auto* t = timing_of(kernel)) {
        t->nanos = nanos;
        t->untimed = 0;
        return;
    }
    kernel_nanos_->push_back({kernel, nanos, 0});
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
        const int amount = model::repeat_scaled(need, r.ring->repeat);
        auto& lock = locks_.at(r.ring->acquire_lock);
        const auto requested = clk_.local_cycles();
        const auto stalled_before = stall_;
        trace_lock_request(TraceKind::LockAcquire, r.label, lock, amount, requested);
        lock.acquire_ge(amount, clk_, ps_, &stall_, guard_ ? &CoreProcess::check_before_wait : nullptr, this);
        trace_lock_stall(r.label, lock, amount, requested, stall_ - stalled_before);
        if (clk_.waits() == waits) acquire_check(r, first, need); // else checked before the wait
        r.held += need;
        r.acquired += static_cast<std::uint64_t>(need);
        ps_.acted("acquired", &r.label, need, clk_.local_cycles());
        resync(waits);
    }
    r.out.clear();
    for (int k = 0; k < std::min(n, depth); ++k)
        r.out.push_back(r.elems[static_cast<std::size_t>((r.index + k) % depth)]);
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
    auto& lock = locks_.at(r.ring->release_lock);
    trace_lock_request(TraceKind::LockRelease, r.label, lock, model::repeat_scaled(n, r.ring->repeat),
                       clk_.local_cycles());
    const auto waits = clk_.waits();
    lock.release(model::repeat_scaled(n, r.ring->repeat), clk_, ps_.name); // may sync (ProcessClock quantum)
    resync(waits);
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

void CoreProcess::check_kernel_writes(std::string_view kernel, std::span<const model::MemoryView> views,
                                      std::uint64_t begin) {
    if (!guard_) return;
    // The views' names only matter in a report: named (and checked again) only when a write is found.
    std::vector<std::string> names;
    std::vector<MemoryGuard::Range> ranges;
    ranges.reserve(views.size());
    for (const auto& v : views) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(v.data);
        ranges.push_back({p, p + v.bytes, {}});
    }
    if (guard_->check(ranges, all_ranges_).empty()) return;
    names.reserve(views.size());
    for (std::size_t i = 0; i < views.size(); ++i) {
        names.push_back(fmt::format("view '{}'", views[i].name));
        ranges[i].name = names.back();
    }
    const auto bad = guard_->check(ranges, all_ranges_);
    if (!bad.empty())
        fail(SimulationError(SimulationError::Kind::Kernel,
                             fmt::format("{}: kernel '{}' wrote outside the views it was given (call at cycle {}): {}",
                                         error_subject(), kernel, begin, bad)));
}

void CoreProcess::kernel_call(std::string_view kernel, std::uint64_t cycles, std::span<const model::MemoryView> views,
                              const std::function<void()>& run, const model::KernelWork& work) {
    body_check();
    const std::uint64_t begin = clk_.local_cycles();
    const auto waits = clk_.waits();
    if (guard_) guard_->refresh(body_ranges()); // the copy now equals memory everywhere
    kernel_ = KernelInProgress{kernel, views, begin, begin, 0, 0};
    struct EndKernel {
        std::optional<KernelInProgress>& k;
        ~EndKernel() { k.reset(); }
    };
    const EndKernel end_kernel{kernel_};
    // --what-if free-kernels: the call still runs (the data stays exact) but costs no core time.
    const std::uint64_t total = free_kernels_ ? 0 : cycles + svc_.timing.kernel_call_overhead_cycles;
    if (free_kernels_) cycles = 0;
    // The call's cycles on the core's chain (CriticalPath): its overhead and its cost model's body.
    const auto charge_call = [&] {
        clk_.advance(total - cycles, PathCost::KernelCallOverhead);
        clk_.advance(cycles, PathCost::KernelModel);
    };
    KernelTiming* const timing = timing_of(kernel);
    const bool on_pool = pooled(timing);
    if (on_pool) ++pooled_calls_;
    try {
        if (on_pool) {
            // The call's cost does not depend on its result: charge it, hand the call to the pool,
            // and wait in simulated time until it ends while other processes run (and other cores
            // hand over theirs). Nobody sees its views before then: the core holds them and
            // publishes nothing until it runs on. Join before anything else happens here, also
            // when the run is torn down during the wait.
            KernelPool::Task task;
            task.run = &run;
            task.services = &pool_services_;
            task.worker = prog_.worker;
            task.kernel = kernel;
            task.cycle = begin;
            struct Join {
                KernelPool& pool;
                KernelPool::Task& task;
                ~Join() { pool.wait(task); }
            };
            pool_->submit(task);
            {
                const Join join{*pool_, task};
                charge_call();
                clk_.sync();
                // The simulating thread now waits for (or runs) the call: a watchdog names the kernel.
                const model::NativeActivityScope waiting(model::NativeActivity::Phase::Simulation, prog_.worker, kernel,
                                                         begin);
                pool_->wait(task);
            }
            if (pool_min_nanos_) note_kernel_time(kernel, task.nanos);
            if (task.error) std::rethrow_exception(task.error);
        } else {
            const model::NativeActivityScope in_kernel(model::NativeActivity::Phase::Simulation, prog_.worker, kernel,
                                                       begin);
            const bool timed = time_inline_call(timing);
            const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
            run();
            if (timed)
                note_kernel_time(kernel,
                                 static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                                std::chrono::steady_clock::now() - start)
                                                                .count()));
        }
    } catch (const PoolThreadServices::ThreadCall& c) {
        // A pooled core has no cascade or stream ports: the port's own error, as in serial mode.
        using Port = PoolThreadServices::ThreadCall::Port;
        std::byte word[64] = {};
        switch (c.port) {
        case Port::CascadePut: cascade_put(word); break;
        case Port::CascadeGet: cascade_get(word); break;
        case Port::StreamPut: stream_put(0); break;
        case Port::StreamGet: (void)stream_get(); break;
        case Port::None: break;
        }
        protocol(c.message);
    } catch (const ProcessAbort&) {
        throw;
    } catch (const std::exception& e) {
        fail(SimulationError(SimulationError::Kind::Kernel,
                             fmt::format("{}: kernel '{}' threw: {}", error_subject(), kernel, e.what())));
    } catch (...) {
        fail(SimulationError(SimulationError::Kind::Kernel,
                             fmt::format("{}: kernel '{}' threw an unknown exception", error_subject(), kernel)));
    }
    check_kernel_writes(kernel, views, begin);
    if (guard_) body_clean_at_ = begin + total; // nothing outside the views changed: the body next writes after
    std::uint64_t cascade_extra = 0; // cycles the call's cascade words lengthened it
    if (kernel_->words == 0) {
        if (!on_pool) charge_call();
    } else {
        // What the words lengthened the call by is a cascade wait, which the chain does not price.
        clk_.extend_path(PathCost::KernelCallOverhead, total - cycles);
        clk_.extend_path(PathCost::KernelModel, cycles);
        // The call overlaps its cascade words: it ends when both its work (delayed by the words
        // that came late or found no room) and its last word are done.
        const std::uint64_t end = std::max(begin + total + kernel_->stall, kernel_->cursor);
        const std::uint64_t extra = end - begin - total;
        stall_ += extra;
        cascade_stall_ += extra;
        cascade_extra = extra;
        clk_.set_local_cycles(std::max(end, clk_.local_cycles()));
    }
    busy_ += total;
    kernel_cycles_ += total;
    macs_ += work.macs;
    peak_macs_per_cycle_ = std::max(peak_macs_per_cycle_, work.peak_macs_per_cycle);
    clk_.maybe_sync();
    ++kernel_calls_;
    last_kernel_.assign(kernel);
    ps_.acted("ran kernel", &last_kernel_, -1, begin);
    if (track_ >= 0) {
        const TraceArg args[] = {TraceArg::str("kernel", kernel),
                                 TraceArg::str("worker", prog_.worker),
                                 TraceArg::num("call", static_cast<std::int64_t>(kernel_calls_)),
                                 TraceArg::num("kernel_cycles", static_cast<std::int64_t>(cycles)),
                                 TraceArg::num("call_overhead_cycles", static_cast<std::int64_t>(total - cycles)),
                                 TraceArg::num("macs", static_cast<std::int64_t>(work.macs))};
        svc_.tracks.sink()->detailed_span(track_, TraceKind::KernelCall, kernel, begin, begin + total, args);
    }
    if (track_ >= 0 && cascade_extra) {
        const TraceArg args[] = {TraceArg::str("kernel", kernel), TraceArg::str("worker", prog_.worker),
                                 TraceArg::num("cascade_words", static_cast<std::int64_t>(kernel_->words))};
        svc_.tracks.sink()->detailed_span(track_, TraceKind::CascadeStall,
                                          fmt::format("cascade stall: kernel '{}'", kernel), begin + total,
                                          begin + total + cascade_extra, args);
    }
    resync(waits);
}

template <class Op>
void CoreProcess::cascade_op(bool put, bool will_block, Op op) {
    ++sync_ops_;
    const auto waits = clk_.waits();
    if (will_block) {
        // Others run while this core waits: check what it wrote so far, and take the guard's copy
        // again after the wait (as around a blocking acquire).
        if (kernel_)
            check_kernel_writes(kernel_->name, kernel_->views, kernel_->begin);
        else
            body_check();
    }
    if (kernel_) {
        const std::uint64_t at = kernel_->cursor;
        const std::uint64_t t = op(at);
        kernel_->stall += t - at;
        kernel_->cursor = t + 1; // one word per cycle
        ++kernel_->words;
        if (guard_ && clk_.waits() != waits) guard_->catch_up();
        return;
    }
    const std::uint64_t at = clk_.local_cycles();
    const std::uint64_t t = op(at);
    clk_.set_local_cycles(std::max(t + 1, clk_.local_cycles()));
    const std::uint64_t spent = clk_.local_cycles() - at;
    busy_ += 1;
    const std::uint64_t waited = spent - std::min<std::uint64_t>(spent, 1);
    stall_ += waited;
    cascade_stall_ += waited;
    if (track_ >= 0 && waited) {
        const auto& peer = put ? cascade_out_->connection().dst_worker : cascade_in_->connection().src_worker;
        const TraceArg args[] = {TraceArg::str("worker", prog_.worker), TraceArg::str(put ? "to" : "from", peer)};
        svc_.tracks.sink()->detailed_span(track_, TraceKind::CascadeStall,
                                          put ? fmt::format("cascade stall: put to {}", peer)
                                              : fmt::format("cascade stall: get from {}", peer),
                                          at, at + waited, args);
    }
    clk_.maybe_sync();
    resync(waits);
}

void CoreProcess::cascade_put(const void* word) {
    if (!cascade_out_) protocol("cascade_put: no CascadeFlow starts at this worker, so its core has no cascade output");
    cascade_op(true, cascade_out_->words_held() >= cascade_out_->depth(), [&](std::uint64_t at) {
        const auto t = cascade_out_->put(static_cast<const std::byte*>(word), at, clk_, ps_);
        ps_.acted("put a cascade word to", &cascade_out_->connection().dst_worker, -1, t);
        return t;
    });
}

void CoreProcess::cascade_get(void* word) {
    if (!cascade_in_) protocol("cascade_get: no CascadeFlow ends at this worker, so its core has no cascade input");
    cascade_op(false, cascade_in_->words_held() == 0, [&](std::uint64_t at) {
        const auto t = cascade_in_->get(static_cast<std::byte*>(word), at, clk_, ps_);
        ps_.acted("got a cascade word from", &cascade_in_->connection().src_worker, -1, t);
        return t;
    });
}

template <class Op>
void CoreProcess::stream_op(Op op) {
    ++sync_ops_;
    const auto waits = clk_.waits();
    // Others may run while the word waits for its receiver (or for data): check what the core
    // wrote so far, and take the guard's copy again afterwards (as around a blocking acquire).
    if (kernel_)
        check_kernel_writes(kernel_->name, kernel_->views, kernel_->begin);
    else
        body_check();
    const std::uint64_t at = clk_.local_cycles();
    op();
    const std::uint64_t spent = clk_.local_cycles() - at;
    busy_ += std::min<std::uint64_t>(spent, 1);
    stall_ += spent - std::min<std::uint64_t>(spent, 1);
    if (kernel_) {
        if (guard_ && clk_.waits() != waits) guard_->catch_up();
        return;
    }
    clk_.maybe_sync();
    resync(waits);
}

void CoreProcess::stream_put(std::uint32_t word) {
    if (!stream_out_)
        protocol("put_ms: no ObjectFifo producer end at this worker is Port::stream, so its core's output stream "
                 "port is not connected");
    stream_op([&] {
        std::uint8_t bytes[4];
        std::memcpy(bytes, &word, sizeof bytes);
        stream_out_->send(bytes, sizeof bytes, clk_, ps_, stream_time_);
        ps_.acted("put a stream word on", &stream_out_->label(), -1, clk_.local_cycles());
    });
}

std::uint32_t CoreProcess::stream_get() {
    if (!stream_in_)
        protocol("get_ss: no ObjectFifo consumer end at this worker is Port::stream, so its core's input stream "
                 "port is not connected");
    std::uint32_t w = 0;
    stream_op([&] {
        stream_in_->receive(*stream_in_port_, 4, clk_, ps_);
        w = stream_in_port_->take();
        ps_.acted("got a stream word from", &stream_in_->label(), -1, clk_.local_cycles());
    });
    return w;
}

void CoreProcess::add_cycles(std::uint64_t cycles) {
    body_check();
    const auto waits = clk_.waits();
    clk_.advance(cycles, PathCost::BodyCycles);
    busy_ += cycles;
    clk_.maybe_sync();
    resync(waits);
}

// One element load or store of the body (Element::at): core_element_access_cycles of core time,
// taken as add_cycles takes its cycles (a body with no blocking op still syncs within a quantum),
// without add_cycles' memory-guard check, which would cost a scan per element.
void CoreProcess::element_access() {
    const std::uint64_t c = svc_.timing.core_element_access_cycles;
    const auto waits = clk_.waits();
    clk_.advance(c, PathCost::ElementAccess);
    busy_ += c;
    clk_.maybe_sync();
    resync(waits);
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
