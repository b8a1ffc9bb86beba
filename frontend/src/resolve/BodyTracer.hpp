#pragma once
// Resolve-time trace of a worker body (IRON traces a core body once, in Python, to emit it).
// The body runs against scratch memory: acquires and releases are counted (largest acquire per
// fifo port, for the compute-tile depth rule) and checked (acquire beyond depth, release of more
// than held); kernel calls check their arguments but do not run.
#include "npusim/model/CoreServices.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npusim::iron::detail {

struct TracedPort {
    std::string describe; ///< "fifo 'in' consumer 0"
    int depth = 2; ///< declared depth (acquire beyond it is an error)
    std::uint64_t elem_bytes = 0;
    int max_acquire = 0; ///< result of the trace
    int held = 0; ///< after the trace: objects still held at the end of the iteration (a sliding window)
    int released = 0; ///< objects released during the traced iteration
    int index = 0;
    std::vector<std::byte> scratch;
    std::vector<std::byte*> ptrs;
};

class BodyTracer final : public model::CoreServices {
public:
    BodyTracer(std::string worker, std::uint64_t op_budget);
    void add_port(int key, TracedPort port);
    void add_buffer(int key, std::uint64_t bytes);
    /// A barrier lock (or, `user_lock`, a hand-written Lock) whose values must lie within
    /// 0..max_value (the lock's state).
    void add_lock(int key, int max_value, std::string name, bool user_lock = false);
    /// A ScratchpadParameter some worker declares (in its fn_args): the body may read it.
    void add_param(int key, std::string name);
    /// The parameters the body read, in first-read order.
    const std::vector<int>& param_reads() const { return param_reads_; }
    /// Run one iteration of the body. Returns false if the op budget ran out (not an error).
    bool run(const std::function<void()>& body);
    const std::map<int, TracedPort>& ports() const { return ports_; }
    /// Per hand-written Lock (key): whether the traced iteration acquired it and released it.
    struct LockUse {
        bool acquired = false, released = false;
    };
    const std::map<int, LockUse>& user_lock_use() const { return lock_use_; }

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

private:
    void count_op();
    TracedPort& port(int key, const char* what);
    std::string worker_;
    std::uint64_t budget_;
    std::uint64_t ops_ = 0;
    std::map<int, TracedPort> ports_;
    std::map<int, std::vector<std::byte>> buffers_;
    struct TracedLock {
        int max_value = 0;
        std::string name;
        bool user_lock = false;
    };
    void check_user_lock_value(const TracedLock& l, const char* call, int value) const;
    std::map<int, TracedLock> locks_;
    std::map<int, LockUse> lock_use_;
    std::map<int, std::string> params_;
    std::vector<int> param_reads_;
};

} // namespace npusim::iron::detail
