// BodyRecorder, kernel calls: func.call with each argument's value (an element or Buffer, collapsed
// when the kernel declares fewer dimensions, or a memref.view of part of one; a scalar from a
// constant, a load or a value read through as<T>(), found by the two collecting runs and narrowed
// with arith.trunci).
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

namespace {

// "0, 1" for collapse_shape's single reassociation group of a rank-r memref.
std::string all_dims(std::size_t rank) {
    std::string s;
    for (std::size_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(d);
    return s;
}

} // namespace

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

const BodyRecorder::Chunk& BodyRecorder::chunk_of(const KernelArg& a, const Kernel& k, std::size_t i) {
    for (auto c = chunks_.rbegin(); c != chunks_.rend(); ++c) {
        if (a.data < c->begin || a.data >= c->begin + std::max<std::size_t>(c->bytes, 1)) continue;
        c->consumed = true;
        return *c;
    }
    refuse(fmt::format("kernel '{}' argument {} views memory that is neither an acquired element nor a Buffer",
                       k.name(), i));
}

// A kernel argument that is part of an element or Buffer: the view aie.extras' memref.view
// (mlir-python-extras dialects/ext/memref.py `view`, which mobilenet's bottlenecks call as
// memref_view(wts.op, [n], shift=k)) gives it, `%c = arith.constant <byte shift> : index` and
// `memref.view %src[%c][] : memref<Nxi8> to memref<...>`. memref.view takes a 1-D i8 source
// (MemRefOps.td ViewOp: MemRefRankOf<[I8], [1]>). The view's type is the parameter's, whose
// element type and count Kernel::check has matched (the recorded argument keeps no shape); one
// view per (source, shift, type) in scope.
int BodyRecorder::sub_view(const Chunk& c, const KernelArg& a, const ArgType& t, const Kernel& k, std::size_t i) {
    const auto shift = static_cast<std::int64_t>(a.data - c.begin);
    const std::string part = fmt::format("kernel '{}' argument {} is part of '{}' ({}, at byte {})", k.name(), i,
                                         c.owner, c.type.str(), shift);
    if (c.type.shape.size() != 1 || c.type.dtype != DType::i8)
        refuse(part + ": the op that gives such a view, memref.view, takes a 1-D i8 source");
    const std::string to = mlir_memref_type(t.tensor);
    for (const auto& v : views_)
        if (v.source == c.value && v.shift == shift && v.type == to && in_scope(v.region)) return v.value;
    const int offset = constant(shift, "index");
    Op op;
    op.result = ids_.next();
    op.hint = "view";
    const std::string from = mlir_memref_type(c.type);
    op.text = {lit("memref.view "), ref(c.value), lit("["), ref(offset), lit(fmt::format("][] : {} to {}", from, to))};
    op.gen = generic("memref.view", {c.value, offset}, {}, to);
    views_.push_back({c.value, shift, to, regions_.back(), emit(std::move(op)).result});
    return views_.back().value;
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

int BodyRecorder::loop_bindable_constant(std::int64_t v, const std::string& ty) {
    const int c = constant(v, ty);
    if (ty.size() > 1 && ty[0] == 'i' && ty != "index") { // a range_ may bind it to its index (LoopIndex)
        index_consts_[c] = v;
        cast_consts_[c] = ty;
    }
    return c;
}

int BodyRecorder::scalar_value(const Kernel& k, std::size_t i, const KernelArg& a, const std::string& ty,
                               unsigned width) {
    if (collecting_) {
        if (gathered_.size() >= argument_names_.size())
            argument_names_.push_back(fmt::format("kernel '{}' argument {}", k.name(), i));
        gathered_.push_back(candidates(k, i, a, width));
        return loop_bindable_constant(a.ivalue, ty); // a placeholder: collecting runs are discarded
    }
    auto differ = [&] {
        refuse("two iterations of the body differ (control flow that depends on element data or on state the "
               "body keeps has no static form; IRON traces a body once)");
    };
    if (next_decision_ >= decisions_.size()) differ();
    const Source d = decisions_[next_decision_++];
    if (d.kind == Source::constant) {
        if (a.ivalue != d.c) differ();
        return loop_bindable_constant(a.ivalue, ty);
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
        if (args[i].data != c.begin || args[i].elements != c.type.elements()) {
            values.push_back(sub_view(c, args[i], t, k, i));
            continue;
        }
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
