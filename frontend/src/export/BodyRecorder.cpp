#include "export/BodyRecorder.hpp"
#include "export/BodyRecorderUtil.hpp"
#include "export/MlirTypes.hpp"

#include "npusim/frontend/MlirExport.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

namespace npusim::iron::detail::mlir {

using namespace body;

namespace {

struct CurrentGuard {
    model::CoreServices* prev;
    explicit CurrentGuard(model::CoreServices* s) : prev(model::CoreServices::current()) {
        model::CoreServices::set_current(s);
    }
    ~CurrentGuard() { model::CoreServices::set_current(prev); }
};

std::string subview_type(const TensorType& t) { return "!aie.objectfifosubview<" + mlir_memref_type(t) + ">"; }

struct ObserverGuard {
    ElementAccessObserver* prev;
    explicit ObserverGuard(ElementAccessObserver* o) : prev(element_access_observer) { element_access_observer = o; }
    ~ObserverGuard() { element_access_observer = prev; }
};

} // namespace

BodyRecorder::BodyRecorder(std::string worker, ValueIds& ids) : worker_(std::move(worker)), ids_(ids) {}

void BodyRecorder::add_port(int key, RecordedPort port) { ports_[key] = std::move(port); }
void BodyRecorder::add_buffer(int key, int value, const TensorType& type, const std::string& name) {
    auto& mem = memory_.emplace_back(std::max<std::size_t>(type.bytes(), 1));
    Chunk c;
    c.begin = mem.data();
    c.bytes = type.bytes();
    c.value = value;
    c.type = type;
    c.owner = name;
    buffers_[key] = std::move(c);
}
void BodyRecorder::add_lock(int key, int value) { locks_[key] = value; }
void BodyRecorder::add_param(int key, std::string name, DType dtype) { params_[key] = Param{std::move(name), dtype}; }

void BodyRecorder::refuse(const std::string& construct) const {
    throw DesignError(fmt::format("worker '{}': cannot export its body: {}", worker_, construct));
}

Op& BodyRecorder::emit(Op op) {
    if (++ops_ > kMaxOps)
        refuse(fmt::format("one iteration emitted more than {} ops, so the body does not return (a C++ loop that "
                           "never ends, e.g. for (;;) in a while_true=false worker); write it as range_(...) so it "
                           "exports as one scf.for, as IRON's range_(sys.maxsize)",
                           kMaxOps));
    regions_.back()->ops.push_back(std::move(op));
    return regions_.back()->ops.back();
}

int BodyRecorder::constant(std::int64_t v, const std::string& type) {
    return emit(constant_op(ids_.next(), v, type)).result;
}

std::uint64_t BodyRecorder::fill_bits(Fill f, std::size_t chunk, std::int64_t slot, unsigned width) {
    switch (f) {
    case Fill::zero: return 0;
    case Fill::a5: return truncate(0xA5A5A5A5A5A5A5A5ULL, width);
    case Fill::p0:
    case Fill::p1: {
        const int r = f == Fill::p0 ? 0 : 1;
        return truncate(static_cast<std::uint64_t>(slot) * kA[r] + offset(r, chunk), width);
    }
    }
    return 0;
}

void BodyRecorder::fill_chunk(Chunk& c, std::size_t ordinal) const {
    const std::size_t es = dtype_bytes(c.type.dtype);
    for (std::size_t k = 0; es && (k + 1) * es <= c.bytes; ++k) {
        const std::uint64_t v = fill_bits(fill_, ordinal, static_cast<std::int64_t>(k), static_cast<unsigned>(es * 8));
        std::memcpy(c.begin + k * es, &v, es);
    }
    c.expected.assign(c.begin, c.begin + c.bytes);
    c.consumed = c.viewed = false;
    c.view_region = nullptr;
}

void BodyRecorder::run_into(const std::function<void()>& body, Region& out, Fill fill, bool collecting) {
    fill_ = fill;
    collecting_ = collecting;
    chunks_.clear();
    loads_.clear();
    views_.clear();
    param_reads_ = 0;
    index_consts_.clear();
    cast_consts_.clear();
    access_ = 0;
    pending_.reset();
    next_decision_ = 0;
    ops_ = 0;
    for (auto& [key, c] : buffers_) {
        chunks_.push_back(c);
        fill_chunk(chunks_.back(), chunks_.size() - 1);
    }
    regions_ = {&out};
    CurrentGuard guard(this);
    ObserverGuard observe(this);
    try {
        body();
        settle();
    } catch (const DesignError& e) {
        const std::string subject = fmt::format("worker '{}'", worker_);
        if (std::string_view(e.what()).starts_with(subject)) throw;
        throw DesignError(fmt::format("{}: {}", subject, e.what()));
    } catch (const std::exception& e) {
        throw DesignError(fmt::format("worker '{}': body threw while it was exported: {}", worker_, e.what()));
    }
    check_untouched();
    check_views_consumed();
    if (!collecting_ && next_decision_ != decisions_.size())
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
}

void BodyRecorder::check_untouched() const {
    for (const auto& c : chunks_)
        if (std::memcmp(c.begin, c.expected.data(), c.bytes) != 0)
            refuse(fmt::format("it writes {} of '{}' through as<T>() or a pointer (only a value written with "
                               "at<T>(i), IRON's buf[i] = v, has an op in the export: memref.store)",
                               c.type.str(), c.owner));
}

void BodyRecorder::check_views_consumed() const {
    for (const auto& c : chunks_)
        if (c.viewed && !c.consumed)
            refuse(fmt::format("it reads {} of '{}' through as<T>() for something other than a kernel argument (a "
                               "value read so has no op in the export; read single values with at<T>(i), IRON's "
                               "buf[i], which exports as memref.load)",
                               c.type.str(), c.owner));
}

void BodyRecorder::record(const std::function<void()>& body, Region& out) {
    // Two runs find where each scalar kernel argument comes from and what each store computes ...
    decisions_.clear();
    argument_names_.clear();
    written_.clear();
    access_owner_.clear();
    store_expr_.clear();
    for (int k = 0; k < 2; ++k) {
        after_[k].clear();
        store_exprs_[k].clear();
    }
    std::vector<std::vector<Source>> first, second;
    {
        Region scratch;
        gathered_.clear();
        run_into(body, scratch, Fill::p0, true);
        first = std::move(gathered_);
    }
    {
        Region scratch;
        gathered_.clear();
        run_into(body, scratch, Fill::p1, true);
        second = std::move(gathered_);
    }
    decide(first, second);
    decide_stores();
    // ... and two more record the ops with those decisions; all four must agree.
    run_into(body, out, Fill::zero, false);
    Region again;
    run_into(body, again, Fill::a5, false);
    if (region_signature(out) != region_signature(again))
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
}

void BodyRecorder::decide_stores() {
    // A store writes a constant (memref.store of arith.constant) if it wrote the same value under
    // both fills; otherwise the expression over its loads that gave its value under both fills
    // (the first in ArithInference's order of preference: a copy, an op of two loads, a load and
    // a constant), which IRON writes as memref.load ... arith ... memref.store.
    store_expr_.assign(written_.size(), std::nullopt);
    for (std::size_t n = 0; n < written_.size(); ++n) {
        if (!written_[n] || after_[0][n] == after_[1][n]) continue;
        for (const StoreExpr& e : store_exprs_[0][n])
            if (std::find(store_exprs_[1][n].begin(), store_exprs_[1][n].end(), e) != store_exprs_[1][n].end()) {
                store_expr_[n] = e;
                break;
            }
        if (!store_expr_[n])
            refuse(fmt::format("it stores into '{}' a value that no single arith op of the values it loaded gives "
                               "(the export writes a copy, or +, -, *, max, min, &, |, ^ of two loaded values or of "
                               "one and an integer constant; do the rest in a Kernel)",
                               access_owner_[n]));
    }
}

void BodyRecorder::record_loop(std::int64_t start, std::int64_t stop, std::int64_t step,
                               const std::function<void(std::int64_t)>& body) {
    settle();
    // python/helpers/dialects/scf.py _for: scf.for %iv = start to stop step step; the body is traced
    // once whatever the trip count (an empty range still has its region).
    const int lo = constant(start, "index");
    const int hi = constant(stop, "index");
    const int st = constant(step, "index");
    Op loop;
    loop.regions.emplace_back();
    Region& inner = loop.regions.back();
    const int iv = ids_.next();
    inner.args.push_back(iv);
    inner.arg_types.push_back("index");
    const std::uint64_t span = stop > start ? static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start) : 0;
    const std::uint64_t trips = span ? (span - 1) / static_cast<std::uint64_t>(step) + 1 : 0;
    // With three iterations or more the second and third are traced (so that an offset an
    // enclosing loop binds, j * n in j * n + i, is not 0 in the traces of the outer loop) and the
    // fourth (or, with three, the first) checks them; with two, the first and second.
    const std::int64_t t1 = trips >= 3 ? start + step : start;
    auto trace = [&](Region& r, std::int64_t at) {
        const int arg = ids_.next();
        r.args.push_back(arg);
        r.arg_types.push_back("index");
        regions_.push_back(&r);
        body(at);
        settle();
        regions_.pop_back();
        return LoopTrace{&r, arg, at};
    };
    const std::string loop_text = fmt::format("range_({}, {}, {})", start, stop, step);
    auto differs = [&] {
        refuse(loop_text + " body differs between two iterations (it uses the loop index other than in element "
                           "indices, or element data, in a way the export cannot express)");
    };
    regions_.push_back(&inner);
    body(t1);
    settle();
    regions_.pop_back();
    if (trips >= 2) {
        Region again, check;
        const LoopTrace b = trace(again, t1 + step);
        std::optional<LoopTrace> c;
        if (trips >= 3) c = trace(check, trips >= 4 ? t1 + 2 * step : start);
        if (region_signature(inner, &index_consts_) != region_signature(again, &index_consts_) ||
            (c && region_signature(inner, &index_consts_) != region_signature(check, &index_consts_)))
            differs();
        bind_loop_index({&inner, iv, t1}, b, c ? &*c : nullptr, index_consts_, ids_,
                        [&](const std::string& why) { refuse(loop_text + ": " + why); }, &cast_consts_);
        if (region_signature(inner) != region_signature(again)) differs();
    }
    loop.text = {lit("scf.for "), ref(iv), lit(" = "), ref(lo), lit(" to "), ref(hi), lit(" step "), ref(st)};
    loop.gen = generic("scf.for", {lo, hi, st}, {}, {}, "scf.yield");
    emit(std::move(loop));
}

std::span<std::byte* const> BodyRecorder::acquire(int key, int n) {
    settle();
    auto it = ports_.find(key);
    if (it == ports_.end()) refuse("acquire() on a fifo handle that is not among the worker's fn_args");
    const RecordedPort& p = it->second;
    const std::string sv = subview_type(p.elem);
    Op acq;
    acq.result = ids_.next();
    acq.text = {
        lit(fmt::format("aie.objectfifo.acquire @{}({}, {}) : {}", p.fifo, p.producer ? "Produce" : "Consume", n, sv))};
    // ObjectFifoPort: Produce = 0, Consume = 1 (AIEAttrs.td).
    acq.gen = generic("aie.objectfifo.acquire", {},
                      {fmt::format("objFifo_name = @{}", p.fifo), fmt::format("port = {} : i32", p.producer ? 0 : 1),
                       fmt::format("size = {} : i32", n)},
                      sv);
    const int subview = emit(std::move(acq)).result;
    auto& ptrs = spans_.emplace_back();
    for (int i = 0; i < n; ++i) {
        Op access;
        access.result = ids_.next();
        access.text = {lit("aie.objectfifo.subview.access "), ref(subview),
                       lit(fmt::format("[{}] : {} -> {}", i, sv, mlir_memref_type(p.elem)))};
        access.gen = generic("aie.objectfifo.subview.access", {subview}, {fmt::format("index = {} : i32", i)},
                             mlir_memref_type(p.elem));
        const int value = emit(std::move(access)).result;
        auto& mem = memory_.emplace_back(std::max<std::size_t>(p.elem.bytes(), 1));
        Chunk c;
        c.begin = mem.data();
        c.bytes = p.elem.bytes();
        c.value = value;
        c.type = p.elem;
        c.owner = p.fifo;
        chunks_.push_back(std::move(c));
        fill_chunk(chunks_.back(), chunks_.size() - 1);
        ptrs.push_back(mem.data());
    }
    return {ptrs.data(), ptrs.size()};
}

void BodyRecorder::release(int key, int n) {
    settle();
    auto it = ports_.find(key);
    if (it == ports_.end()) refuse("release() on a fifo handle that is not among the worker's fn_args");
    Op op;
    op.text = {lit(fmt::format("aie.objectfifo.release @{}({}, {})", it->second.fifo,
                               it->second.producer ? "Produce" : "Consume", n))};
    op.gen = generic("aie.objectfifo.release", {},
                     {fmt::format("objFifo_name = @{}", it->second.fifo),
                      fmt::format("port = {} : i32", it->second.producer ? 0 : 1), fmt::format("size = {} : i32", n)});
    emit(std::move(op));
}

std::byte* BodyRecorder::buffer(int key) {
    settle();
    auto it = buffers_.find(key);
    if (it == buffers_.end()) refuse("a Buffer that is not among the worker's fn_args");
    return it->second.begin;
}

void BodyRecorder::lock_acquire_equal(int key, int value) {
    settle();
    const int v = constant(value, "i32");
    Op op;
    op.text = {lit("aie.use_lock("), ref(locks_.at(key)), lit(", Acquire, "), ref(v), lit(")")};
    op.gen = generic("aie.use_lock", {locks_.at(key), v}, {"action = 0 : i32"}); // LockAction Acquire
    emit(std::move(op));
}

// A low-level Lock's acquire in a worker body (python/iron/lock.py Lock.acquire):
// aie.use_lock(%lock, AcquireGreaterEqual, %value).
void BodyRecorder::lock_acquire_ge(int key, int value) {
    settle();
    auto it = locks_.find(key);
    if (it == locks_.end()) refuse("a Lock that is not among the worker's fn_args");
    const int v = constant(value, "i32");
    Op op;
    op.text = {lit("aie.use_lock("), ref(it->second), lit(", AcquireGreaterEqual, "), ref(v), lit(")")};
    op.gen = generic("aie.use_lock", {it->second, v}, {"action = 2 : i32"}); // LockAction AcquireGreaterEqual
    emit(std::move(op));
}

void BodyRecorder::lock_release(int key, int value) {
    settle();
    const int v = constant(value, "i32");
    Op op;
    op.text = {lit("aie.use_lock("), ref(locks_.at(key)), lit(", Release, "), ref(v), lit(")")};
    op.gen = generic("aie.use_lock", {locks_.at(key), v}, {"action = 1 : i32"}); // LockAction Release
    emit(std::move(op));
}

void BodyRecorder::kernel_call(std::string_view kernel, std::uint64_t, std::span<const model::MemoryView>,
                               const std::function<void()>&, const model::KernelWork&) {
    refuse(fmt::format("kernel '{}' is called without its arguments (not through npusim::iron::Kernel)", kernel));
}

// add_cycles charges time that has no op of its own (element work is charged per at<T> access):
// it exports as nothing.
void BodyRecorder::add_cycles(std::uint64_t) { settle(); }

void BodyRecorder::stream_put(std::uint32_t) {
    refuse("stream_put in the body (IRON puts stream-port words inside kernels, with put_ms)");
}
// ScratchpadParameter.read() -> python/iron/scratchpad_parameter.py read():
// %v = aiex.read_scratchpad_parameter @name : T (AIEX.td ReadScratchpadParameterOp, attribute
// `parameter`). The value the body sees differs per read and per fill, as a load's does, so a
// kernel argument that passes it on is told from constants and loads; a value used any other way
// (stored, computed with) differs between the recording runs and is refused there.
std::uint32_t BodyRecorder::scratchpad_word(int key) {
    settle();
    const auto it = params_.find(key);
    if (it == params_.end())
        refuse("a ScratchpadParameter that no worker takes in its fn_args (IRON declares only those: "
               "python/iron/program.py)");
    const Param& p = it->second;
    const std::string ty = element_type(p.dtype);
    Op op;
    op.result = ids_.next();
    op.text = {lit(fmt::format("aiex.read_scratchpad_parameter @{} : {}", p.name, ty))};
    op.gen = generic("aiex.read_scratchpad_parameter", {}, {fmt::format("parameter = @{}", p.name)}, ty);
    const int value = emit(std::move(op)).result;
    // The read decodes word >> 2 (ScratchpadParameter::read), so 30 bits reach the body.
    const unsigned width = std::min(bits_of(p.dtype), 30u);
    const std::uint64_t bits = fill_bits(fill_, (std::size_t{1} << 20) + param_reads_++, 0, width);
    loads_.push_back(Load{static_cast<std::size_t>(-1), 0, bits, value, regions_.back(), p.dtype, true});
    return static_cast<std::uint32_t>(bits << 2);
}
std::uint32_t BodyRecorder::stream_get() {
    refuse("stream_get in the body (IRON gets stream-port words inside kernels, with get_ss)");
}

} // namespace npusim::iron::detail::mlir
