// ExternalFunction: mlir-aie python/iron/kernel.py (BaseKernel.__init__, tile_size, ExternalFunction
// __init__, __call__, _validate_arg, _maybe_collapse_to_match) over the builds the CMake helper
// registered (ExternalFunctionRegistry).
#include "npusim/frontend/ExternalFunction.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

namespace npusim::iron {

namespace {

namespace fs = std::filesystem;

// A path the design gives names the registered (absolute) one if both resolve to the same file,
// or if the given path is relative and the registered one ends with it ("kernel.cc" or
// "kernels/kernel.cc").
bool same_path(const std::string& given, const std::string& registered) {
    const fs::path g(given), r(registered);
    std::error_code ec;
    if (fs::exists(g, ec) && fs::exists(r, ec) && fs::equivalent(g, r, ec)) return true;
    if (g.is_absolute()) return g.lexically_normal() == r.lexically_normal();
    auto gi = g.lexically_normal(), ri = r.lexically_normal();
    std::vector<fs::path> gp(gi.begin(), gi.end()), rp(ri.begin(), ri.end());
    if (gp.empty() || gp.size() > rp.size()) return false;
    return std::equal(gp.rbegin(), gp.rend(), rp.rbegin());
}

bool same_dirs(const std::vector<std::string>& given, const std::vector<std::string>& registered) {
    if (given.size() != registered.size()) return false;
    std::vector<bool> used(registered.size(), false);
    for (const auto& g : given) {
        bool found = false;
        for (std::size_t i = 0; i < registered.size() && !found; ++i)
            if (!used[i] && same_path(g, registered[i])) found = used[i] = true;
        if (!found) return false;
    }
    return true;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

std::string describe(const ExternalBuild& b) {
    return fmt::format("{} [{}]", fs::path(b.source_file).filename().string(), fmt::join(b.compile_flags, " "));
}

// The C++ type a kernel source spells a dtype with (AIE-API's names for bfloat16 and bfp16).
const char* c_type(DType t) {
    switch (t) {
    case DType::i8: return "int8_t";
    case DType::u8: return "uint8_t";
    case DType::i16: return "int16_t";
    case DType::u16: return "uint16_t";
    case DType::i32: return "int32_t";
    case DType::u32: return "uint32_t";
    case DType::f32: return "float";
    case DType::bf16: return "bfloat16";
    case DType::bfp16ebs8: return "bfp16ebs8";
    }
    return "void";
}

std::vector<std::string> param_types(const std::vector<ArgType>& arg_types) {
    std::vector<std::string> out;
    for (const auto& t : arg_types) out.push_back(std::string(c_type(t.dtype)) + (t.is_tensor ? "*" : ""));
    return out;
}

std::string shape_str(const std::vector<std::int64_t>& s) {
    return s.size() == 1 ? fmt::format("({},)", s[0]) : fmt::format("({})", fmt::join(s, ", "));
}

// Whether a kernel parameter pointing to `bytes`-byte elements may receive a block (v8bfp16ebs8)
// tensor. IRON declares the kernel with the tensor's memref of !aiex.bfp blocks; aiecc's
// aie-transform-bfp-types turns each block into one 72-bit integer (mlir-aie 3ca0193:
// lib/Dialect/AIEX/Transforms/AIETransformBfpTypes.cpp l.56-70, function types l.121-135) and the memref
// becomes an LLVM pointer, which the kernel's object file meets only by its symbol name: the C
// signature's pointee type is the kernel's own view of the bytes. Upstream's kernels read block tensors
// through bfp16ebs8* (one block, the AIE-API host layer's 9 bytes: aie2p/mm_bfp.cc l.182-207),
// uint8_t* (mm_bfp.cc l.208, scalar_shuffle) and v128bfp16ebs8* (block_datatypes/vector_passthrough
// kernel.cc l.20): a byte pointer or a pointer to whole blocks. A 2- or 4-byte pointee (bfloat16*,
// float*, int32_t*) reads the blocks as numbers and is refused; void* is accepted as for any tensor.
bool block_pointer_fits(std::size_t bytes) {
    const auto block = model::dtype_bytes(DType::bfp16ebs8);
    return bytes == 0 || bytes == 1 || bytes % block == 0;
}

} // namespace

const ExternalBuild* ExternalFunction::find_build(const std::string& name, const std::vector<ArgType>& arg_types,
                                                  const ExternalFunctionOptions& o) {
    if (name.empty()) throw DesignError("ExternalFunction: Kernel name cannot be empty.");
    if (!o.source_file && !o.source_string)
        throw DesignError(fmt::format("ExternalFunction '{}': source_file or source_string must be "
                                      "provided.",
                                      name));
    const auto compiler = external_compiler();
    const auto compile = [&] {
        return compiler(ExternalCompileRequest{name, o.source_file, o.source_file ? std::nullopt : o.source_string,
                                               o.include_dirs, o.compile_flags,
                                               o.arch.value_or(default_external_arch()), param_types(arg_types)});
    };
    const ExternalBuild* found = nullptr;
    // kernel.py: source_file is used when given (source_string only otherwise)
    if (!o.source_file) {
        if (!compiler)
            throw DesignError(fmt::format("ExternalFunction '{}': source_string needs npusim's run-time kernel "
                                          "compiler, which this program does not link: link npusim::harness and "
                                          "include npusim/harness/KernelCompiler.hpp (or npusim/npusim.hpp)",
                                          name));
        found = compile();
    } else {
        const auto builds = external_builds(name);
        const auto flags = sorted(o.compile_flags);
        for (const auto* b : builds)
            if (same_path(*o.source_file, b->source_file) && sorted(b->compile_flags) == flags &&
                same_dirs(o.include_dirs, b->include_dirs)) {
                found = b;
                break;
            }
        if (!found && compiler) found = compile();
        if (!found && builds.empty())
            throw DesignError(fmt::format("ExternalFunction '{}': no build of '{}' is linked into this program; "
                                          "compile {} with npusim_add_external_function(... NAME {}) "
                                          "(cmake/NpusimExternalFunction.cmake)",
                                          name, name, *o.source_file, name));
        if (!found) {
            std::vector<std::string> have;
            for (const auto* b : builds) have.push_back(describe(*b));
            throw DesignError(fmt::format("ExternalFunction '{}': no linked build of '{}' has source {}, compile "
                                          "flags [{}] and {} include dir{}; the builds are: {}",
                                          name, name, *o.source_file, fmt::join(o.compile_flags, " "),
                                          o.include_dirs.size(), o.include_dirs.size() == 1 ? "" : "s",
                                          fmt::join(have, "; ")));
        }
    }
    // arg_types against the compiled signature
    const auto& params = found->params;
    if (params.size() != arg_types.size())
        throw DesignError(fmt::format("ExternalFunction '{}': arg_types has {} entr{}, the compiled '{}' ({}) takes "
                                      "{} parameter{}",
                                      name, arg_types.size(), arg_types.size() == 1 ? "y" : "ies", name,
                                      describe(*found), params.size(), params.size() == 1 ? "" : "s"));
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto& t = arg_types[i];
        const auto& p = params[i];
        if (t.is_tensor != p.is_pointer)
            throw DesignError(fmt::format("ExternalFunction '{}': arg_types[{}] is {} but parameter {} of the compiled "
                                          "function is {}",
                                          name, i, t.str(), i, p.is_pointer ? "a pointer" : "a scalar"));
        if (t.is_tensor && t.dtype == DType::bfp16ebs8) {
            if (!block_pointer_fits(p.bytes))
                throw DesignError(fmt::format("ExternalFunction '{}': arg_types[{}] is {} (9 B blocks) but parameter "
                                              "{} of the compiled function points to {} B elements: a block tensor "
                                              "goes to a byte pointer (bfp16ebs8*, int8_t*, uint8_t*) or to a "
                                              "pointer to whole blocks (v64bfp16ebs8*, v128bfp16ebs8*)",
                                              name, i, t.str(), i, p.bytes));
            continue;
        }
        if (t.is_tensor && p.bytes != 0 && p.bytes != model::dtype_bytes(t.dtype))
            throw DesignError(fmt::format("ExternalFunction '{}': arg_types[{}] is {} ({} B elements) but parameter {} "
                                          "of the compiled function points to {} B elements",
                                          name, i, t.str(), model::dtype_bytes(t.dtype), i, p.bytes));
    }
    return found;
}

ExternalFunction::ExternalFunction(std::string name, std::vector<ArgType> arg_types, ExternalFunctionOptions o)
    : ExternalFunction(find_build(name, arg_types, o), name, arg_types, std::move(o.cost)) {}

ExternalFunction::ExternalFunction(const ExternalBuild* build, std::string name, std::vector<ArgType> arg_types,
                                   CostModel cost)
    : Kernel(std::move(name), build->make_invoker(), std::move(arg_types), std::move(cost)), build_(build) {}

std::int64_t ExternalFunction::tile_size(std::size_t i) const {
    const auto& types = arg_types();
    if (types.empty()) throw DesignError(fmt::format("ExternalFunction '{}': No argument types defined.", name()));
    if (i >= types.size())
        throw DesignError(fmt::format("ExternalFunction '{}': Argument index {} out of range (max: {})", name(), i,
                                      types.size() - 1));
    if (!types[i].is_tensor || types[i].tensor.shape.empty())
        throw DesignError(fmt::format("ExternalFunction '{}': Argument {} does not have a shape or is not an array "
                                      "type.",
                                      name(), i));
    return types[i].tensor.shape[0];
}

void ExternalFunction::validate_count(std::size_t n) const {
    if (n != arg_types().size())
        throw DesignError(fmt::format("ExternalFunction '{}' expects {} argument(s), but {} were provided.", name(),
                                      arg_types().size(), n));
}

void ExternalFunction::validate_scalar(std::size_t i) const {
    const auto& t = arg_types()[i];
    if (t.is_tensor)
        throw DesignError(fmt::format("ExternalFunction '{}': Argument {}: expected {}/{}, got a scalar", name(), i,
                                      shape_str(t.tensor.shape), model::dtype_name(t.dtype)));
}

void ExternalFunction::validate_arg(std::size_t i, const Element& e) const {
    const auto& t = arg_types()[i];
    if (!t.is_tensor)
        throw DesignError(fmt::format("ExternalFunction '{}': Argument {}: expected scalar, got a view of '{}'", name(),
                                      i, e.owner()));
    const auto& have = e.type();
    // _maybe_collapse_to_match: an N-D object fits a 1-D signature of the same dtype and count
    const bool collapses =
        t.tensor.shape.size() == 1 && have.dtype == t.dtype && have.elements() == t.tensor.elements();
    if ((have.shape != t.tensor.shape || have.dtype != t.dtype) && !collapses)
        throw DesignError(fmt::format("ExternalFunction '{}': Argument {}: expected {}/{}, got {}/{} ('{}')", name(), i,
                                      shape_str(t.tensor.shape), model::dtype_name(t.dtype), shape_str(have.shape),
                                      model::dtype_name(have.dtype), e.owner()));
}

} // namespace npusim::iron
