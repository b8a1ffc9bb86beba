// BodyRecorder, element accesses: at<T> reads and writes (memref.load / memref.store, the arith op
// a store computed), as<T>() views, and cascade words moved between element memory and the core's
// cascade ports (aie.get_cascade / aie.put_cascade with vector.store / vector.load).
#include "export/BodyRecorder.hpp"
#include "export/BodyRecorderUtil.hpp"
#include "export/MlirTypes.hpp"
#include "npusim/frontend/MlirExport.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace npusim::iron::detail::mlir {

using namespace body;

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
    for (auto i : idx) {
        values.push_back(constant(i, "index"));
        index_consts_[values.back()] = i; // a range_ may bind it to its index (LoopIndex)
    }
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
    const std::size_t at = static_cast<std::size_t>(p.flat) * es;
    const std::size_t n = access_++;
    const bool changed = std::memcmp(c.begin + at, p.before.data(), es) != 0;
    const std::uint64_t bits = read_bits(c.begin + at, es);
    if (collecting_) note_access(n, c, changed, bits);
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
    if (collecting_) return; // what each store computes is decided after both collecting runs
    // Buffer.__setitem__: Python evaluates the value before the assignment, so a computed value's
    // ops (its arith op over earlier loads) come first, then the index constants and memref.store;
    // a constant value is made by __setitem__ itself, after the index constants.
    const bool computed = n < store_expr_.size() && store_expr_[n].has_value();
    if (!computed && dtype_is_float(c.type.dtype))
        refuse(fmt::format("it stores a floating-point constant into '{}' ({}) outside a kernel (only integer "
                           "constants and values computed from loads are exported as memref.store; do it in a "
                           "Kernel)",
                           c.owner, c.type.str()));
    int v = computed ? stored_value(n, c, bits) : -1;
    const std::vector<int> idx = index_constants(c, p.flat);
    if (!computed) v = constant(as_integer(bits, c.type.dtype), element_type(c.type.dtype));
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

void BodyRecorder::note_access(std::size_t n, const Chunk& c, bool changed, std::uint64_t bits) {
    const int r = fill_ == Fill::p0 ? 0 : 1;
    if (written_.size() <= n) {
        written_.resize(n + 1, 0);
        access_owner_.resize(n + 1);
        for (int k = 0; k < 2; ++k) {
            after_[k].resize(n + 1, 0);
            store_exprs_[k].resize(n + 1);
        }
    }
    written_[n] = static_cast<char>(written_[n] || changed);
    after_[r][n] = bits;
    if (r == 0) access_owner_[n] = c.owner;
    // The expressions over the loads in scope (same type) that give the value now in the slot. A
    // store may show under one fill only (it wrote what the slot held), so every access gets them.
    std::vector<LoadedValue> in;
    for (std::size_t m = 0; m < loads_.size(); ++m)
        if (loads_[m].is_load && loads_[m].dtype == c.type.dtype && in_scope(loads_[m].region))
            in.push_back({m, loads_[m].bits});
    store_exprs_[r][n] = store_candidates(in, c.type.dtype, bits);
}

int BodyRecorder::stored_value(std::size_t n, const Chunk& c, std::uint64_t bits) {
    const StoreExpr e = *store_expr_[n];
    const DType t = c.type.dtype;
    auto operand = [&](std::size_t m) -> const Load& {
        if (m >= loads_.size() || !loads_[m].is_load || !in_scope(loads_[m].region) || loads_[m].dtype != t)
            refuse("two iterations of the body differ (control flow that depends on element data or on state the "
                   "body keeps has no static form; IRON traces a body once)");
        return loads_[m];
    };
    const Load& a = operand(e.a);
    const Load* b = has_second_load(e) ? &operand(e.b) : nullptr;
    const auto v = evaluate(e, t, a.bits, b ? b->bits : 0);
    if (!v || *v != truncate(bits, bits_of(t)))
        refuse(fmt::format("a store into '{}' computes its value differently from one run to the next (control "
                           "flow that depends on element data has no static form; IRON traces a body once)",
                           c.owner));
    if (e.op == ArithOp::copy) return a.value; // out_elem[i] = in_elem[i]: memref.store of the load
    // ArithValue's operators (mlir python bindings): `x + y` is arith.addi/addf of the two values,
    // `x + 1` first makes the integer an arith.constant of x's type.
    const std::string ty = element_type(t);
    const int rhs = b ? b->value : constant(as_integer(e.c, t), ty);
    const std::string name = arith_op_name(e.op, t);
    Op op;
    op.result = ids_.next();
    op.text = {lit(name + " "), ref(a.value), lit(", "), ref(rhs), lit(" : " + ty)};
    op.gen = generic(name, {a.value, rhs}, {}, ty);
    return emit(std::move(op)).result;
}

std::size_t BodyRecorder::cascade_chunk(const void* word, const char* what) {
    const auto* p = static_cast<const std::byte*>(word);
    for (std::size_t i = chunks_.size(); i-- > 0;) {
        const Chunk& c = chunks_[i];
        if (p < c.begin || p >= c.begin + std::max<std::size_t>(c.bytes, 1)) continue;
        const std::size_t es = dtype_bytes(c.type.dtype);
        if (p + 64 > c.begin + c.bytes || (p - c.begin) % static_cast<std::ptrdiff_t>(es) != 0)
            refuse(fmt::format("{} moves a 64-byte word that does not lie within {} of '{}' at a value boundary",
                               what, c.type.str(), c.owner));
        return i;
    }
    refuse(fmt::format("{} moves a word that is neither in an acquired element nor in a Buffer among the worker's "
                       "fn_args",
                       what));
}

std::string BodyRecorder::cascade_vector(const Chunk& c) {
    return fmt::format("vector<{}x{}>", 64 / dtype_bytes(c.type.dtype), element_type(c.type.dtype));
}

// A cascade word in the body: AIE's GetCascadeOp / PutCascadeOp (AIEOps.td, "aie.get_cascade() :
// T", "aie.put_cascade(%v : T)") carry a 512-bit value, stored into or loaded from the element
// with vector.store / vector.load (the word's values as a vector of the element type).
void BodyRecorder::cascade_get(void* word) {
    settle();
    const std::size_t i = cascade_chunk(word, "cascade_get");
    const Chunk& c = chunks_[i];
    const std::string vec = cascade_vector(c);
    Op get;
    get.result = ids_.next();
    get.text = {lit("aie.get_cascade() : " + vec)};
    get.gen = generic("aie.get_cascade", {}, {}, vec);
    const int v = emit(std::move(get)).result;
    const auto flat = (static_cast<const std::byte*>(word) - c.begin) / static_cast<std::ptrdiff_t>(dtype_bytes(c.type.dtype));
    const std::vector<int> idx = index_constants(c, flat);
    Op st;
    st.text = {lit("vector.store "), ref(v), lit(", "), ref(c.value), lit("[")};
    for (std::size_t d = 0; d < idx.size(); ++d) {
        if (d) st.text.push_back(lit(", "));
        st.text.push_back(ref(idx[d]));
    }
    st.text.push_back(lit("] : " + mlir_memref_type(c.type) + ", " + vec));
    std::vector<int> operands{v, c.value};
    operands.insert(operands.end(), idx.begin(), idx.end());
    st.gen = generic("vector.store", std::move(operands));
    emit(std::move(st));
    // The recorder leaves the word's bytes as they were filled: they are the cascade's, not a
    // store of the body's, and check_untouched sees no write.
}

void BodyRecorder::cascade_put(const void* word) {
    settle();
    const std::size_t i = cascade_chunk(word, "cascade_put");
    const Chunk& c = chunks_[i];
    const std::string vec = cascade_vector(c);
    const auto flat = (static_cast<const std::byte*>(word) - c.begin) / static_cast<std::ptrdiff_t>(dtype_bytes(c.type.dtype));
    const std::vector<int> idx = index_constants(c, flat);
    Op ld;
    ld.result = ids_.next();
    ld.text = {lit("vector.load "), ref(c.value), lit("[")};
    for (std::size_t d = 0; d < idx.size(); ++d) {
        if (d) ld.text.push_back(lit(", "));
        ld.text.push_back(ref(idx[d]));
    }
    ld.text.push_back(lit("] : " + mlir_memref_type(c.type) + ", " + vec));
    std::vector<int> operands{c.value};
    operands.insert(operands.end(), idx.begin(), idx.end());
    ld.gen = generic("vector.load", std::move(operands), {}, vec);
    const int v = emit(std::move(ld)).result;
    Op put;
    put.text = {lit("aie.put_cascade("), ref(v), lit(" : " + vec + ")")};
    put.gen = generic("aie.put_cascade", {v});
    emit(std::move(put));
}

} // namespace npusim::iron::detail::mlir
