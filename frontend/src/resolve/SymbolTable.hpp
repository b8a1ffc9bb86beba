#pragma once
// SymbolTable: every buffer and lock the lowering generated (X_buff_k, X_cons_buff_k,
// X_prod_lock_i, Buffers by their names) lives in one MLIR symbol table in the toolchain, so two
// with one name fail module verification ("redefinition of symbol named '...'"; IRON program.py
// raises "MLIR module failed verification"). npusim refuses the same designs after lowering.
#include "resolve/ResolveContext.hpp"

namespace npusim::iron::detail {

/// Throws DesignError naming both design objects when two buffers or two locks share a name.
void check_symbol_names(const model::Netlist& net);

} // namespace npusim::iron::detail
