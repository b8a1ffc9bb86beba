#pragma once
// MLIR export (`npusim export`): the AIE-dialect module IRON's Program.resolve_program prints for
// the same design (mlir-aie python/iron/program.py, HEAD 3ca0193c): logical tiles, objectfifos and
// links, buffers, barrier locks, kernel declarations with link_with, cores with the worker bodies
// (traced as resolve traces them; range_ loops become scf.for), cascade flows and the runtime
// sequence (dma tasks, awaits, frees, RTP writes, barrier sets). The design is resolved first, so
// nothing the toolchain rejects is exported; a body the export cannot express is a DesignError
// naming the worker and the construct. See docs/export.md.
#include "npusim/frontend/Program.hpp"

#include <map>
#include <string>

namespace npusim::iron {

struct ExportOptions {
    /// The object file each kernel links with (func.func attributes {link_with = ...}); a kernel
    /// not listed links with "<kernel name>.o".
    std::map<std::string, std::string> link_with{};
    /// A link_with entry for a kernel the design does not call is a DesignError naming the design's
    /// kernels (npusim export --link-with), rather than ignored (one map shared by several designs).
    bool refuse_unknown_link_with = false;
    /// Passed to the resolve that checks the design before it is exported.
    ResolveOptions resolve{};
    /// Print every op in MLIR's generic form ("aie.objectfifo"() ({...}) {...} : () -> ()), which
    /// MLIR tools without mlir-aie's dialects read (mlir-opt --allow-unregistered-dialect); their
    /// verifier cannot resolve a func.call inside aie.core, whose symbol table only mlir-aie knows.
    bool generic = false;
};

/// The module's text, in MLIR's pretty form as IRON's print(module) prints it, or with
/// `opts.generic` in the generic form.
std::string export_mlir(const Program& program, const ExportOptions& opts = {});

/// The MLIR type of a tensor: "memref<16x64xi32>" (unsigned element types print as ui8/ui32, as
/// numpy's uint8/uint32 do through IRON's np_dtype_to_mlir_type).
std::string mlir_memref_type(const TensorType& t);

} // namespace npusim::iron
