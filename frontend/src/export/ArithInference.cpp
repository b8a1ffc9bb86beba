#include "export/ArithInference.hpp"
#include "export/BodyRecorderUtil.hpp"

#include "npusim/kernels/bfloat16.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace npusim::iron::detail::mlir {

namespace {

unsigned width_of(DType t) { return static_cast<unsigned>(npusim::dtype_bytes(t) * 8); }

std::uint64_t mask(std::uint64_t v, unsigned w) { return w >= 64 ? v : v & ((1ULL << w) - 1); }

bool is_float(DType t) { return t == DType::f32 || t == DType::bf16; }
bool is_signed(DType t) { return t == DType::i8 || t == DType::i16 || t == DType::i32; }

std::int64_t sext(std::uint64_t v, unsigned w) {
    const std::uint64_t m = mask(v, w);
    if (w >= 64) return static_cast<std::int64_t>(m);
    const std::uint64_t sign = 1ULL << (w - 1);
    return static_cast<std::int64_t>((m ^ sign) - sign);
}

float to_float(std::uint64_t bits, DType t) {
    if (t == DType::bf16) return bfloat16::to_float(static_cast<std::uint16_t>(bits));
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
}

std::uint64_t from_float(float f, DType t) {
    if (t == DType::bf16) return bfloat16::from_float(f);
    return std::bit_cast<std::uint32_t>(f);
}

constexpr ArithOp kBinary[] = {ArithOp::add, ArithOp::sub,  ArithOp::mul, ArithOp::max,
                               ArithOp::min, ArithOp::band, ArithOp::bor, ArithOp::bxor};

bool commutative(ArithOp op) { return op != ArithOp::sub; }

} // namespace

std::optional<std::uint64_t> evaluate(const StoreExpr& e, DType t, std::uint64_t a, std::uint64_t b) {
    const unsigned w = width_of(t);
    if (e.op == ArithOp::copy) return mask(a, w);
    if (is_float(t)) {
        // arith.addf / subf / mulf on the type: the float result rounded to it (bf16: nearest even,
        // as npusim::bfloat16 and the AIE2 conversion round).
        const float x = to_float(a, t), y = to_float(b, t);
        switch (e.op) {
        case ArithOp::add: return from_float(x + y, t);
        case ArithOp::sub: return from_float(x - y, t);
        case ArithOp::mul: return from_float(x * y, t);
        default: return std::nullopt;
        }
    }
    switch (e.op) {
    case ArithOp::add: return mask(a + b, w);
    case ArithOp::sub: return mask(a - b, w);
    case ArithOp::mul: return mask(a * b, w);
    case ArithOp::max:
        if (is_signed(t)) return mask(static_cast<std::uint64_t>(std::max(sext(a, w), sext(b, w))), w);
        return std::max(mask(a, w), mask(b, w));
    case ArithOp::min:
        if (is_signed(t)) return mask(static_cast<std::uint64_t>(std::min(sext(a, w), sext(b, w))), w);
        return std::min(mask(a, w), mask(b, w));
    case ArithOp::band: return mask(a & b, w);
    case ArithOp::bor: return mask(a | b, w);
    case ArithOp::bxor: return mask(a ^ b, w);
    case ArithOp::add_const: return mask(a + e.c, w);
    case ArithOp::mul_const: return mask(a * e.c, w);
    case ArithOp::copy: break;
    }
    return std::nullopt;
}

std::vector<StoreExpr> store_candidates(std::span<const LoadedValue> loads, DType t, std::uint64_t stored,
                                        std::size_t limit) {
    const unsigned w = width_of(t);
    stored = mask(stored, w);
    std::vector<StoreExpr> out;
    for (std::size_t n = loads.size(); n-- > 0;)
        if (mask(loads[n].bits, w) == stored) out.push_back(StoreExpr{ArithOp::copy, loads[n].ordinal, 0, 0});
    const std::size_t first = loads.size() > limit ? loads.size() - limit : 0;
    for (const ArithOp op : kBinary)
        for (std::size_t i = first; i < loads.size(); ++i)
            for (std::size_t j = commutative(op) ? i : first; j < loads.size(); ++j) {
                const StoreExpr e{op, loads[i].ordinal, loads[j].ordinal, 0};
                const auto v = evaluate(e, t, loads[i].bits, loads[j].bits);
                if (v && *v == stored) out.push_back(e);
            }
    if (is_float(t)) return out;
    for (std::size_t n = loads.size(); n-- > first;) {
        const std::uint64_t a = mask(loads[n].bits, w);
        out.push_back(StoreExpr{ArithOp::add_const, loads[n].ordinal, 0, mask(stored - a, w)});
        if (a & 1) out.push_back(StoreExpr{ArithOp::mul_const, loads[n].ordinal, 0, mask(stored * body::inverse(a), w)});
    }
    return out;
}

std::string arith_op_name(ArithOp op, DType t) {
    const bool f = is_float(t);
    switch (op) {
    case ArithOp::add:
    case ArithOp::add_const: return f ? "arith.addf" : "arith.addi";
    case ArithOp::sub: return f ? "arith.subf" : "arith.subi";
    case ArithOp::mul:
    case ArithOp::mul_const: return f ? "arith.mulf" : "arith.muli";
    case ArithOp::max: return is_signed(t) ? "arith.maxsi" : "arith.maxui";
    case ArithOp::min: return is_signed(t) ? "arith.minsi" : "arith.minui";
    case ArithOp::band: return "arith.andi";
    case ArithOp::bor: return "arith.ori";
    case ArithOp::bxor: return "arith.xori";
    case ArithOp::copy: break;
    }
    return {};
}

} // namespace npusim::iron::detail::mlir
