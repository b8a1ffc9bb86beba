// CoreProcess (CoreProcess.hpp), part 2: what a core does beyond its locks and buffers - kernel
// calls (timed, pooled on kernel threads, their writes checked), cascade and stream port words,
// cycles a body adds and its element accesses. Part 1, CoreProcess.cpp: the body, its object rings
// and its locks.
#include "CoreProcess.hpp"

#include "npusim/model/LockRules.hpp"
#include "npusim/model/NativeActivity.hpp"
#include "npusim/model/NetlistRelations.hpp"

#include <chrono>
#include <cstring>
#include <fmt/format.h>

namespace npusim::sim {

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

} // namespace npusim::sim
