#pragma once
// BodyRecorder: the services a worker body runs against while it is exported. It writes the ops
// IRON's core_fn emits into an aie.core region (python/iron/dataflow/objectfifo.py
// ObjectFifoHandle.acquire/release, python/iron/kernel.py Kernel.__call__, python/iron/worker.py
// WorkerRuntimeBarrier.wait_for_value/release_with_value, python/helpers/dialects/scf.py _for).
// What has no op (writes through as<T>() spans, a stored value no one-op expression of the loads
// gives, control flow that depends on data) is a DesignError naming the worker and the construct;
// add_cycles, time that has no op, exports as nothing.
//
// Element reads and writes (IRON's `buf[i]` and `buf[i] = v`: memref.load / memref.store) are seen
// through Element's access observer (BodyRecorderElements.cpp). Which load a scalar kernel
// argument came from (BodyRecorderCalls.cpp) and which arith op a store computed
// (ArithInference) are found by running the body over memory filled with two patterns in which
// no constant can equal the same value in both (see fill_bits); two more runs, over zeroed and
// 0xA5-filled memory, replay those decisions and must record the same ops. A range_ body is
// traced for two values of its index, which binds the index in its element accesses (LoopIndex).
#include "export/ArithInference.hpp"
#include "export/LoopIndex.hpp"
#include "export/MlirIr.hpp"

#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/frontend/Element.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/frontend/TensorType.hpp"

#include <deque>
#include <map>
#include <memory>
#include <optional>
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

class BodyRecorder final : public model::CoreServices,
                           public LoopRecorder,
                           public KernelCallRecorder,
                           public ElementAccessObserver {
public:
    BodyRecorder(std::string worker, ValueIds& ids);
    void add_port(int key, RecordedPort port);
    void add_buffer(int key, int value, const TensorType& type, const std::string& name);
    void add_lock(int key, int value);
    /// A ScratchpadParameter the body may read (every one some worker declares in its fn_args:
    /// each is an aiex.scratchpad_parameter of the module).
    void add_param(int key, std::string name, DType dtype);

    /// Record the body (one iteration of the worker's loop) into `out`. The body runs four times,
    /// with element memory filled differently; the runs must record the same ops.
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
    std::uint32_t scratchpad_word(int key) override;
    std::string_view worker() const override { return worker_; }
    bool tracing() const override { return true; }

    void record_loop(std::int64_t start, std::int64_t stop, std::int64_t step,
                     const std::function<void(std::int64_t)>& body) override;
    void record_kernel_call(const Kernel& kernel, std::span<const KernelArg> args) override;

    void viewed(const Element& e) override;
    void indexed(const Element& e, std::int64_t flat) override;

    /// Ops one traced iteration may emit before the body counts as endless (a C++ loop that never
    /// returns, where IRON would have range_).
    static constexpr std::size_t kMaxOps = 200000;

private:
    /// How element memory is filled for one run. p0/p1 give slot k of a w-bit element the value
    /// k*A + B (mod 2^w) with A odd (so slots are told apart by their low bits), A0-A1 even and
    /// B0-B1 odd (so k*A0+B0 == k*A1+B1 has no solution mod any 2^w: a constant never equals one
    /// slot in both runs).
    enum class Fill { p0, p1, zero, a5 };
    struct Chunk {
        std::byte* begin = nullptr;
        std::size_t bytes = 0;
        int value = -1;
        TensorType type;
        std::string owner; ///< fifo or buffer name, for messages
        std::vector<std::byte> expected; ///< contents the body has not written (stores applied)
        bool consumed = false; ///< an as<T>() view of it fed a kernel argument
        bool viewed = false;
        Region* view_region = nullptr;
    };
    /// Per at<T> access in body order: a memref.load (or, is_load false, a store); also each
    /// aiex.read_scratchpad_parameter (chunk == npos).
    struct Load {
        std::size_t chunk = 0;
        std::int64_t slot = 0;
        std::uint64_t bits = 0; ///< the value it read
        int value = -1;
        Region* region = nullptr;
        DType dtype = DType::i32; ///< the type of the value
        bool is_load = true; ///< false: the entry of an access that stored
    };
    struct Param {
        std::string name;
        DType dtype = DType::i32;
    };
    /// Where a scalar kernel argument comes from.
    struct Source {
        enum Kind { constant, load, view_slot } kind = constant;
        std::int64_t c = 0; ///< constant: the value
        std::size_t index = 0; ///< load: ordinal in loads_; view_slot: chunk
        std::int64_t slot = 0; ///< view_slot: the slot
        bool operator==(const Source&) const = default;
    };
    /// A memref.view emitted for a kernel argument: reused while its region is in scope.
    struct View {
        int source = -1;
        std::int64_t shift = 0;
        std::string type;
        const Region* region = nullptr;
        int value = -1;
    };
    struct Pending {
        std::size_t chunk = 0;
        std::int64_t flat = 0;
        std::vector<std::byte> before;
    };

    [[noreturn]] void refuse(const std::string& construct) const;
    void run_into(const std::function<void()>& body, Region& out, Fill fill, bool collecting);
    Op& emit(Op op);
    int constant(std::int64_t v, const std::string& type);
    const Chunk& chunk_of(const KernelArg& a, const Kernel& k, std::size_t i);
    /// The memref.view value of argument `i`, which is part of `c`.
    int sub_view(const Chunk& c, const KernelArg& a, const ArgType& t, const Kernel& k, std::size_t i);
    void check_untouched() const;
    void check_views_consumed() const;
    /// Turns the access at<T> announced last into its memref.load or memref.store, now that the
    /// body has done it (called before every other event).
    void settle();
    void fill_chunk(Chunk& c, std::size_t ordinal) const;
    static std::uint64_t fill_bits(Fill f, std::size_t chunk, std::int64_t slot, unsigned width);
    std::size_t chunk_index(const Element& e) const;
    bool in_scope(const Region* r) const;
    std::vector<int> index_constants(const Chunk& c, std::int64_t flat);
    int emit_load(std::size_t chunk, std::int64_t flat);
    /// The collecting runs' bookkeeping of access n (a store shows in one fill at least).
    void note_access(std::size_t n, const Chunk& c, bool changed, std::uint64_t bits);
    /// After both collecting runs: the expression each store computes (or a refusal).
    void decide_stores();
    /// The value a store writes: its decided expression's ops over the loads, or a constant.
    int stored_value(std::size_t n, const Chunk& c, std::uint64_t bits);
    /// The ordinal of the chunk holding `word` (a 64-byte cascade word inside one element).
    std::size_t cascade_chunk(const void* word, const char* what);
    /// The vector<...> type of a 512-bit cascade word of the chunk's element type.
    static std::string cascade_vector(const Chunk& c);
    std::vector<Source> candidates(const Kernel& k, std::size_t i, const KernelArg& a, unsigned width);
    /// arith.constant v : ty for a kernel's scalar argument; an integer one is registered as a
    /// constant a range_ may bind to its index (then cast to ty, LoopIndex).
    int loop_bindable_constant(std::int64_t v, const std::string& ty);
    int scalar_value(const Kernel& k, std::size_t i, const KernelArg& a, const std::string& ty, unsigned width);
    void decide(const std::vector<std::vector<Source>>& a, const std::vector<std::vector<Source>>& b);

    std::string worker_;
    ValueIds& ids_;
    std::map<int, RecordedPort> ports_;
    std::map<int, Chunk> buffers_;
    std::map<int, int> locks_;
    std::map<int, Param> params_;
    std::size_t param_reads_ = 0; ///< reads in this run (each gets its own fill value)
    std::vector<Region*> regions_; ///< where ops go; back() is the innermost
    std::deque<std::vector<std::byte>> memory_;
    std::deque<std::vector<std::byte*>> spans_;
    std::vector<Chunk> chunks_; ///< buffers, then acquired elements in acquire order
    std::vector<Load> loads_;
    std::vector<View> views_; ///< memref.views of kernel arguments in this run
    std::optional<Pending> pending_;
    Fill fill_ = Fill::zero;
    bool collecting_ = false; ///< p0/p1 runs: gather candidate sources, emit placeholders
    std::vector<std::vector<Source>> gathered_; ///< per scalar argument, in call order (collecting)
    std::vector<Source> decisions_; ///< per scalar argument, in call order
    std::vector<std::string> argument_names_; ///< "kernel 'k' argument i", per scalar argument
    std::size_t next_decision_ = 0;
    // Stores: a write is seen as a slot whose bytes changed, so a value equal to what the slot held
    // is invisible under one fill; p0 and p1 never share a value, so every store shows in one of
    // them. Per at<T> access, in body order:
    std::size_t access_ = 0; ///< accesses settled in this run
    std::vector<char> written_; ///< a collecting run saw the access change its slot
    std::vector<std::uint64_t> after_[2]; ///< the slot's bits after the access, in the p0 and p1 runs
    std::vector<std::string> access_owner_; ///< the accessed memory's name (p0 run)
    /// Per access that stores, in each collecting run: the expressions over the loads (ordinals in
    /// loads_, in scope, same type) that give the value it wrote (ArithInference).
    std::vector<std::vector<StoreExpr>> store_exprs_[2];
    /// Per access: the expression it stores, or none (a constant).
    std::vector<std::optional<StoreExpr>> store_expr_;
    IndexConstants index_consts_; ///< index constants a range_ may bind (LoopIndex)
    CastTypes cast_consts_; ///< of those, a kernel's integer arguments: their type (LoopIndex)
    std::size_t ops_ = 0;
    std::vector<CalledKernel> kernels_;
};

} // namespace npusim::iron::detail::mlir
