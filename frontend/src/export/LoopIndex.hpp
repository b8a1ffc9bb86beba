#pragma once
// LoopIndex: a range_ loop's index in the element accesses of its body, as IRON writes them. In
// IRON the loop variable of `for i in range_(n)` is an MLIR index value, so `buf[i]` is
// `memref.load %buf[%arg]` and `buf[j * n + i]` computes its index with arith.muli / arith.addi
// on index values (python/iron/buffer.py __getitem__, python/helpers/dialects/scf.py _for). A C++
// body gets a plain integer, so the exporter traces the loop body for two values of the index and
// compares: an index constant that differs between the two traces by a multiple of the index's
// step is coef * iv + offset and becomes those ops; the offset stays a constant the enclosing
// loop can bind in turn (j * n + i: the inner loop binds i, the outer one j).
#include "export/MlirIr.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace npusim::iron::detail::mlir {

/// The arith.constant : index ops the recorder emitted as memref indices (and offsets bound by an
/// inner loop), by value id: the constants a loop may bind to its index.
using IndexConstants = std::map<int, std::int64_t>;

/// Of those constants, the ones of an integer type other than index (a kernel's scalar argument),
/// by value id: the type. Bound to a loop index, such a constant becomes the index expression and
/// an `arith.index_cast ... : index to <type>`, as IRON casts a range_ index passed to a kernel's
/// integer parameter (python/helpers/dialects/func.py `call`, the IndexType branch).
using CastTypes = std::map<int, std::string>;

/// One traced iteration of a loop: its region, its block argument (the index) and the index value
/// it was traced with.
struct LoopTrace {
    Region* region = nullptr;
    int iv = -1;
    std::int64_t value = 0;
};

/// Binds the loop index in both traces: every pair of index constants at the same place that
/// differ is replaced by coef * iv + offset (coef == 1: no muli; offset == 0: no addi and no
/// constant). A third trace `check` (or null) must agree: each of its index constants is the
/// line's value at its index (two points fit any index function; a third rules out i * i).
/// `refuse(text)` is called (and must throw) for a difference that is no multiple of the traces'
/// index difference or off the line. New constants get ids from `ids`; offsets join `consts`.
void bind_loop_index(LoopTrace a, LoopTrace b, const LoopTrace* check, IndexConstants& consts, ValueIds& ids,
                     const std::function<void(const std::string&)>& refuse, CastTypes* casts = nullptr);

/// A canonical text of `r` for comparing two traces: values are numbered in the order they are
/// defined (block arguments, op results), values defined outside print as their id. With
/// `index_constants`, the values of those constants are left out (the traces' structure only).
std::string region_signature(const Region& r, const IndexConstants* index_constants = nullptr);

/// An arith.constant `v : type` op defining `id` (hint c<v> for index, c<v>_<type> otherwise).
Op constant_op(int id, std::int64_t v, const std::string& type);

} // namespace npusim::iron::detail::mlir
