#pragma once
// The per-core services a worker body calls at run time (acquire, release, kernel calls, explicit
// cycles). model/ declares the interface, sim/ implements it for simulation, and frontend/
// implements it once more for the resolve-time trace of worker bodies. Worker bodies reach the
// services of the core they run on through CoreServices::current(), so frontend code never
// includes SystemC.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace npusim::model {

/// Memory a kernel call is given (one view argument): the only tile memory it may write.
struct MemoryView {
    std::byte* data = nullptr;
    std::size_t bytes = 0;
    std::string_view name; ///< the fifo or buffer it views, for reports
};

/// What one kernel call computes, for the run summary's achieved-against-peak figures: its
/// multiply-accumulates and the peak of the matrix unit it runs on (model::matmul_mac_peak).
/// Zero for kernels that declare no MACs (element-wise, copies).
struct KernelWork {
    std::uint64_t macs = 0;
    double peak_macs_per_cycle = 0;
};

class CoreServices {
public:
    virtual ~CoreServices() = default;

    /// Make `n` elements of the ring `key` available (cumulative: only the elements not already
    /// held are acquired). Returns the base address of each of the n elements, oldest first.
    virtual std::span<std::byte* const> acquire(int key, int n) = 0;
    /// Release `n` held elements of ring `key` and advance its rotation by n.
    virtual void release(int key, int n) = 0;
    /// Base address of a plain buffer bound to this core.
    virtual std::byte* buffer(int key) = 0;
    /// WorkerRuntimeBarrier and Lock: wait until lock == value (acquire-equal) / add value (release).
    virtual void lock_acquire_equal(int key, int value) = 0;
    /// Lock.acquire: wait until lock >= value, then subtract value (acquire-greater-equal).
    virtual void lock_acquire_ge(int key, int value) = 0;
    virtual void lock_release(int key, int value) = 0;
    /// Run a native kernel: `run` computes on tile memory, within `views`; the core is then busy
    /// for `cycles`, having done `work`.
    virtual void kernel_call(std::string_view kernel, std::uint64_t cycles, std::span<const MemoryView> views,
                             const std::function<void()>& run, const KernelWork& work) = 0;
    /// Cascade (aie.put_cascade / aie.get_cascade; the kernel intrinsics put_mcd / get_scd): put one
    /// 512-bit word (64 bytes at `word`) to the core's cascade output, or get one from its cascade
    /// input into `word`. Both block: a put while the cascade FIFO is full, a get while it is empty.
    virtual void cascade_put(const void* word) = 0;
    virtual void cascade_get(void* word) = 0;
    /// Core stream ports (the kernel intrinsics put_ms / get_ss on an ObjectFifo end given
    /// Port::stream, upstream `aie_stream`): put one 32-bit word on the core's output stream, or get
    /// one from its input stream. Both block on the stream: a put until the receiver has room, a
    /// get until a word arrived.
    virtual void stream_put(std::uint32_t word) = 0;
    virtual std::uint32_t stream_get() = 0;
    /// ScratchpadParameter::read: the first 32-bit word of this core's copy of the parameter `key`
    /// (its __param_ buffer), as the runtime sequence's parameter sync left it.
    virtual std::uint32_t scratchpad_word(int key) = 0;
    /// Charge `cycles` of core time for work of the body that has no op of its own.
    virtual void add_cycles(std::uint64_t cycles) = 0;
    /// The body read or wrote one element value itself (Element::at, IRON's `buf[i]`): the
    /// simulator charges TimingParams::core_element_access_cycles; the traces charge nothing.
    virtual void element_access() {}
    /// Name of the worker whose body is running.
    virtual std::string_view worker() const = 0;
    /// True during the resolve-time trace of a body (kernels are checked but not executed).
    virtual bool tracing() const = 0;
    /// The body runs again after its core waited (other processes ran meanwhile).
    virtual void resumed() noexcept {}
    /// The core is about to wait (other processes will run meanwhile).
    virtual void suspending() {}

    /// The services of the core whose body is running now; nullptr outside a worker body.
    static CoreServices* current() noexcept;
    static void set_current(CoreServices* s) noexcept;
};

} // namespace npusim::model
