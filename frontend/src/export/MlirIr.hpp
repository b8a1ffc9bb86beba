#pragma once
// MlirIr: the small op tree the MLIR exporter builds before printing. Values are integer ids; an
// op's text refers to them by id, and names are given only when the whole module is known, by
// MLIR's SSA-naming rules (mlir/lib/IR/AsmPrinter.cpp SSANameState, as iron-mlir-golden.md §0.3
// states them): every region names the values it defines directly before its nested regions;
// nested regions start from the counters their parent reached, siblings from the same values; a
// name hint already used in the region or an enclosing one gets `_<K>` from one conflict counter.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npusim::iron::detail::mlir {

/// A piece of printed text: literal text, or a reference to a value (printed as its name).
struct Piece {
    std::string text;
    int value = -1;
};
using Text = std::vector<Piece>;

/// Literal text.
Piece lit(std::string s);
/// A reference to value `id`.
Piece ref(int id);

struct Region;

struct Op {
    int result = -1; ///< the value this op defines, or -1
    std::string hint; ///< its name hint ("" : anonymous %N)
    Text text; ///< everything after "%x = "
    std::vector<Region> regions; ///< printed as " {" ... "}" after `text`
    Text tail; ///< after the closing brace of the last region (" {stack_size = 2048 : i32}")
};

struct Region {
    std::vector<int> args; ///< block arguments (%argN), named before the region's ops
    std::vector<Op> ops;
};

/// Allocates value ids.
class ValueIds {
public:
    int next() { return next_++; }

private:
    int next_ = 0;
};

/// Print `top` (the module op) with MLIR's names, two spaces per nesting level.
std::string print_module(const Op& top);

} // namespace npusim::iron::detail::mlir
