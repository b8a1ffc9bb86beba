// The design-building API, continued: TensorAccessPattern, taplib's tilers and TensorAccessSequence,
// IRON's algorithm templates and ExternalFunction (compiled at run time).
#include "Designs.hpp"
#include "npusim/algorithms/Transform.hpp"
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/harness/KernelCompiler.hpp"

#include <cstdlib>

#include <fstream>
#include <memory>
#include <optional>

namespace npusim::errcat {

namespace alg = npusim::iron::algorithms;

namespace {
// Fixtures of the algorithms entries (NPUSIM_ERROR's trigger lambdas capture nothing).
const model::DeviceSpec& alg_dev() { return model::device_by_name("npu1_1col"); }
constexpr auto inc = [](auto x) { return x + 1; };
Kernel alg_kernel() {
    return Kernel(
        "add_scalar", [](std::span<const KernelArg>) {},
        {i32(16), i32(16), scalar<std::int32_t>(), scalar<std::int32_t>()}, cost::fixed(1));
}
// A build of 'catalog_ext(int32_t* in, int32_t* out, int32_t n)' from catalog_ext.cc with -DN=4, as
// npusim_add_external_function registers one (the function does nothing).
void catalog_ext(std::int32_t*, std::int32_t*, std::int32_t) {}
const bool catalog_ext_registered = register_external_function(
    {"catalog_ext", "/catalog/catalog_ext.cc", {"-DN=4"}, {}, external_params(&catalog_ext), [] {
         return external_invoker(&catalog_ext);
     }});
void catalog_ext_none() {}
const bool catalog_ext_none_registered = register_external_function(
    {"catalog_ext_none", "/catalog/catalog_ext.cc", {"-DN=4"}, {}, external_params(&catalog_ext_none), [] {
         return external_invoker(&catalog_ext_none);
     }});
// Run `f` as a program without the run-time kernel compiler would (frontend only).
template <class F>
void without_runtime_compiler(F f) {
    const auto saved = set_external_compiler({});
    try {
        f();
    } catch (...) {
        set_external_compiler(saved);
        throw;
    }
    set_external_compiler(saved);
}
// Run `f` with the environment variable `name` set to `value`.
template <class F>
void with_env(const char* name, const std::string& value, F f) {
    const char* old = std::getenv(name);
    const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv(name, value.c_str(), 1);
    const auto restore = [&] { saved ? ::setenv(name, saved->c_str(), 1) : ::unsetenv(name); };
    try {
        f();
    } catch (...) {
        restore();
        throw;
    }
    restore();
}
std::vector<ArgType> ext_types() { return {i32(256), i32(256), scalar<std::int32_t>()}; }
ExternalFunctionOptions catalog_ext_build() { return {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=4"}}; }
// The catalog's passthrough with the body calling catalog_ext on i32[256] objects as `call` does.
void call_catalog_ext(std::vector<ArgType> types,
                      std::function<void(const ExternalFunction&, const ElementGroup&, const ElementGroup&)> call) {
    ExternalFunction f("catalog_ext", std::move(types), catalog_ext_build());
    resolve(passthrough({.body = [f, call](F in, F out) {
        auto a = in.acquire(1);
        auto b = out.acquire(1);
        call(f, a, b);
        in.release(1);
        out.release(1);
    }}));
}
} // namespace

void add_design_api_tiling(Catalog& c) {
    c.component("TensorAccessPattern", "Building a TensorAccessPattern (`frontend/src/TensorAccessPattern.cpp`).");
    c.site("frontend/src/TensorAccessPattern.cpp");
    NPUSIM_ERROR(c, "tap.lengths", kDesign,
                 "TensorAccessPattern: sizes and strides must have the same length, 1 to 4 (got 1 sizes, 2 strides)",
                 TensorAccessPattern({16}, 0, {16}, {1, 1}));
    NPUSIM_ERROR(c, "tap.size", kDesign, "TensorAccessPattern: size 0 must be >= 1",
                 TensorAccessPattern({16}, 0, {0}, {1}));
    NPUSIM_ERROR(c, "tap.offset", kDesign, "TensorAccessPattern: offset -1 must be >= 0",
                 TensorAccessPattern({16}, -1, {16}, {1}));

    c.component("TensorTiler2D", "taplib's tilers and TensorAccessSequence (`frontend/src/TensorTiler2D.cpp`, "
                                 "`frontend/src/TensorAccessSequence.cpp`); the texts are taplib's ValueErrors.");
    c.site("frontend/src/TensorTiler2D.cpp");
    using Dims = std::vector<std::int64_t>;
    NPUSIM_ERROR(c, "tiler.not_divisible", kDesign,
                 "TensorTiler2D.simple_tiler: Tensor dimension 0 (10) is not divisible by tile dim (3)",
                 TensorTiler2D::simple_tiler({10, 4}, Dims{3, 2}));
    NPUSIM_ERROR(c, "tiler.partial", kDesign,
                 "TensorTiler2D.group_tiler: allow_partial=False but tensor does not divide evenly into tile groups "
                 "in dimension 1",
                 TensorTiler2D::group_tiler({45, 24}, {3, 2}, Dims{5, 7}));
    NPUSIM_ERROR(c, "tiler.pattern_repeat", kDesign, "TensorTiler2D.step_tiler: Pattern repeat must be >= 1 but is 0",
                 TensorTiler2D::step_tiler({8, 8}, {2, 2}, {2, 2}, std::nullopt, {.pattern_repeat = 0}));
    NPUSIM_ERROR(c, "tiler.repeat_dims", kDesign,
                 "TensorTiler2D.group_tiler: Ran out of dimensions for repeat (sizes=[2, 2, 2, 2], strides=[16, 2, 8, "
                 "1])",
                 TensorTiler2D::group_tiler({8, 8}, {2, 2}, Dims{2, 2}, {.pattern_repeat = 2}));
    NPUSIM_ERROR(c, "tiler.dim_value", kDesign,
                 "TensorTiler2D.simple_tiler: Each tensor dimension must be >= 1 (dimensions=[8, 0])",
                 TensorTiler2D::simple_tiler({8, 0}));
    NPUSIM_ERROR(c, "tiler.dim_count", kDesign,
                 "TensorTiler2D.simple_tiler: Tensor dimension ([2, 2, 2]) does not match expected dimension (2)",
                 TensorTiler2D::simple_tiler({2, 2, 2}));
    NPUSIM_ERROR(c, "tiler.no_dims", kDesign,
                 "TensorTiler2D.simple_tiler: Number of tensor dimensions must be >= 1 (dimensions=[])",
                 TensorTiler2D::simple_tiler({}));
    c.site("frontend/src/TensorAccessSequence.cpp");
    NPUSIM_ERROR(c, "tas.index", kDesign, "TensorAccessSequence: index 1 is out of range (the sequence has 1 patterns)",
                 TensorTiler2D::simple_tiler({4, 4})[1]);
    NPUSIM_ERROR(c, "tas.empty", kDesign,
                 "TensorAccessSequence.from_taps: Received no TensorAccessPatterns; must have at least one "
                 "TensorAccessPatterns to create a TensorAccessSequence.",
                 TensorAccessSequence::from_taps({}));
    NPUSIM_ERROR(
        c, "tas.dims", kDesign,
        "TensorAccessSequence: TensorAccessPatterns have multiple tensor dimensions (found [4, 4] and [2, 8])",
        TensorAccessSequence::from_taps({TensorAccessPattern::linear({4, 4}), TensorAccessPattern::linear({2, 8})}));
    c.site("frontend/src/AccessHeatmap.cpp");
    NPUSIM_ERROR(c, "heatmap.shape", kDesign,
                 "access_heatmap_ppm: 2 x 2 cells of 8 px do not fit an access map of 3 elements",
                 access_heatmap_ppm(std::vector<std::int64_t>{0, 1, 2}, 2, 2));

    c.component("algorithms", "IRON's algorithm templates transform, transform_parallel, for_each, reduce "
                              "(`frontend/src/Transform.cpp`); the texts are upstream's ValueErrors where it has one.");
    c.site("frontend/src/Transform.cpp");
    NPUSIM_ERROR(c, "alg.tile_multiple", kDesign,
                 "transform: Number of elements (100) must be a multiple of tile size (16)",
                 alg::transform(alg_dev(), inc, i32(100)));
    NPUSIM_ERROR(c, "alg.num_channels", kDesign,
                 "transform_parallel: num_channels must be 1 or 2 (shim DMA has 2 channels per direction per column "
                 "on AIE2 / AIE2p); got 3",
                 alg::transform_parallel(alg_dev(), inc, i32(1024), {.num_channels = 3}));
    NPUSIM_ERROR(c, "alg.parallel_multiple", kDesign,
                 "transform_parallel: Number of elements (80) must be a multiple of tile_size × num_columns × "
                 "num_channels (16 × 1 × 2 = 32).",
                 alg::transform_parallel(alg_dev(), inc, i32(80), {.num_channels = 2}));
    NPUSIM_ERROR(c, "alg.tile_size", kDesign,
                 "transform: tile_size (32) does not match ExternalFunction's input/output shape in arg_type",
                 alg::transform(alg_dev(), alg_kernel(), i32(64), {.tile_size = 32}, {std::int64_t{1}}));
    NPUSIM_ERROR(c, "alg.kernel_shape", kDesign,
                 "transform: Argument 0 of kernel 'k' does not have a shape or is not an array type.",
                 alg::transform(alg_dev(),
                                Kernel(
                                    "k", [](std::span<const KernelArg>) {}, {scalar<std::int32_t>()}, cost::fixed(1)),
                                i32(64)));
    NPUSIM_ERROR(c, "alg.arg_count", kDesign,
                 "transform: kernel 'add_scalar' declares 4 arguments; the template calls it with 3 (1 input tile, "
                 "the output tile, 0 params, the tile size)",
                 alg::transform(alg_dev(), alg_kernel(), i32(64)));
    NPUSIM_ERROR(c, "alg.param_kind", kDesign,
                 "transform: param 0 of kernel 'add_scalar' is declared i32 scalar but given a tensor type",
                 alg::transform(alg_dev(), alg_kernel(), i32(64), {}, {i32(1)}));
    NPUSIM_ERROR(c, "alg.params_two_channels", kDesign,
                 "transform_parallel: num_channels=2 is not supported together with shared *params; use "
                 "num_channels=1 instead.",
                 alg::transform_parallel(alg_dev(), alg_kernel(), i32(64), {.num_channels = 2}, {std::int64_t{1}}));
    NPUSIM_ERROR(c, "alg.callable_params", kDesign,
                 "for_each: the function cannot be applied to i32 elements (1 argument)",
                 alg::for_each(
                     alg_dev(), [](std::int16_t* p) { return *p; }, i32(64)));
    NPUSIM_ERROR(c, "alg.params_for_callable", kDesign,
                 "transform: extra params are for a kernel; a callable takes only the elements",
                 alg::detail::transform_gen(alg_dev(), "transform",
                                            alg::detail::tile_fn<1>(inc, DType::i32, "transform"), 1, i32(64),
                                            std::vector<alg::Param>{std::int64_t{1}}, {}));
    NPUSIM_ERROR(
        c, "alg.runtime_tensors", kDesign,
        "transform: 9 runtime tensors (inputs, output and tensor params); npusim's template takes at most 8",
        std::vector<ArgType> types{i32(16), i32(16)};
        std::vector<alg::Param> params; for (int p = 0; p < 7; ++p) {
            types.push_back(i32(1));
            params.push_back(i32(1));
        } types.push_back(scalar<std::int32_t>());
        alg::transform(alg_dev(),
                       Kernel(
                           "many", [](std::span<const KernelArg>) {}, types, cost::fixed(1)),
                       i32(64), {}, params));
    NPUSIM_ERROR(c, "alg.reduce_args", kDesign,
                 "reduce: kernel 'add_scalar' declares 4 arguments; reduce calls it with 3 (input, output, input "
                 "elements)",
                 alg::reduce(alg_dev(), alg_kernel(), i32(16), i32(1)));

    c.internal("alg.unknown_dtype", "transform: unknown element type",
               "tile_fn's switch covers every DType; the throw after it only ends the function for the compiler.");

    c.component("ExternalFunction", "Binding a kernel by name to a build made by npusim_add_external_function or, "
                                    "without one, to a build the run-time kernel compiler makes "
                                    "(`harness/src/KernelCompiler.cpp`), and its calls "
                                    "(`frontend/src/ExternalFunction.cpp`); the texts are IRON kernel.py's where it "
                                    "has one. The entries use a build of catalog_ext.cc (-DN=4) that the catalog "
                                    "registers itself; the source_string, not_linked and no_matching_build entries "
                                    "are those of a program without the run-time compiler (one linking only the "
                                    "frontend).");
    c.site("frontend/src/ExternalFunction.cpp");
    NPUSIM_ERROR(c, "ext.name", kDesign, "ExternalFunction: Kernel name cannot be empty.",
                 ExternalFunction("", {i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.source_string", kDesign,
                 "ExternalFunction 'catalog_ext': source_string needs npusim's run-time kernel compiler, which this "
                 "program does not link: link npusim::harness and include npusim/harness/KernelCompiler.hpp (or "
                 "npusim/npusim.hpp)",
                 without_runtime_compiler(
                     [] { ExternalFunction("catalog_ext", {i32(4)}, {.source_string = "void catalog_ext() {}"}); }));
    NPUSIM_ERROR(c, "ext.no_source", kDesign,
                 "ExternalFunction 'catalog_ext': source_file or source_string must be provided.",
                 ExternalFunction("catalog_ext", {i32(4)}));
    NPUSIM_ERROR(c, "ext.not_linked", kDesign,
                 "ExternalFunction 'nope': no build of 'nope' is linked into this program; compile nope.cc with "
                 "npusim_add_external_function(... NAME nope) (cmake/NpusimExternalFunction.cmake)",
                 without_runtime_compiler([] { ExternalFunction("nope", {i32(4)}, {.source_file = "nope.cc"}); }));
    NPUSIM_ERROR(
        c, "ext.no_matching_build", kDesign,
        "ExternalFunction 'catalog_ext': no linked build of 'catalog_ext' has source catalog_ext.cc, compile "
        "flags [-DN=8] and 0 include dirs; the builds are: catalog_ext.cc [-DN=4]",
        without_runtime_compiler([] {
            ExternalFunction("catalog_ext", {i32(4)}, {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=8"}});
        }));
    NPUSIM_ERROR(c, "ext.arg_count", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types has 1 entry, the compiled 'catalog_ext' (catalog_ext.cc "
                 "[-DN=4]) takes 3 parameters",
                 ExternalFunction("catalog_ext", {i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.arg_kind", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types[2] is i32[4] but parameter 2 of the compiled function is a "
                 "scalar",
                 ExternalFunction("catalog_ext", {i32(4), i32(4), i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.arg_element_size", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types[0] is i16[4] (2 B elements) but parameter 0 of the "
                 "compiled function points to 4 B elements",
                 ExternalFunction("catalog_ext", {tensor<std::int16_t>({4}), i32(4), scalar<std::int32_t>()},
                                  catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.tile_size_range", kDesign,
                 "ExternalFunction 'catalog_ext': Argument index 3 out of range (max: 2)",
                 ExternalFunction("catalog_ext", ext_types(), catalog_ext_build()).tile_size(3));
    NPUSIM_ERROR(c, "ext.tile_size_scalar", kDesign,
                 "ExternalFunction 'catalog_ext': Argument 2 does not have a shape or is not an array type.",
                 ExternalFunction("catalog_ext", ext_types(), catalog_ext_build()).tile_size(2));
    NPUSIM_ERROR(c, "ext.tile_size_no_types", kDesign,
                 "ExternalFunction 'catalog_ext_none': No argument types defined.",
                 ExternalFunction("catalog_ext_none", {}, {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=4"}})
                     .tile_size());
    c.site("harness/src/KernelCompiler.cpp");
    NPUSIM_ERROR(c, "ext.source_missing", kDesign,
                 "ExternalFunction 'nope': source_file nope.cc does not exist (relative paths are taken from the "
                 "working directory, <...>)",
                 ExternalFunction("nope", {i32(4)}, {.source_file = "nope.cc"}));
    NPUSIM_ERROR(c, "ext.compile_error", kDesign,
                 "ExternalFunction 'catalog_bad': its source_string does not compile for the host: "
                 "source_string.cc:2:<N>: error: expected primary-expression before ';' token",
                 ExternalFunction("catalog_bad", {i32(4)},
                                  {.source_string = "#include <cstdint>\nextern \"C\" void catalog_bad(int32_t* p) "
                                                    "{ p[0] = +; }\n"}));
    NPUSIM_ERROR(c, "ext.missing_piece", kDesign,
                 "ExternalFunction 'catalog_piece': its source_string does not compile for the host: "
                 "source_string.cc:3:<N>: error: 'no_such_piece' is not a member of 'aie' (it needs "
                 "aie::no_such_piece, which npusim's AIE-API host layer does not provide)",
                 ExternalFunction("catalog_piece", {i32(16)},
                                  {.source_string = "#include <aie_api/aie.hpp>\n"
                                                    "extern \"C\" void catalog_piece(int32_t* p) {\n"
                                                    "    aie::store_v(p, aie::no_such_piece(aie::load_v<16>(p)));\n}\n"}));
    NPUSIM_ERROR(c, "ext.aie_not_included", kDesign,
                 "ExternalFunction 'catalog_z': its source_string does not compile for the host: "
                 "source_string.cc:1:<N>: error: 'aie' <...> (it uses aie:: without including <aie_api/aie.hpp>, "
                 "which fails under Peano too: a source like mlir-aie's zero.cc is meant to be included after "
                 "aie.hpp, as mm.cc includes it)",
                 ExternalFunction("catalog_z", {i32(16)},
                                  {.source_string = "extern \"C\" void catalog_z(int* p) { auto v = "
                                                    "aie::load_v<16>(p); (void)v; }\n"}));
    NPUSIM_ERROR(c, "ext.no_function", kDesign,
                 "ExternalFunction 'catalog_none': its source_string defines no function 'catalog_none'",
                 ExternalFunction("catalog_none", {i32(4)}, {.source_string = "extern \"C\" void other(int*) {}\n"}));
    NPUSIM_ERROR(c, "ext.no_compiler", kDesign,
                 "ExternalFunction 'catalog_cxx': cannot compile its source_string: cannot run the C++ compiler "
                 "'/no/such/c++' (cannot run /no/such/c++: No such file or directory); set CXX to a C++20 compiler",
                 with_env("CXX", "/no/such/c++", [] {
                     ExternalFunction("catalog_cxx", {i32(4)}, {.source_string = "extern \"C\" void catalog_cxx(int*) {}"});
                 }));
    NPUSIM_ERROR(c, "ext.cache_unwritable", kDesign,
                 "ExternalFunction 'catalog_cache': cannot compile its source_string: cannot create the kernel cache "
                 "<...>/not_a_folder/kernels: Not a directory",
                 const std::string file = ctx.tmp + "/not_a_folder"; std::ofstream(file) << "x\n";
                 with_env("NPUSIM_CACHE_DIR", file, [] {
                     ExternalFunction("catalog_cache", {i32(4)},
                                      {.source_string = "extern \"C\" void catalog_cache(int*) {}"});
                 }));
    c.internal("ext.cache_io", "cannot read <file>: <reason> / cannot write <file>: <reason>",
               "The cache files are read right after this process wrote them or checked they exist, in a folder it "
               "created; only their removal by another program meanwhile (or a full disk) reaches these.");
    c.internal("ext.entry_points", "the library built from <source> lacks npusim's entry points",
               "The wrapper unit the compiler builds into every library defines npusim_jit_enter, npusim_jit_leave "
               "and the function's params/invoke pair; a library that compiled without them cannot exist.");
    c.site("harness/src/WorkerLibraries.cpp");
    c.internal("ext.worker_library",
               "cannot copy the kernel library <file> for worker '<name>': <reason> / cannot load the kernel "
               "library <file> for worker '<name>': <reason>",
               "A second worker's own load of a library this process built and loaded: the copy goes next to the "
               "library in the cache folder this process just wrote; only a full disk, the folder's removal by "
               "another program meanwhile, or the loader running out of memory reach these.");
    c.site("frontend/src/ExternalFunction.cpp");
    NPUSIM_ERROR(c, "ext.call_count", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext' expects 3 argument(s), but 2 were provided.",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup& b) { f(a, b); }));
    NPUSIM_ERROR(c, "ext.call_scalar_for_view", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext': Argument 1: expected (256,)/i32, got a scalar",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup&) { f(a, 1, 2); }));
    NPUSIM_ERROR(c, "ext.call_view_for_scalar", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext': Argument 2: expected scalar, got a view of 'in'",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup& b) { f(a, b, a); }));
    NPUSIM_ERROR(
        c, "ext.call_shape", kDesign,
        "worker 'w': ExternalFunction 'catalog_ext': Argument 0: expected (16, 16)/i32, got (256,)/i32 ('in')",
        call_catalog_ext({tensor<std::int32_t>({16, 16}), i32(256), scalar<std::int32_t>()},
                         [](const ExternalFunction& f, const ElementGroup& a, const ElementGroup& b) { f(a, b, 2); }));
}

} // namespace npusim::errcat
