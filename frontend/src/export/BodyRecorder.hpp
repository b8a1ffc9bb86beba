#pragma once
// BodyRecorder: the services a worker body runs against while it is exported. It writes the ops
// IRON's core_fn emits into an aie.core region (python/iron/dataflow/objectfifo.py
// ObjectFifoHandle.acquire/release, python/iron/kernel.py Kernel.__call__, python/iron/worker.py
// WorkerRuntimeBarrier.wait_for_value/release_with_value, python/helpers/dialects/scf.py _for).
// What has no op (inline arithmetic on element memory, add_cycles, body-level cascade words,
// control flow that depends on data) is a DesignError naming the worker and the construct.
#include "export/MlirIr.hpp"

#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/frontend/TensorType.hpp"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::iron::detail::mlir {

/// One fifo port a body may acquire.
struct RecordedPort {
    std::string fifo;
    bool producer = false;
    TensorType elem; ///< the element type on this side
};

/// A kernel the body called: its func.func declaration, in first-call order.
struct CalledKernel {
    std::string name;
    std::vector<ArgType> types;
};

class BodyRecorder final : public model::CoreServices, public LoopRecorder, public KernelCallRecorder {
public:
    BodyRecorder(std::string worker, ValueIds& ids);
    void add_port(int key, RecordedPort port);
    void add_buffer(int key, int value, const TensorType& type);
    void add_lock(int key, int value);

    /// Record the body (one iteration of the worker's loop) into `out`. The body runs twice, with
    /// element memory filled differently; both runs must record the same ops.
    void record(const std::function<void()>& body, Region& out);
    const std::vector<CalledKernel>& kernels() const { return kernels_; }

    std::span<std::byte* const> acquire(int key, int n) override;
    void release(int key, int n) override;
    std::byte* buffer(int key) override;
    void lock_acquire_equal(int key, int value) override;
    void lock_acquire_ge(int key, int value) override;
    void lock_release(int key, int value) override;
    void kernel_call(std::string_view kernel, std::uint64_t cycles, std::span<const model::MemoryView> views,
                     const std::function<void()>& run, const model::KernelWork& work) override;
    void add_cycles(std::uint64_t cycles) override;
    void cascade_put(const void* word) override;
    void cascade_get(void* word) override;
    void stream_put(std::uint32_t word) override;
    std::uint32_t stream_get() override;
    std::string_view worker() const override { return worker_; }
    bool tracing() const override { return true; }

    void record_loop(std::int64_t count, const std::function<void(std::int64_t)>& body) override;
    void record_kernel_call(const Kernel& kernel, std::span<const KernelArg> args) override;

private:
    struct Chunk {
        std::byte* begin = nullptr;
        std::size_t bytes = 0;
        int value = -1;
        TensorType type;
    };
    [[noreturn]] void refuse(const std::string& construct) const;
    void run_into(const std::function<void()>& body, Region& out);
    Op& emit(Op op);
    int constant(std::int64_t v, const std::string& type);
    const Chunk& chunk_of(const KernelArg& a, const Kernel& k, std::size_t i) const;
    std::string signature(const Region& r, int first_id) const;
    void check_untouched() const;

    std::string worker_;
    ValueIds& ids_;
    std::map<int, RecordedPort> ports_;
    std::map<int, Chunk> buffers_;
    std::map<int, int> locks_;
    std::vector<Region*> regions_; ///< where ops go; back() is the innermost
    std::deque<std::vector<std::byte>> memory_;
    std::deque<std::vector<std::byte*>> spans_;
    std::vector<Chunk> chunks_; ///< acquired elements and buffers, for kernel arguments
    std::byte fill_ = std::byte{0};
    std::vector<CalledKernel> kernels_;
};

} // namespace npusim::iron::detail::mlir
