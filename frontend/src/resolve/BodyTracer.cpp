#include "resolve/BodyTracer.hpp"

#include "npusim/model/Netlist.hpp"

#include <cstring>

#include "resolve/DepthRule.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/model/NativeActivity.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>

namespace npusim::iron::detail {

namespace {
struct BudgetExhausted {};

struct CurrentGuard {
    model::CoreServices* prev;
    explicit CurrentGuard(model::CoreServices* s) : prev(model::CoreServices::current()) {
        model::CoreServices::set_current(s);
    }
    ~CurrentGuard() { model::CoreServices::set_current(prev); }
};
} // namespace

BodyTracer::BodyTracer(std::string worker, std::uint64_t op_budget) : worker_(std::move(worker)), budget_(op_budget) {}

void BodyTracer::add_port(int key, TracedPort port) {
    port.scratch.assign(static_cast<std::size_t>(port.depth) * std::max<std::uint64_t>(port.elem_bytes, 1),
                        std::byte{0});
    ports_[key] = std::move(port);
}
void BodyTracer::add_buffer(int key, std::uint64_t bytes) {
    buffers_[key].assign(std::max<std::uint64_t>(bytes, 1), std::byte{0});
}
void BodyTracer::add_lock(int key, int max_value, std::string name, bool user_lock) {
    locks_[key] = {max_value, std::move(name), user_lock};
}

// A Lock's use_lock value must fit the lock's state 0..max (AIE2/AIE2P: 6 bits, 0..63).
void BodyTracer::check_user_lock_value(const TracedLock& l, const char* call, int value) const {
    if (value < 0 || value > l.max_value)
        throw DesignError(fmt::format("worker '{}': lock '{}'.{}({}): a lock value must be within 0..{} (the "
                                      "lock's state)",
                                      worker_, l.name, call, value, l.max_value));
}

void BodyTracer::lock_acquire_ge(int key, int value) {
    count_op();
    const auto it = locks_.find(key);
    if (it == locks_.end() || !it->second.user_lock)
        throw DesignError(fmt::format("worker '{}': uses a Lock that is not among the worker's fn_args", worker_));
    check_user_lock_value(it->second, "acquire", value);
    lock_use_[key].acquired = true;
}

bool BodyTracer::run(const std::function<void()>& body) {
    CurrentGuard guard(this);
    const model::NativeActivityScope activity(model::NativeActivity::Phase::Trace, worker_, {}, 0);
    try {
        body();
    } catch (const BudgetExhausted&) {
        return false;
    } catch (const DesignError& e) {
        // A design-API error in the body (a kernel called with the wrong views, an element indexed
        // out of range, ...) names the worker, as at run time, once.
        const std::string subject = fmt::format("worker '{}'", worker_);
        if (std::string_view(e.what()).starts_with(subject)) throw;
        throw DesignError(fmt::format("{}: {}", subject, e.what()));
    } catch (const std::exception& e) {
        throw DesignError(fmt::format("worker '{}': body threw during its resolve-time trace: {}", worker_, e.what()));
    }
    return true;
}

void BodyTracer::count_op() {
    if (++ops_ > budget_) throw BudgetExhausted{};
}

TracedPort& BodyTracer::port(int key, const char* what) {
    auto it = ports_.find(key);
    if (it == ports_.end())
        throw DesignError(
            fmt::format("worker '{}': {}() on a fifo handle that is not among the worker's fn_args", worker_, what));
    return it->second;
}

std::span<std::byte* const> BodyTracer::acquire(int key, int n) {
    count_op();
    auto& p = port(key, "acquire");
    if (!acquire_fits(n, p.depth))
        throw DesignError(
            fmt::format("worker '{}': acquire({}) on {} exceeds its depth {}", worker_, n, p.describe, p.depth));
    p.max_acquire = std::max(p.max_acquire, n);
    p.held = std::max(p.held, n);
    p.ptrs.clear();
    for (int k = 0; k < n; ++k)
        p.ptrs.push_back(p.scratch.data() + static_cast<std::size_t>((p.index + k) % p.depth) * p.elem_bytes);
    return {p.ptrs.data(), p.ptrs.size()};
}

void BodyTracer::release(int key, int n) {
    count_op();
    auto& p = port(key, "release");
    if (n > p.held)
        throw DesignError(fmt::format("worker '{}': release({}) on {} but only {} element(s) are held", worker_, n,
                                      p.describe, p.held));
    p.held -= n;
    p.released += n;
    p.index = (p.index + n) % p.depth;
}

std::byte* BodyTracer::buffer(int key) {
    count_op();
    auto it = buffers_.find(key);
    if (it == buffers_.end())
        throw DesignError(fmt::format("worker '{}': uses a Buffer that is not among the worker's fn_args", worker_));
    return it->second.data();
}

void BodyTracer::lock_acquire_equal(int key, int value) {
    count_op();
    const auto it = locks_.find(key);
    if (it == locks_.end())
        throw DesignError(fmt::format("worker '{}': uses a barrier that is not among the worker's fn_args", worker_));
    if (it->second.user_lock) {
        lock_use_[key].acquired = true;
        return check_user_lock_value(it->second, "acquire_exact", value);
    }
    // A lock holds 0..max (AIE2/AIE2P: 6 bits, 0..63): a value beyond it cannot be waited for.
    if (value < 0 || value > it->second.max_value)
        throw DesignError(fmt::format("worker '{}': {}.wait_for_value({}): a barrier's value must be within 0..{} "
                                      "(the lock's state)",
                                      worker_, it->second.name, value, it->second.max_value));
}
void BodyTracer::lock_release(int key, int value) {
    count_op();
    const auto it = locks_.find(key);
    if (it == locks_.end())
        throw DesignError(fmt::format("worker '{}': uses a barrier that is not among the worker's fn_args", worker_));
    if (it->second.user_lock) {
        lock_use_[key].released = true;
        return check_user_lock_value(it->second, "release", value);
    }
    if (value < 0 || value > it->second.max_value)
        throw DesignError(fmt::format("worker '{}': {}.release_with_value({}): a barrier's value must be within "
                                      "0..{} (the lock's state)",
                                      worker_, it->second.name, value, it->second.max_value));
}

void BodyTracer::kernel_call(std::string_view, std::uint64_t, std::span<const model::MemoryView>,
                             const std::function<void()>&, const model::KernelWork&) {
    count_op();
}
void BodyTracer::add_cycles(std::uint64_t) { count_op(); }

// Traced like a body's other calls: a put goes nowhere, a get reads zeros (kernels do not run
// during the trace, so only a body's own cascade calls arrive here).
void BodyTracer::cascade_put(const void*) { count_op(); }
void BodyTracer::cascade_get(void* word) {
    count_op();
    std::memset(word, 0, model::kCascadeWordBytes);
}
// Stream-port words likewise: a put goes nowhere, a get reads zero.
void BodyTracer::stream_put(std::uint32_t) { count_op(); }
std::uint32_t BodyTracer::stream_get() {
    count_op();
    return 0;
}

void BodyTracer::add_param(int key, std::string name) { params_[key] = std::move(name); }

// A read of a parameter no worker declares is the verifier's "references unknown parameter"
// (AIEXDialect.cpp ReadScratchpadParameterOp::verify): IRON declares a parameter module-wide only
// for the ScratchpadParameters among some worker's fn_args (python/iron/program.py). The trace
// reads 0: the value is the host's, set per run.
std::uint32_t BodyTracer::scratchpad_word(int key) {
    count_op();
    if (!params_.count(key))
        throw DesignError(fmt::format("worker '{}': reads a ScratchpadParameter that no worker takes in its fn_args "
                                      "('aiex.read_scratchpad_parameter' op references unknown parameter); pass it "
                                      "in the fn_args of the workers that read it",
                                      worker_));
    if (std::find(param_reads_.begin(), param_reads_.end(), key) == param_reads_.end()) param_reads_.push_back(key);
    return 0;
}

} // namespace npusim::iron::detail
