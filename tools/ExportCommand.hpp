#pragma once
// `npusim export DESIGN [--device D] [--param K=V ...] [--link-with KERNEL=FILE.o ...] [-o FILE]
// [--print-commands [--chess] [--full-elf]]`: the design's AIE-dialect module as IRON prints it
// (npusim::iron::export_mlir), and the commands mlir-aie's toolchain builds it with. See
// docs/export.md.
#include "CliOptions.hpp"

#include "npusim/frontend/Tile.hpp"

#include <iosfwd>
#include <string>

namespace npusim::tools {

/// Registers `export` and its options on the App. Its run throws UsageError for a bad command line
/// and DesignError when the design does not resolve or cannot be exported; returns 0 once the
/// module was written.
Command add_export_command(CLI::App& app, std::ostream& out);

/// The commands that turn `mlir_file` (its text `mlir`) plus the kernel sources into an xclbin and
/// the instruction stream (or a full ELF) for `device`: one compile per link_with object (Peano's
/// clang++, or xchesscc_wrapper with `chess`), then aiecc (programming_examples/makefile-common,
/// python/utils/compile/utils.py _run_aiecc, HEAD 3ca0193c). A design built with an allocation
/// scheme (DesignSpec::alloc_scheme) passes it to aiecc as `--alloc-scheme=` (tools/aiecc
/// CommandLineOptions.h, `alloc-scheme`), so the xclbin places buffers as the simulation did.
std::string build_commands(const std::string& mlir, const std::string& mlir_file, const std::string& device, bool chess,
                           bool full_elf, iron::AllocScheme alloc_scheme = iron::AllocScheme::Default);

} // namespace npusim::tools
