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

/// The op in MLIR's generic form: `"name"(operands) ({regions}) {attributes} : (operand types) ->
/// result type`, with the attribute names of the op's ODS definition (AIEOps.td, AIEX.td, and
/// MLIR's builtin/arith/scf/func/memref ops). Operand types come from the values' definitions.
struct Generic {
    std::string name; ///< "aie.objectfifo"
    std::vector<int> operands;
    std::vector<std::string> attrs; ///< "name = value"; printed sorted by name, as MLIR does
    std::string result_type; ///< the type of Op::result ("" when the op defines no value)
    /// The terminator the pretty form elides (scf.for's "scf.yield", aie.device's "aie.end"):
    /// printed last in each region of the generic form.
    std::string terminator;
    /// One empty region the pretty form does not print (a func.func declaration's body).
    bool empty_region = false;
    /// Successor blocks ("^bb1"), printed `[^bb1, ^bb2]` after the operands (aie.dma_start,
    /// aie.next_bd); the pretty text names them itself.
    std::vector<std::string> successors{};
};

/// A Generic with its fields in order (attributes sorted when printed).
Generic generic(std::string name, std::vector<int> operands = {}, std::vector<std::string> attrs = {},
                std::string result_type = {}, std::string terminator = {});

struct Op {
    /// Not an op: the label ("^bb1") that starts a block of a region with several blocks (aie.mem's
    /// BD chains); printed on its own line, indented as the region's parent.
    static Op block(std::string label) {
        Op op;
        op.label = std::move(label);
        return op;
    }
    int result = -1; ///< the value this op defines, or -1
    std::string hint; ///< its name hint ("" : anonymous %N)
    Text text; ///< everything after "%x = "
    std::vector<Region> regions; ///< printed as " {" ... "}" after `text`
    Text tail; ///< after the closing brace of the last region (" {stack_size = 2048 : i32}")
    Generic gen; ///< the same op in the generic form
    std::string label{}; ///< non-empty: a block label (Op::block), not an op
};

struct Region {
    std::vector<int> args; ///< block arguments (%argN), named before the region's ops
    std::vector<std::string> arg_types; ///< their types (the generic form's block label)
    std::vector<Op> ops;
};

/// Allocates value ids.
class ValueIds {
public:
    int next() { return next_++; }

private:
    int next_ = 0;
};

/// Print `top` (the module op) with MLIR's names, two spaces per nesting level: the pretty form,
/// or with `generic` every op in the generic form (as mlir-opt --mlir-print-op-generic prints it).
std::string print_module(const Op& top, bool generic = false);

} // namespace npusim::iron::detail::mlir
