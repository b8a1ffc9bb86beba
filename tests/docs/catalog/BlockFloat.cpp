// Block floating point (v8bfp16ebs8): refused on AIE2 devices at resolve, and refused where a block
// would need a scalar value (recorded bodies, run-time parameters) or an MLIR dense literal.
#include "Designs.hpp"

#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/frontend/RecordedBody.hpp"

namespace npusim::errcat {

namespace {
/// v8bfp16ebs8[n]: n blocks of 8 values.
TensorType bfp(std::int64_t n) { return TensorType{DType::bfp16ebs8, {n}}; }

/// shim -> worker 'w' -> shim with fifos of `obj` and runtime tensors `host` (both fifos and tensors
/// the same type) on `device`; the body copies one object.
void resolve_blocks(const std::string& device, TensorType obj, TensorType host) {
    ObjectFifo in(obj, "in"), out(obj, "out");
    Worker w(copy, fn_args(in.cons(), out.prod()), {.name = "w"});
    resolve(Program(device, Runtime(fill_drain, fn_args(host, host, in.prod(), out.cons())), {w}, "t"));
}

// A build of 'catalog_bfp_ext(uint8_t* blocks, uint16_t* values)' from catalog_bfp_ext.cc, as
// npusim_add_external_function registers one (the function does nothing): its first parameter takes
// a block tensor (a byte pointer), its second a 2-byte pointee, which a block tensor does not fit.
void catalog_bfp_ext(std::uint8_t*, std::uint16_t*) {}
const bool catalog_bfp_ext_registered = register_external_function(
    {"catalog_bfp_ext", "/catalog/catalog_bfp_ext.cc", {}, {}, external_params(&catalog_bfp_ext), [] {
         return external_invoker(&catalog_bfp_ext);
     }});
} // namespace

void add_block_float(Catalog& c) {
    c.component("Block floating point",
                "v8bfp16ebs8 tensors (DType::bfp16ebs8: a block of 8 values sharing an 8-bit exponent, 9 bytes), "
                "AIE2P only (`frontend/src/resolve/BlockTypes.cpp`).");
    c.site("frontend/src/resolve/BlockTypes.cpp");
    NPUSIM_ERROR(c, "bfp16.npu1_fifo", kDesign,
                 "fifo 'in' (v8bfp16ebs8[32]): block type v8bfp16ebs8 is not supported on npu1_1col: only AIE2P "
                 "(npu2) has the bfp16 datapath (aiecc: \"Block type v8bfp16ebs8 is not supported in the specified "
                 "model\")",
                 resolve_blocks("npu1_1col", bfp(32), bfp(32)));
    NPUSIM_ERROR(c, "bfp16.npu1_runtime", kDesign,
                 "runtime sequence argument 0 (v8bfp16ebs8[32]): block type v8bfp16ebs8 is not supported on npu1_1col: "
                 "only AIE2P (npu2) has the bfp16 datapath (aiecc: \"Block type v8bfp16ebs8 is not supported in the "
                 "specified model\")",
                 resolve_blocks("npu1_1col", tensor<std::uint8_t>({288}), bfp(32)));
    c.site("frontend/src/ExternalFunction.cpp");
    NPUSIM_ERROR(c, "bfp16.kernel_pointer", kDesign,
                 "ExternalFunction 'catalog_bfp_ext': arg_types[1] is v8bfp16ebs8[8] (9 B blocks) but parameter 1 of "
                 "the compiled function points to 2 B elements: a block tensor goes to a byte pointer (bfp16ebs8*, "
                 "int8_t*, uint8_t*) or to a pointer to whole blocks (v64bfp16ebs8*, v128bfp16ebs8*)",
                 ExternalFunction("catalog_bfp_ext", {bfp(8), bfp(8)}, {.source_file = "catalog_bfp_ext.cc"}));
    c.site("frontend/src/RecordedBodyRun.cpp");
    NPUSIM_ERROR(c, "bfp16.scalar_element", kDesign,
                 "worker 'w': worker body 'body': element of type v8bfp16ebs8[32] read or written as a scalar: a "
                 "v8bfp16ebs8 block (8 values sharing one exponent) has no scalar value; convert it in a kernel",
                 ObjectFifo in(bfp(32), "in"), out(bfp(32), "out");
                 iron::recorded::Builder b("body"); b.acquire(0, 1); b.acquire(1, 1);
                 b.load(0, iron::recorded::Operand::imm(0)); b.release(0, 1); b.release(1, 1);
                 Worker w = iron::recorded::make_worker(b.finish(), {.fifos = {in.cons(), out.prod()}}, {.name = "w"});
                 resolve(Program("npu2_1col", Runtime(fill_drain, fn_args(bfp(64), bfp(64), in.prod(), out.cons())),
                                 {w}, "t")));
    c.site("frontend/src/Buffer.cpp");
    NPUSIM_ERROR(c, "bfp16.rtp", kDesign,
                 "buffer 'b' (v8bfp16ebs8[4]): rtp[0] = ...: a v8bfp16ebs8 block (8 values sharing one exponent) has "
                 "no scalar value to set",
                 Buffer(bfp(4), "b").use_write_rtp()[0] = 1);
    c.site("frontend/src/export/MlirTypes.cpp");
    NPUSIM_ERROR(c, "bfp16.export_initial_values", kDesign,
                 "initial values of a v8bfp16ebs8[4] tensor cannot be exported: MLIR's dense attribute holds no "
                 "!aiex.bfp blocks; write them from the runtime sequence instead",
                 ObjectFifo in(bfp(32), "in"), out(bfp(32), "out");
                 Buffer buf(bfp(4), "b", std::vector<std::uint8_t>(36, 1));
                 Worker w([](F i, F o, Buffer) { i.acquire(1); o.acquire(1); i.release(1); o.release(1); },
                          fn_args(in.cons(), out.prod(), buf), {.name = "w"});
                 (void)export_mlir(Program("npu2_1col", Runtime(fill_drain, fn_args(bfp(64), bfp(64), in.prod(),
                                                                                    out.cons())),
                                           {w}, "t")));
}

} // namespace npusim::errcat
