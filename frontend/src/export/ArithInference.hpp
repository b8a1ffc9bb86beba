#pragma once
// ArithInference: which arith op produced a value a worker body stores into element memory
// (`c[i] = a[i] + b[i]`), found from the values the body loaded before it. IRON's Python body
// builds the op itself (the mlir python bindings' ArithValue operators: `+` on two i32 values is
// arith.addi, on bf16 arith.addf; a Python int operand becomes an arith.constant of the value's
// type); npusim's C++ body computes natively, so the exporter runs it over memory filled so that
// no two loads hold related values (BodyRecorder's fills) and keeps the expressions that give the
// stored value in both filled runs. The candidates are the one-op forms IRON bodies write: a copy,
// a binary op of two loads, or a load and an integer constant.
#include "npusim/model/DType.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npusim::iron::detail::mlir {

using npusim::DType;

enum class ArithOp {
    copy, ///< the load itself (memref.store of the load's result)
    add,
    sub,
    mul,
    max,
    min,
    band,
    bor,
    bxor,
    add_const, ///< load + constant (arith.addi with an arith.constant)
    mul_const, ///< load * constant
};

/// A stored value as one op over loads (ordinals in the recorder's list of loads) and a constant.
struct StoreExpr {
    ArithOp op = ArithOp::copy;
    std::size_t a = 0; ///< the first operand's load
    std::size_t b = 0; ///< the second operand's load (binary ops of two loads)
    std::uint64_t c = 0; ///< the constant (add_const, mul_const), in the type's width
    bool operator==(const StoreExpr&) const = default;
};

/// A load the store may use: its ordinal and the bits it read.
struct LoadedValue {
    std::size_t ordinal = 0;
    std::uint64_t bits = 0;
};

/// Every expression over `loads` (each of type `t`, in body order) whose value is `stored`, in the
/// order of preference: a copy (the latest load first), then ops of two loads in body order, then
/// a load and a constant. At most `limit` loads (the latest) are combined in pairs.
std::vector<StoreExpr> store_candidates(std::span<const LoadedValue> loads, DType t, std::uint64_t stored,
                                        std::size_t limit = 48);

/// The value of `e` given its operands' bits, in t's width (nullopt for an op t has not).
std::optional<std::uint64_t> evaluate(const StoreExpr& e, DType t, std::uint64_t a, std::uint64_t b);

/// The op's MLIR name for type t: "arith.addi", "arith.addf", "arith.maxsi", ...
std::string arith_op_name(ArithOp op, DType t);

/// Whether `e` has a second load operand.
inline bool has_second_load(const StoreExpr& e) {
    return e.op != ArithOp::copy && e.op != ArithOp::add_const && e.op != ArithOp::mul_const;
}

} // namespace npusim::iron::detail::mlir
