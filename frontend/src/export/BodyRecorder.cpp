#include "export/BodyRecorder.hpp"
#include "export/MlirTypes.hpp"

#include "npusim/frontend/MlirExport.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

namespace npusim::iron::detail::mlir {

namespace {

struct CurrentGuard {
    model::CoreServices* prev;
    explicit CurrentGuard(model::CoreServices* s) : prev(model::CoreServices::current()) {
        model::CoreServices::set_current(s);
    }
    ~CurrentGuard() { model::CoreServices::set_current(prev); }
};

std::string subview_type(const TensorType& t) { return "!aie.objectfifosubview<" + mlir_memref_type(t) + ">"; }

// "0, 1" for collapse_shape's single reassociation group of a rank-r memref.
std::string all_dims(std::size_t rank) {
    std::string s;
    for (std::size_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(d);
    return s;
}

} // namespace

BodyRecorder::BodyRecorder(std::string worker, ValueIds& ids) : worker_(std::move(worker)), ids_(ids) {}

void BodyRecorder::add_port(int key, RecordedPort port) { ports_[key] = std::move(port); }
void BodyRecorder::add_buffer(int key, int value, const TensorType& type) {
    auto& mem = memory_.emplace_back(std::max<std::size_t>(type.bytes(), 1));
    buffers_[key] = Chunk{mem.data(), type.bytes(), value, type};
}
void BodyRecorder::add_lock(int key, int value) { locks_[key] = value; }

void BodyRecorder::refuse(const std::string& construct) const {
    throw DesignError(fmt::format("worker '{}': cannot export its body: {}", worker_, construct));
}

Op& BodyRecorder::emit(Op op) {
    regions_.back()->ops.push_back(std::move(op));
    return regions_.back()->ops.back();
}

int BodyRecorder::constant(std::int64_t v, const std::string& type) {
    Op op;
    op.result = ids_.next();
    op.hint = type == "index" ? fmt::format("c{}", v) : fmt::format("c{}_{}", v, type);
    op.text = {lit(fmt::format("arith.constant {} : {}", v, type))};
    return emit(std::move(op)).result;
}

void BodyRecorder::run_into(const std::function<void()>& body, Region& out) {
    chunks_.clear();
    for (auto& [key, c] : buffers_) {
        std::memset(c.begin, static_cast<int>(fill_), std::max<std::size_t>(c.bytes, 1));
        chunks_.push_back(c);
    }
    regions_ = {&out};
    CurrentGuard guard(this);
    try {
        body();
    } catch (const DesignError& e) {
        const std::string subject = fmt::format("worker '{}'", worker_);
        if (std::string_view(e.what()).starts_with(subject)) throw;
        throw DesignError(fmt::format("{}: {}", subject, e.what()));
    } catch (const std::exception& e) {
        throw DesignError(fmt::format("worker '{}': body threw while it was exported: {}", worker_, e.what()));
    }
    check_untouched();
}

void BodyRecorder::check_untouched() const {
    for (const auto& c : chunks_)
        for (std::size_t i = 0; i < c.bytes; ++i)
            if (c.begin[i] != fill_)
                refuse(fmt::format("it writes {} outside a kernel (inline arithmetic on elements has no op in the "
                                   "export; do it in a Kernel)",
                                   c.type.str()));
}

std::string BodyRecorder::signature(const Region& r, int first_id) const {
    auto v = [&](int id) { return id >= first_id ? fmt::format("v{}", id - first_id) : fmt::format("o{}", id); };
    std::string s;
    for (const auto& op : r.ops) {
        s += op.result >= 0 ? v(op.result) + "=" : std::string();
        for (const auto& p : op.text) s += p.value >= 0 ? v(p.value) : p.text;
        for (const auto& nested : op.regions) s += "{" + signature(nested, first_id) + "}";
        for (const auto& p : op.tail) s += p.value >= 0 ? v(p.value) : p.text;
        s += "\n";
    }
    return s;
}

void BodyRecorder::record(const std::function<void()>& body, Region& out) {
    const int first = ids_.next();
    fill_ = std::byte{0};
    run_into(body, out);
    const int second = ids_.next();
    Region again;
    fill_ = std::byte{0xA5};
    run_into(body, again);
    if (signature(out, first) != signature(again, second))
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
}

void BodyRecorder::record_loop(std::int64_t count, const std::function<void(std::int64_t)>& body) {
    if (count < 0) refuse(fmt::format("range_({}) with a negative count", count));
    const int lo = constant(0, "index");
    const int hi = constant(count, "index");
    const int step = constant(1, "index");
    Op loop;
    loop.regions.emplace_back();
    Region& inner = loop.regions.back();
    const int iv = ids_.next();
    inner.args.push_back(iv);
    const int first = ids_.next();
    regions_.push_back(&inner);
    body(0);
    regions_.pop_back();
    if (count > 1) {
        Region again;
        const int second = ids_.next();
        regions_.push_back(&again);
        body(1);
        regions_.pop_back();
        if (signature(inner, first) != signature(again, second))
            refuse(fmt::format("range_({}) body differs between iterations 0 and 1 (it uses the loop index or "
                               "element data in a way the export cannot express)",
                               count));
    }
    loop.text = {lit("scf.for "), ref(iv), lit(" = "), ref(lo), lit(" to "), ref(hi), lit(" step "), ref(step)};
    emit(std::move(loop));
}

std::span<std::byte* const> BodyRecorder::acquire(int key, int n) {
    auto it = ports_.find(key);
    if (it == ports_.end()) refuse("acquire() on a fifo handle that is not among the worker's fn_args");
    const RecordedPort& p = it->second;
    const std::string sv = subview_type(p.elem);
    Op acq;
    acq.result = ids_.next();
    acq.text = {
        lit(fmt::format("aie.objectfifo.acquire @{}({}, {}) : {}", p.fifo, p.producer ? "Produce" : "Consume", n, sv))};
    const int subview = emit(std::move(acq)).result;
    auto& ptrs = spans_.emplace_back();
    for (int i = 0; i < n; ++i) {
        Op access;
        access.result = ids_.next();
        access.text = {lit("aie.objectfifo.subview.access "), ref(subview),
                       lit(fmt::format("[{}] : {} -> {}", i, sv, mlir_memref_type(p.elem)))};
        const int value = emit(std::move(access)).result;
        auto& mem = memory_.emplace_back(std::max<std::size_t>(p.elem.bytes(), 1), fill_);
        chunks_.push_back(Chunk{mem.data(), p.elem.bytes(), value, p.elem});
        ptrs.push_back(mem.data());
    }
    return {ptrs.data(), ptrs.size()};
}

void BodyRecorder::release(int key, int n) {
    auto it = ports_.find(key);
    if (it == ports_.end()) refuse("release() on a fifo handle that is not among the worker's fn_args");
    Op op;
    op.text = {lit(fmt::format("aie.objectfifo.release @{}({}, {})", it->second.fifo,
                               it->second.producer ? "Produce" : "Consume", n))};
    emit(std::move(op));
}

std::byte* BodyRecorder::buffer(int key) {
    auto it = buffers_.find(key);
    if (it == buffers_.end()) refuse("a Buffer that is not among the worker's fn_args");
    return it->second.begin;
}

void BodyRecorder::lock_acquire_equal(int key, int value) {
    const int v = constant(value, "i32");
    Op op;
    op.text = {lit("aie.use_lock("), ref(locks_.at(key)), lit(", Acquire, "), ref(v), lit(")")};
    emit(std::move(op));
}

// A low-level Lock's acquire (Lock.acquire, greater-equal) in a worker body: the exporter has no
// aie.lock for hand-written locks yet, so such a body is refused rather than exported without it.
void BodyRecorder::lock_acquire_ge(int, int) {
    refuse("a low-level Lock acquire in the body (the exporter does not declare hand-written locks)");
}

void BodyRecorder::lock_release(int key, int value) {
    const int v = constant(value, "i32");
    Op op;
    op.text = {lit("aie.use_lock("), ref(locks_.at(key)), lit(", Release, "), ref(v), lit(")")};
    emit(std::move(op));
}

void BodyRecorder::kernel_call(std::string_view kernel, std::uint64_t, std::span<const model::MemoryView>,
                               const std::function<void()>&, const model::KernelWork&) {
    refuse(fmt::format("kernel '{}' is called without its arguments (not through npusim::iron::Kernel)", kernel));
}
void BodyRecorder::add_cycles(std::uint64_t cycles) {
    refuse(fmt::format("add_cycles({}) stands for work the body does itself, which has no op in the export", cycles));
}
void BodyRecorder::cascade_put(const void*) {
    refuse("cascade_put in the body (IRON puts cascade words inside kernels)");
}
void BodyRecorder::cascade_get(void*) { refuse("cascade_get in the body (IRON gets cascade words inside kernels)"); }
void BodyRecorder::stream_put(std::uint32_t) {
    refuse("stream_put in the body (IRON puts stream-port words inside kernels, with put_ms)");
}
std::uint32_t BodyRecorder::stream_get() {
    refuse("stream_get in the body (IRON gets stream-port words inside kernels, with get_ss)");
}

const BodyRecorder::Chunk& BodyRecorder::chunk_of(const KernelArg& a, const Kernel& k, std::size_t i) const {
    for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
        if (a.data < c->begin || a.data >= c->begin + std::max<std::size_t>(c->bytes, 1)) continue;
        if (a.data != c->begin || a.elements != c->type.elements())
            refuse(fmt::format("kernel '{}' argument {} is part of {} (a sub-view has no op in the export)", k.name(),
                               i, c->type.str()));
        return *c;
    }
    refuse(fmt::format("kernel '{}' argument {} views memory that is neither an acquired element nor a Buffer",
                       k.name(), i));
}

void BodyRecorder::record_kernel_call(const Kernel& k, std::span<const KernelArg> args) {
    const auto& types = k.arg_types();
    if (std::none_of(kernels_.begin(), kernels_.end(), [&](const CalledKernel& c) { return c.name == k.name(); }))
        kernels_.push_back({k.name(), types});
    std::vector<int> values;
    std::string sig;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const ArgType& t = types[i];
        const std::string ty = t.is_tensor ? mlir_memref_type(t.tensor) : element_type(t.dtype);
        sig += (i ? ", " : "") + ty;
        if (!args[i].is_view) {
            if (args[i].is_float || dtype_name(t.dtype) == std::string_view("f32") || t.dtype == DType::bf16)
                refuse(fmt::format("kernel '{}' argument {} is a floating-point scalar", k.name(), i));
            values.push_back(constant(args[i].ivalue, ty));
            continue;
        }
        const Chunk& c = chunk_of(args[i], k, i);
        if (c.type.shape == t.tensor.shape) {
            values.push_back(c.value);
            continue;
        }
        if (t.tensor.shape.size() != 1)
            refuse(
                fmt::format("kernel '{}' argument {} is {} where {} is declared", k.name(), i, c.type.str(), t.str()));
        // An N-D element passed to a 1-D parameter: IRON's Kernel.__call__ collapses it
        // (python/iron/kernel.py, memref.collapse_shape).
        Op op;
        op.result = ids_.next();
        op.hint = "collapse_shape";
        op.text = {lit("memref.collapse_shape "), ref(c.value),
                   lit(fmt::format(" [[{}]] : {} into {}", all_dims(c.type.shape.size()), mlir_memref_type(c.type),
                                   mlir_memref_type(t.tensor)))};
        values.push_back(emit(std::move(op)).result);
    }
    Op call;
    call.text = {lit(fmt::format("func.call @{}(", k.name()))};
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) call.text.push_back(lit(", "));
        call.text.push_back(ref(values[i]));
    }
    call.text.push_back(lit(fmt::format(") : ({}) -> ()", sig)));
    emit(std::move(call));
}

} // namespace npusim::iron::detail::mlir
