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

struct ObserverGuard {
    ElementAccessObserver* prev;
    explicit ObserverGuard(ElementAccessObserver* o) : prev(element_access_observer) { element_access_observer = o; }
    ~ObserverGuard() { element_access_observer = prev; }
};

std::uint64_t truncate(std::uint64_t v, unsigned width) { return width >= 64 ? v : v & ((1ULL << width) - 1); }

unsigned bits_of(DType t) { return static_cast<unsigned>(dtype_bytes(t) * 8); }

// The value of a w-bit slot as an integer of its element type (signed types sign-extended).
std::int64_t as_integer(std::uint64_t bits, DType t) {
    switch (t) {
    case DType::i8: return static_cast<std::int8_t>(bits);
    case DType::i16: return static_cast<std::int16_t>(bits);
    case DType::i32: return static_cast<std::int32_t>(bits);
    default: return static_cast<std::int64_t>(truncate(bits, bits_of(t)));
    }
}

std::uint64_t read_bits(const std::byte* p, std::size_t n) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, std::min<std::size_t>(n, 8)); // little-endian host, as the AIE
    return v;
}

// The inverse of an odd number mod 2^64 (Newton's iteration; each step doubles the correct bits).
constexpr std::uint64_t inverse(std::uint64_t a) {
    std::uint64_t x = a;
    for (int i = 0; i < 6; ++i) x *= 2 - a * x;
    return x;
}

constexpr std::uint64_t kA[2] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL}; // odd, odd: A0-A1 even
constexpr std::uint64_t kB[2] = {0x165667B19E3779F9ULL, 0x27D4EB2F165667C4ULL}; // odd, even: B0-B1 odd
static_assert((kA[0] & 1) && (kA[1] & 1) && ((kB[0] ^ kB[1]) & 1));
static_assert(inverse(kA[0]) * kA[0] == 1 && inverse(kA[1]) * kA[1] == 1);

// B of a chunk: an even multiple per chunk keeps B's parity (the no-common-value property) while
// giving every chunk its own values, so a body that copies one element into another is seen.
constexpr std::uint64_t offset(int r, std::size_t chunk) { return kB[r] + 2 * chunk * 0x632BE59BD9B4E019ULL; }

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
    Op op;
    op.result = ids_.next();
    op.hint = type == "index" ? fmt::format("c{}", v) : fmt::format("c{}_{}", v, type);
    op.text = {lit(fmt::format("arith.constant {} : {}", v, type))};
    op.gen = generic("arith.constant", {}, {fmt::format("value = {} : {}", v, type)}, type);
    return emit(std::move(op)).result;
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
    param_reads_ = 0;
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
            refuse(fmt::format("it writes {} outside a kernel (inline arithmetic on elements has no op in the "
                               "export; do it in a Kernel)",
                               c.type.str()));
}

void BodyRecorder::check_views_consumed() const {
    for (const auto& c : chunks_)
        if (c.viewed && !c.consumed)
            refuse(fmt::format("it reads {} of '{}' through as<T>() for something other than a kernel argument (a "
                               "value read so has no op in the export; read single values with at<T>(i), IRON's "
                               "buf[i], which exports as memref.load)",
                               c.type.str(), c.owner));
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
    // Two runs find where each scalar kernel argument comes from and which accesses store ...
    decisions_.clear();
    argument_names_.clear();
    written_.clear();
    access_owner_.clear();
    store_source_.clear();
    for (int k = 0; k < 2; ++k) {
        after_[k].clear();
        store_loads_[k].clear();
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
    // A store writes a constant (memref.store of arith.constant) only if it wrote the same value
    // under both fills; anything else copies or computes element data, which IRON writes as
    // memref.load ... arith ... memref.store and the export does not.
    store_source_.assign(written_.size(), -1);
    for (std::size_t n = 0; n < written_.size(); ++n) {
        if (!written_[n] || after_[0][n] == after_[1][n]) continue;
        // A copy: a load that held the written value under both fills (the latest such load).
        for (const std::size_t m : store_loads_[0][n])
            if (std::find(store_loads_[1][n].begin(), store_loads_[1][n].end(), m) != store_loads_[1][n].end()) {
                store_source_[n] = static_cast<std::ptrdiff_t>(m);
                break;
            }
        if (store_source_[n] < 0)
            refuse(fmt::format("it stores into '{}' a value computed in the body (inline arithmetic on elements "
                               "or parameters has no op in the export; do it in a Kernel)",
                               access_owner_[n]));
    }
    // ... and two more record the ops with those sources; all four must agree.
    const int start = ids_.next();
    run_into(body, out, Fill::zero, false);
    const int again_start = ids_.next();
    Region again;
    run_into(body, again, Fill::a5, false);
    if (signature(out, start) != signature(again, again_start))
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
}

void BodyRecorder::decide(const std::vector<std::vector<Source>>& a, const std::vector<std::vector<Source>>& b) {
    if (a.size() != b.size())
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
    for (std::size_t n = 0; n < a.size(); ++n) {
        std::vector<Source> both;
        for (const auto& s : a[n])
            if (std::find(b[n].begin(), b[n].end(), s) != b[n].end()) both.push_back(s);
        if (both.empty())
            refuse(fmt::format("{} is computed from element data in the body (only a value read with at<T>(i) and "
                               "passed as it is, or narrowed, has ops in the export: memref.load, arith.trunci)",
                               argument_names_.at(n)));
        // Several loads of the same slot: the latest in scope (candidates() lists loads last-first).
        const auto load =
            std::find_if(both.begin(), both.end(), [](const Source& s) { return s.kind == Source::load; });
        if (load != both.end()) {
            decisions_.push_back(*load);
            continue;
        }
        if (both.size() > 1)
            refuse(fmt::format("{} is one of several values of '{}' read through as<T>() with the same low bits; "
                               "read it with at<T>(i) so the export knows which (memref.load)",
                               argument_names_.at(n), chunks_.at(both[0].index).owner));
        decisions_.push_back(both[0]);
    }
}

std::size_t BodyRecorder::chunk_index(const Element& e) const {
    for (std::size_t i = chunks_.size(); i-- > 0;) {
        const Chunk& c = chunks_[i];
        if (e.data() >= c.begin && e.data() < c.begin + std::max<std::size_t>(c.bytes, 1)) return i;
    }
    refuse(fmt::format("it accesses '{}', memory that is neither an acquired element nor a Buffer among the "
                       "worker's fn_args",
                       e.owner()));
}

bool BodyRecorder::in_scope(const Region* r) const {
    return std::find(regions_.begin(), regions_.end(), r) != regions_.end();
}

void BodyRecorder::viewed(const Element& e) {
    settle();
    Chunk& c = chunks_[chunk_index(e)];
    if (!c.viewed || !in_scope(c.view_region)) c.view_region = regions_.back();
    c.viewed = true;
}

void BodyRecorder::indexed(const Element& e, std::int64_t flat) {
    settle();
    const std::size_t i = chunk_index(e);
    const Chunk& c = chunks_[i];
    const std::size_t es = dtype_bytes(c.type.dtype);
    const std::byte* slot = c.begin + static_cast<std::size_t>(flat) * es;
    pending_ = Pending{i, flat, std::vector<std::byte>(slot, slot + es)};
}

std::vector<int> BodyRecorder::index_constants(const Chunk& c, std::int64_t flat) {
    // IRON indexes a memref with one index per dimension (python/iron/buffer.py __getitem__).
    const auto& shape = c.type.shape;
    std::vector<std::int64_t> idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        idx[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    std::vector<int> values;
    for (auto i : idx) values.push_back(constant(i, "index"));
    return values;
}

int BodyRecorder::emit_load(std::size_t chunk, std::int64_t flat) {
    const Chunk& c = chunks_[chunk];
    const std::vector<int> idx = index_constants(c, flat);
    Op load;
    load.result = ids_.next();
    load.text = {lit("memref.load "), ref(c.value), lit("[")};
    for (std::size_t d = 0; d < idx.size(); ++d) {
        if (d) load.text.push_back(lit(", "));
        load.text.push_back(ref(idx[d]));
    }
    load.text.push_back(lit("] : " + mlir_memref_type(c.type)));
    std::vector<int> operands{c.value};
    operands.insert(operands.end(), idx.begin(), idx.end());
    load.gen = generic("memref.load", std::move(operands), {}, element_type(c.type.dtype));
    return emit(std::move(load)).result;
}

void BodyRecorder::settle() {
    if (!pending_) return;
    const Pending p = std::move(*pending_);
    pending_.reset();
    Chunk& c = chunks_[p.chunk];
    const std::size_t es = dtype_bytes(c.type.dtype);
    const unsigned width = bits_of(c.type.dtype);
    const std::size_t at = static_cast<std::size_t>(p.flat) * es;
    const std::size_t n = access_++;
    const bool changed = std::memcmp(c.begin + at, p.before.data(), es) != 0;
    const std::uint64_t bits = read_bits(c.begin + at, es);
    if (collecting_) {
        const int r = fill_ == Fill::p0 ? 0 : 1;
        if (written_.size() <= n) {
            written_.resize(n + 1, 0);
            access_owner_.resize(n + 1);
            for (int k = 0; k < 2; ++k) {
                after_[k].resize(n + 1, 0);
                store_loads_[k].resize(n + 1);
            }
        }
        written_[n] = static_cast<char>(written_[n] || changed);
        after_[r][n] = bits;
        if (r == 0) access_owner_[n] = c.owner;
        // The loads in scope that hold the value now in the slot (a copy's source), latest first.
        store_loads_[r][n].clear();
        for (std::size_t m = loads_.size(); m-- > 0;)
            if (loads_[m].is_load && loads_[m].dtype == c.type.dtype && in_scope(loads_[m].region) &&
                truncate(loads_[m].bits, width) == truncate(bits, width))
                store_loads_[r][n].push_back(m);
    }
    const bool store = changed || (n < written_.size() && written_[n]);
    // Every access has its entry in loads_ (a store's is no load), so ordinals agree between the
    // runs even where a store shows under one fill only.
    Load entry{p.chunk, p.flat, bits, -1, regions_.back(), c.type.dtype, !store};
    if (!store) {
        // python/iron/buffer.py Buffer.__getitem__ (and the element's memref): memref.load.
        entry.value = emit_load(p.chunk, p.flat);
        loads_.push_back(entry);
        return;
    }
    loads_.push_back(entry);
    std::memcpy(c.expected.data() + at, c.begin + at, es);
    if (collecting_) return; // which kind of store is decided after both collecting runs
    // Buffer.__setitem__: memref.store of a loaded value (out_elem[i] = in_elem[i]: the load's
    // result) or of a constant (the index constants, then the value constant).
    const std::ptrdiff_t from = n < store_source_.size() ? store_source_[n] : -1;
    if (from < 0 && dtype_is_float(c.type.dtype))
        refuse(fmt::format("it stores a floating-point value into '{}' ({}) outside a kernel (only integer "
                           "constants and loaded values are exported as memref.store; do it in a Kernel)",
                           c.owner, c.type.str()));
    const std::vector<int> idx = index_constants(c, p.flat);
    int v = -1;
    if (from >= 0) {
        const auto m = static_cast<std::size_t>(from);
        if (m >= loads_.size() || !loads_[m].is_load || !in_scope(loads_[m].region) ||
            truncate(loads_[m].bits, width) != truncate(bits, width))
            refuse("two iterations of the body differ (control flow that depends on element data or on state the "
                   "body keeps has no static form; IRON traces a body once)");
        v = loads_[m].value;
    } else {
        v = constant(as_integer(bits, c.type.dtype), element_type(c.type.dtype));
    }
    Op op;
    op.text = {lit("memref.store "), ref(v), lit(", "), ref(c.value), lit("[")};
    for (std::size_t d = 0; d < idx.size(); ++d) {
        if (d) op.text.push_back(lit(", "));
        op.text.push_back(ref(idx[d]));
    }
    op.text.push_back(lit("] : " + mlir_memref_type(c.type)));
    std::vector<int> operands{v, c.value};
    operands.insert(operands.end(), idx.begin(), idx.end());
    op.gen = generic("memref.store", std::move(operands));
    emit(std::move(op));
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
    const int first = ids_.next();
    regions_.push_back(&inner);
    body(start);
    settle();
    regions_.pop_back();
    if (stop > start && stop - start > step) {
        Region again;
        const int second = ids_.next();
        regions_.push_back(&again);
        body(start + step);
        settle();
        regions_.pop_back();
        if (signature(inner, first) != signature(again, second))
            refuse(fmt::format("range_({}, {}, {}) body differs between its first two iterations (it uses the loop "
                               "index or element data in a way the export cannot express)",
                               start, stop, step));
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

// A low-level Lock's acquire (Lock.acquire, greater-equal) in a worker body: the exporter has no
// aie.lock for hand-written locks yet, so such a body is refused rather than exported without it.
void BodyRecorder::lock_acquire_ge(int, int) {
    refuse("a low-level Lock acquire in the body (the exporter does not declare hand-written locks)");
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

const BodyRecorder::Chunk& BodyRecorder::chunk_of(const KernelArg& a, const Kernel& k, std::size_t i) {
    for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
        if (a.data < c->begin || a.data >= c->begin + std::max<std::size_t>(c->bytes, 1)) continue;
        if (a.data != c->begin || a.elements != c->type.elements())
            refuse(fmt::format("kernel '{}' argument {} is part of {} (a sub-view has no op in the export)", k.name(),
                               i, c->type.str()));
        c->consumed = true;
        return *c;
    }
    refuse(fmt::format("kernel '{}' argument {} views memory that is neither an acquired element nor a Buffer",
                       k.name(), i));
}

std::vector<BodyRecorder::Source> BodyRecorder::candidates(const Kernel&, std::size_t, const KernelArg& a,
                                                           unsigned width) {
    const std::uint64_t x = truncate(static_cast<std::uint64_t>(a.ivalue), width);
    std::vector<Source> out{Source{Source::constant, a.ivalue, 0, 0}};
    // Loads in scope, latest first; a load as wide as the parameter or wider (then narrowed).
    for (std::size_t n = loads_.size(); n-- > 0;) {
        const Load& l = loads_[n];
        if (!l.is_load || !in_scope(l.region)) continue;
        if (bits_of(l.dtype) >= width && truncate(l.bits, width) == x)
            out.push_back(Source{Source::load, 0, n, 0});
    }
    // Values of as<T>() views in scope: slot k holds k*A + B, so k = (x - B) / A mod 2^w.
    const int r = fill_ == Fill::p0 ? 0 : 1;
    for (std::size_t ci = 0; ci < chunks_.size(); ++ci) {
        Chunk& c = chunks_[ci];
        const unsigned es = bits_of(c.type.dtype);
        if (!c.viewed || !in_scope(c.view_region) || dtype_is_float(c.type.dtype) || es < width) continue;
        const auto slots = static_cast<std::uint64_t>(c.type.elements());
        const std::uint64_t k0 = truncate((x - offset(r, ci)) * inverse(kA[r]), width);
        const std::uint64_t period = width >= 64 ? 0 : 1ULL << width;
        const std::size_t eb = es / 8;
        for (std::uint64_t k = k0; k < slots && out.size() < 64; k += period) {
            const std::byte* p = c.begin + k * eb;
            if (std::memcmp(p, c.expected.data() + k * eb, eb) == 0 && truncate(read_bits(p, eb), width) == x) {
                out.push_back(Source{Source::view_slot, 0, ci, static_cast<std::int64_t>(k)});
                c.consumed = true;
            }
            if (!period) break;
        }
    }
    return out;
}

int BodyRecorder::scalar_value(const Kernel& k, std::size_t i, const KernelArg& a, const std::string& ty,
                               unsigned width) {
    if (collecting_) {
        if (gathered_.size() >= argument_names_.size())
            argument_names_.push_back(fmt::format("kernel '{}' argument {}", k.name(), i));
        gathered_.push_back(candidates(k, i, a, width));
        return constant(a.ivalue, ty); // a placeholder: collecting runs are discarded
    }
    auto differ = [&] {
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
    };
    if (next_decision_ >= decisions_.size()) differ();
    const Source d = decisions_[next_decision_++];
    if (d.kind == Source::constant) {
        if (a.ivalue != d.c) differ();
        return constant(a.ivalue, ty);
    }
    int value = -1;
    DType from{};
    std::uint64_t bits = 0;
    if (d.kind == Source::load) {
        if (d.index >= loads_.size() || !loads_[d.index].is_load || !in_scope(loads_[d.index].region)) differ();
        const Load& l = loads_[d.index];
        value = l.value;
        from = l.dtype;
        bits = l.bits;
    } else {
        if (d.index >= chunks_.size() || d.slot >= chunks_[d.index].type.elements()) differ();
        Chunk& c = chunks_[d.index];
        c.consumed = true;
        from = c.type.dtype;
        bits = read_bits(c.begin + static_cast<std::size_t>(d.slot) * dtype_bytes(from), dtype_bytes(from));
        value = emit_load(d.index, d.slot);
    }
    if (truncate(bits, width) != truncate(static_cast<std::uint64_t>(a.ivalue), width)) differ();
    if (bits_of(from) == width) return value;
    // python: arith.trunci(T.iN(), buf[i]), as color_threshold.py narrows its RTP values.
    Op t;
    t.result = ids_.next();
    t.text = {lit("arith.trunci "), ref(value), lit(fmt::format(" : {} to {}", element_type(from), ty))};
    t.gen = generic("arith.trunci", {value}, {}, ty);
    return emit(std::move(t)).result;
}

void BodyRecorder::record_kernel_call(const Kernel& k, std::span<const KernelArg> args) {
    settle();
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
            if (args[i].is_float || dtype_is_float(t.dtype))
                refuse(fmt::format("kernel '{}' argument {} is a floating-point scalar", k.name(), i));
            values.push_back(scalar_value(k, i, args[i], ty, bits_of(t.dtype)));
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
        op.gen =
            generic("memref.collapse_shape", {c.value},
                    {fmt::format("reassociation = [[{}]]", all_dims(c.type.shape.size()))}, mlir_memref_type(t.tensor));
        values.push_back(emit(std::move(op)).result);
    }
    Op call;
    call.text = {lit(fmt::format("func.call @{}(", k.name()))};
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) call.text.push_back(lit(", "));
        call.text.push_back(ref(values[i]));
    }
    call.text.push_back(lit(fmt::format(") : ({}) -> ()", sig)));
    call.gen = generic("func.call", values, {fmt::format("callee = @{}", k.name())});
    emit(std::move(call));
}

} // namespace npusim::iron::detail::mlir
