#pragma once
// A compute core running its worker body natively. It implements the per-core services the body
// calls: acquire/release on its buffer rings (cumulative acquire, rotating index, lock pairs),
// kernel calls (native run + cost), explicit cycles, buffers and barrier locks.
#include "CascadeLink.hpp"
#include "CoreStreamInput.hpp"
#include "KernelPool.hpp"
#include "MemoryGuard.hpp"
#include "SemaphoreLock.hpp"
#include "SimProcess.hpp"
#include "TileMemory.hpp"
#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Netlist.hpp"
#include "npusim/sim/Simulator.hpp"

#include <optional>
#include <vector>

namespace npusim::sim {

/// What a core process uses of its run.
struct CoreProcessServices {
    RunServices run;
    const std::vector<model::NetBuffer>& buffers;
    TileMemory& memory;
    LockTable& locks;
    bool check_memory = true; ///< SimOptions::check_memory
    bool free_kernels = false; ///< SimOptions::free_kernels
    KernelPool* kernel_pool = nullptr; ///< null: kernels run on the simulating thread
    std::uint64_t kernel_pool_min_nanos = 0; ///< SimOptions::kernel_pool_min_nanos
    /// The host time of each kernel's calls, by kernel name, shared by the run's cores: a kernel is
    /// timed on its first call in the run, not once per core (see KernelTiming).
    std::vector<KernelTiming>* kernel_nanos = nullptr;
};

class CoreProcess final : public SimProcess, public model::CoreServices {
public:
    CoreProcess(const CoreProcessServices& services, const model::CoreProgram& prog);

    std::span<std::byte* const> acquire(int key, int n) override;
    void release(int key, int n) override;
    std::byte* buffer(int key) override;
    void lock_acquire_equal(int key, int value) override;
    void lock_acquire_ge(int key, int value) override;
    void lock_release(int key, int value) override;
    void kernel_call(std::string_view kernel, std::uint64_t cycles, std::span<const model::MemoryView> views,
                     const std::function<void()>& run, const model::KernelWork& work) override;
    void add_cycles(std::uint64_t cycles) override;
    void element_access() override;
    void cascade_put(const void* word) override;
    void cascade_get(void* word) override;
    /// The cascade links of this core (SimEngine wires them from Netlist::cascades).
    void set_cascade_in(CascadeLink* l) { cascade_in_ = l; }
    void set_cascade_out(CascadeLink* l) { cascade_out_ = l; }
    void stream_put(std::uint32_t word) override;
    std::uint32_t stream_get() override;
    std::uint32_t scratchpad_word(int key) override;
    /// The stream-port flows of this core (SimEngine wires them from CoreProgram::stream_out /
    /// stream_in): it sends on `out`, and `in` receives into `port`.
    void set_stream_out(StreamLink* l) { stream_out_ = l; }
    void set_stream_in(StreamLink* l, CoreStreamInput* port) { stream_in_ = l, stream_in_port_ = port; }
    std::string_view worker() const override { return prog_.worker; }
    bool tracing() const override { return false; }
    void resumed() noexcept override;
    void suspending() override;

    CoreStats stats() const;
    ProcessView view() const override;

private:
    struct Ring {
        const model::CoreRing* ring;
        int held = 0;
        int index = 0;
        std::vector<std::byte*> elems; ///< base address of each ring buffer
        std::vector<std::byte*> out; ///< scratch for acquire's result
        std::string label; ///< "fifo 'in' consumer 0"
        std::uint64_t acquired = 0; ///< objects acquired so far
        std::uint64_t released = 0; ///< objects released so far
    };
    void body() override;
    void run_body(); ///< one run of the body; what it throws is a protocol error naming the worker
    std::string error_subject() const override;
    Ring& ring(int key);
    const model::CoreLockRef* lock_of(int key) const;
    void lock_wait(SemaphoreLock& lock, std::string detail, int value, bool equal);
    [[noreturn]] void protocol(const std::string& msg);
    /// Trace: the core asks for a lock (an instant on its track), and the stall that followed.
    /// The checks are inline: without a trace they cost a compare on every lock operation.
    void trace_lock_request(TraceKind kind, std::string_view what, const SemaphoreLock& lock, int amount,
                            std::uint64_t at) {
        if (track_ >= 0) emit_lock_request(kind, what, lock, amount, at);
    }
    void trace_lock_stall(std::string_view what, const SemaphoreLock& lock, int amount, std::uint64_t from,
                          std::uint64_t cycles) {
        if (track_ >= 0 && cycles > 0) emit_lock_stall(what, lock, amount, from, cycles);
    }
    void emit_lock_request(TraceKind kind, std::string_view what, const SemaphoreLock& lock, int amount,
                           std::uint64_t at);
    void emit_lock_stall(std::string_view what, const SemaphoreLock& lock, int amount, std::uint64_t from,
                         std::uint64_t cycles);
    /// MemoryGuard around the body. Invariant while native code runs: the guard's copy equals tile
    /// memory outside the objects the core holds and its Buffers (body_ranges). body_check (on
    /// entry to a call that may wait or run a kernel, before an acquire waits, and after each
    /// iteration) compares outside those; an acquire that does not wait checks only the objects it
    /// takes (acquire_check) and leaves the rest to the next body_check, before the core waits;
    /// after a call that waited, the copy takes what others wrote meanwhile (resync:
    /// MemoryGuard::catch_up, from the TileMemory write log); a release hands the released
    /// objects' bytes to the copy. Before the core waits (suspending) and at a release, it logs
    /// what it may have written, for the guards of other cores that reach the same tiles.
    void body_check();
    [[noreturn]] void body_wrote_outside(const std::string& bad); ///< the body's error, for a MemoryGuard report
    /// After an acquire that did not wait took `need` objects of `r` from `first` on: those objects
    /// (the rest before the core next waits or calls a kernel: body_unchecked_).
    void acquire_check(const Ring& r, int first, int need);
    static void check_before_wait(void* self); ///< SemaphoreLock::acquire_ge's before_wait: body_check
    bool body_unchecked_ = false; ///< body writes since the last body_check were not all checked yet
    std::uint64_t body_clean_at_ = 0; ///< last cycle the body's writes were found clean: a body_check, a kernel's end
    void resync(std::uint64_t waits_before);
    std::vector<MemoryGuard::Range> body_ranges() const;
    /// After a kernel ran (or before it waits on a cascade): it wrote only inside its views.
    void check_kernel_writes(std::string_view kernel, std::span<const model::MemoryView> views, std::uint64_t begin);
    /// One cascade put or get: its time (inside a kernel on the call's cascade cursor, else on the
    /// core's clock) and, if it may block, the memory guard's checks around the wait. `put`: a
    /// put (else a get), for the trace.
    template <class Op>
    void cascade_op(bool put, bool will_block, Op op);

    // Cascade state. Inside a kernel call the words move on the call's own cursor (from its start,
    // one word per cycle, later when a word or a slot comes late); the call then ends at the later
    // of its cost (plus those waits) and the cursor. docs/timing-model.md "Cascade".
    CascadeLink* cascade_in_ = nullptr;
    CascadeLink* cascade_out_ = nullptr;
    struct KernelInProgress {
        std::string_view name;
        std::span<const model::MemoryView> views;
        std::uint64_t begin = 0;
        std::uint64_t cursor = 0; ///< time of the next cascade word
        std::uint64_t stall = 0; ///< cycles its cascade words came late or found no room
        std::uint64_t words = 0; ///< cascade words it moved
    };
    std::optional<KernelInProgress> kernel_;
    std::uint64_t cascade_stall_ = 0; ///< part of stall_ spent waiting on cascades

    // Stream ports (aie_stream ends): one word per put_ms / get_ss, moved on the flow's link in the
    // core's own time (inside a kernel call, before the call's cost is charged).
    /// A stream word's time and, if the link may block, the memory guard's checks around the wait.
    template <class Op>
    void stream_op(Op op);
    StreamLink* stream_out_ = nullptr;
    StreamLink* stream_in_ = nullptr;
    CoreStreamInput* stream_in_port_ = nullptr;
    ChannelTime stream_time_;

    std::optional<MemoryGuard> guard_;
    std::vector<std::vector<std::string>> element_names_; ///< per ring, per object: "fifo 'in' consumer 0 element 1"
    std::vector<std::string> buffer_names_; ///< per CoreBufferRef: "Buffer 'acc'"
    std::vector<std::vector<MemoryGuard::Range>> element_ranges_; ///< per ring, per object
    std::vector<MemoryGuard::Range> buffer_ranges_; ///< per CoreBufferRef
    /// Every object of every ring and every Buffer: to name what a wild write was next to.
    std::vector<MemoryGuard::Range> all_ranges_;
    const std::vector<model::NetBuffer>& buffers_;
    TileMemory& memory_;
    LockTable& locks_;
    const model::CoreProgram& prog_;
    std::vector<Ring> rings_;
    std::uint64_t busy_ = 0;
    std::uint64_t stall_ = 0;
    std::uint64_t kernel_calls_ = 0;
    std::uint64_t pooled_calls_ = 0;
    bool free_kernels_ = false;
    std::uint64_t kernel_cycles_ = 0;
    std::uint64_t macs_ = 0;
    double peak_macs_per_cycle_ = 0;
    std::uint64_t iterations_ = 0;
    std::uint64_t sync_ops_ = 0;
    std::string last_kernel_; ///< for ProcessState::last_object

    // Kernel calls on the pool (SimOptions::kernel_threads).
    /// What a kernel on a pool thread reaches through CoreServices::current(): the worker's name.
    /// The services that act on the core (fifos, locks, cascade, streams, cycles) throw a
    /// ThreadCall, which the core turns into its error when it joins the call.
    class PoolThreadServices final : public model::CoreServices {
    public:
        explicit PoolThreadServices(const CoreProcess& core) : core_(core) {}
        struct ThreadCall {
            std::string message; ///< the protocol error the core reports
            enum class Port { None, CascadePut, CascadeGet, StreamPut, StreamGet } port = Port::None;
        };
        std::span<std::byte* const> acquire(int, int) override { refuse("acquire"); }
        void release(int, int) override { refuse("release"); }
        std::byte* buffer(int) override { refuse("a Buffer"); }
        void lock_acquire_equal(int, int) override { refuse("a lock or barrier acquire"); }
        void lock_acquire_ge(int, int) override { refuse("a lock acquire"); }
        void lock_release(int, int) override { refuse("a lock or barrier release"); }
        void kernel_call(std::string_view, std::uint64_t, std::span<const model::MemoryView>,
                         const std::function<void()>&, const model::KernelWork&) override {
            refuse("another kernel");
        }
        void add_cycles(std::uint64_t) override { refuse("add_cycles"); }
        // A pooled core has no cascade or stream ports: the core reports the port's own error.
        void cascade_put(const void*) override { throw ThreadCall{{}, ThreadCall::Port::CascadePut}; }
        void cascade_get(void*) override { throw ThreadCall{{}, ThreadCall::Port::CascadeGet}; }
        void stream_put(std::uint32_t) override { throw ThreadCall{{}, ThreadCall::Port::StreamPut}; }
        std::uint32_t stream_get() override { throw ThreadCall{{}, ThreadCall::Port::StreamGet}; }
        std::uint32_t scratchpad_word(int) override { refuse("a ScratchpadParameter read"); }
        std::string_view worker() const override { return core_.worker(); }
        bool tracing() const override { return false; }

    private:
        [[noreturn]] void refuse(std::string_view what) const;
        const CoreProcess& core_;
    };
    /// Whether this call goes to the pool, and the host time each kernel's last timed call took.
    bool pooled(const KernelTiming* timing) const;
    /// Whether a call on the simulating thread of the kernel `timing` is about (null: not timed
    /// yet) is timed (see KernelTiming).
    bool time_inline_call(KernelTiming* timing) const;
    void note_kernel_time(std::string_view kernel, std::uint64_t nanos);
    /// The kernel's entry in the shared table; null before its first timed call, or without a pool.
    KernelTiming* timing_of(std::string_view kernel) const;
    KernelPool* pool_ = nullptr;
    std::uint64_t pool_min_nanos_ = 0;
    PoolThreadServices pool_services_{*this};
    std::vector<KernelTiming> own_kernel_nanos_; ///< without a shared table
    std::vector<KernelTiming>* kernel_nanos_ = &own_kernel_nanos_;
};

} // namespace npusim::sim
