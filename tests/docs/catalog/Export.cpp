// npusim::iron::export_mlir and `npusim export`: bodies the export cannot express, designs it
// refuses, and the command line.
#include "Designs.hpp"

#include "npusim/model/CoreServices.hpp"

namespace npusim::errcat {

namespace {
void fsink(const std::int32_t*, std::int32_t*, float) {}

void isink(const std::int32_t*, std::int32_t*, std::int32_t) {}
void usink(const std::int32_t*, std::int32_t*, std::uint8_t) {}
void vsink(const std::int32_t*) {}

// One worker with `in`, `out` and a Buffer; exported.
template <class Body>
void export_with_buffer(Buffer buf, Body body) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out");
    Worker w(body, fn_args(in.cons(), out.prod(), buf), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, F i, F o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(i32(16), i32(16), in.prod(), out.cons()));
    (void)export_mlir(Program("npu1_1col", rt, {w}, "t"));
}

// One worker passing `in` to `out` with `body`; exported.
template <class Body>
void export_body(Body body) {
    ObjectFifo in(i32(16), "in"), out(i32(16), "out");
    Worker w(body, fn_args(in.cons(), out.prod()), {.name = "w"});
    Runtime rt(
        [](RuntimeData a, RuntimeData b, F i, F o) {
            i.fill(a);
            o.drain(b, {.wait = true});
        },
        fn_args(i32(16), i32(16), in.prod(), out.cons()));
    (void)export_mlir(Program("npu1_1col", rt, {w}, "t"));
}
} // namespace

void add_export(Catalog& c) {
    c.component("MLIR export", "What `npusim export` / `export_mlir` cannot express in IRON's AIE-dialect module "
                               "(`frontend/src/export/`, docs/export.md).");
    c.site("frontend/src/export/BodyRecorder.cpp");
    NPUSIM_ERROR(c, "export.inline_write", kDesign,
                 "worker 'w': cannot export its body: it writes i32[16] of 'out' through as<T>() or a pointer (only a "
                 "value written with at<T>(i), IRON's buf[i] = v, has an op in the export: memref.store)",
                 export_body([](F i, F o) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     b.as<std::int32_t>()[0] = a.as<std::int32_t>()[0] + 1;
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.computed_store", kDesign,
                 "worker 'w': cannot export its body: it stores into 'out' a value that no single arith op of the "
                 "values it loaded gives (the export writes a copy, or +, -, *, max, min, &, |, ^ of two loaded values "
                 "or of one and an integer constant; do the rest in a Kernel)",
                 export_body([](F i, F o) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     const std::int32_t x = a.at<std::int32_t>(0), y = a.at<std::int32_t>(1);
                     b.at<std::int32_t>(0) = x * y + 1; // two ops
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.data_dependent", kDesign,
                 "worker 'w': cannot export its body: two iterations of the body differ (control flow that depends "
                 "on element data or on state the body keeps has no static form; IRON traces a body once)",
                 export_body([](F i, F o) {
                     auto a = i.acquire(1);
                     if (a.at<std::int32_t>(0) == 0) {
                         o.acquire(1);
                         o.release(1);
                     }
                     i.release(1);
                 }));
    NPUSIM_ERROR(c, "export.range_index", kDesign,
                 "worker 'w': cannot export its body: range_(0, 2, 1) body differs between two iterations (it uses "
                 "the loop index other than in element indices, or element data, in a way the export cannot "
                 "express)",
                 export_body([](F i, F o) {
                     range_(2, [&](std::int64_t n) {
                         if (n == 0) {
                             i.acquire(1);
                             i.release(1);
                         }
                     });
                     o.acquire(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.index_expression", kDesign,
                 "worker 'w': cannot export its body: range_(0, 4, 1): an element index is 1, 4 and 9 where the loop "
                 "index is 1, 2 and 3 (only an index of the form coef * i + offset has ops in the export)",
                 export_body([](F i, F o) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     range_(4, [&](std::int64_t n) { b.at<std::int32_t>(n * n) = a.at<std::int32_t>(n); });
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.endless", kDesign,
                 "worker 'w': cannot export its body: one iteration emitted more than 200000 ops, so the body does "
                 "not return (a C++ loop that never ends, e.g. for (;;) in a while_true=false worker); write it as "
                 "range_(...) so it exports as one scf.for, as IRON's range_(sys.maxsize)",
                 export_body([](F i, F) {
                     for (;;) {
                         i.acquire(1);
                         i.release(1);
                     }
                 }));
    NPUSIM_ERROR(c, "export.view_read", kDesign,
                 "worker 'w': cannot export its body: it reads i32[16] of 'in' through as<T>() for something other "
                 "than a kernel argument (a value read so has no op in the export; read single values with "
                 "at<T>(i), IRON's buf[i], which exports as memref.load)",
                 export_body([](F i, F) {
                     auto a = i.acquire(1);
                     [[maybe_unused]] const auto sum = a.as<std::int32_t>()[0] + a.as<std::int32_t>()[1];
                     i.release(1);
                 }));
    NPUSIM_ERROR(c, "export.computed_scalar", kDesign,
                 "worker 'w': cannot export its body: kernel 'k' argument 2 is computed from element data in the "
                 "body (only a value read with at<T>(i) and passed as it is, or narrowed, has ops in the export: "
                 "memref.load, arith.trunci)",
                 Kernel k("k", &isink, {i32(16), i32(16), scalar<std::int32_t>()});
                 export_body([k](F i, F o) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     k(a, b, a.at<std::int32_t>(0) + 1);
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.ambiguous_view", kDesign,
                 "worker 'w': cannot export its body: kernel 'k' argument 2 is one of several values of 'big' read "
                 "through as<T>() with the same low bits; read it with at<T>(i) so the export knows which "
                 "(memref.load)",
                 Kernel k("k", &usink, {i32(16), i32(16), scalar<std::uint8_t>()});
                 export_with_buffer(Buffer(i32(512), "big"), [k](F i, F o, Buffer big) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     k(a, b, static_cast<std::uint8_t>(big.as<std::int32_t>()[5]));
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.float_store", kDesign,
                 "worker 'w': cannot export its body: it stores a floating-point constant into 'acc' (f32[4]) outside "
                 "a kernel (only integer constants and values computed from loads are exported as memref.store; do it "
                 "in a Kernel)",
                 export_with_buffer(Buffer(tensor<float>({4}), "acc"), [](F i, F, Buffer acc) {
                     i.acquire(1);
                     acc.at<float>(0) = 0.5f;
                     i.release(1);
                 }));
    c.internal("export.foreign_memory",
               "worker 'w': cannot export its body: it accesses 'x', memory that is neither an acquired element nor "
               "a Buffer among the worker's fn_args",
               "Element views reach a body only through acquire() and Buffer; an Element built by hand over other "
               "memory and indexed in the body reaches this.");
    NPUSIM_ERROR(c, "export.float_scalar", kDesign,
                 "worker 'w': cannot export its body: kernel 'f' argument 2 is a floating-point scalar",
                 Kernel k("f", &fsink, {i32(16), i32(16), scalar<float>()});
                 export_body([k](F i, F o) {
                     auto a = i.acquire(1);
                     auto b = o.acquire(1);
                     k(a, b, 1.5f);
                     i.release(1);
                     o.release(1);
                 }));
    NPUSIM_ERROR(c, "export.cascade_word", kDesign,
                 "worker 'w': cannot export its body: cascade_put moves a 64-byte word that does not lie within "
                 "i32[16] of 'in' at a value boundary",
                 export_body([](F i, F) {
                     auto a = i.acquire(1);
                     cascade_put(a.data() + 8); // 8 bytes in: the word runs past the element's end
                     i.release(1);
                 }));
    c.internal("export.cascade_foreign",
               "worker 'w': cannot export its body: cascade_get moves a word that is neither in an acquired element "
               "nor in a Buffer among the worker's fn_args",
               "A cascade word of the design API is an element's or a Buffer's memory; only a word in a local "
               "array of the body reaches this (resolve's trace does not look at cascade words).");
    NPUSIM_ERROR(c, "export.stream_put", kDesign,
                 "worker 'w': cannot export its body: stream_put in the body (IRON puts stream-port words inside "
                 "kernels, with put_ms)",
                 export_body([](F, F) { model::CoreServices::current()->stream_put(1); }));
    NPUSIM_ERROR(c, "export.stream_get", kDesign,
                 "worker 'w': cannot export its body: stream_get in the body (IRON gets stream-port words inside "
                 "kernels, with get_ss)",
                 export_body([](F, F) { (void)model::CoreServices::current()->stream_get(); }));
    c.internal("export.not_an_arg",
               "worker 'w': cannot export its body: acquire() on a fifo handle that is not among "
               "the worker's fn_args",
               "resolve() traces the body first and refuses a handle outside the worker's fn_args with its own "
               "message (trace.*); the same holds for release() and for a Buffer ('a Buffer that is not among the "
               "worker's fn_args').");
    c.internal("export.raw_kernel_call",
               "worker 'w': cannot export its body: kernel 'k' is called without its "
               "arguments (not through npusim::iron::Kernel)",
               "Every kernel call of the design API goes through Kernel, which the exporter records with its "
               "arguments; only code calling model::CoreServices directly reaches this.");
    // A view of a Buffer made in the body (aie.extras memref.view, RecordedBody element_view, an
    // Element over part of b.view()) exports as memref.view, which takes a 1-D i8 source.
    NPUSIM_ERROR(c, "export.view_source", kDesign,
                 "worker 'w': cannot export its body: kernel 'k' argument 0 is part of 'wts' (i32[16], at byte 32): "
                 "the op that gives such a view, memref.view, takes a 1-D i8 source",
                 static const TensorType part = i32(8); static const std::string wts = "wts";
                 export_with_buffer(Buffer(i32(16), wts), [](F, F, Buffer b) {
                     Kernel("k", &vsink, {i32(8)})(Element(b.view().data() + 32, &part, &wts));
                 }));
    c.internal("export.foreign_view",
               "worker 'w': cannot export its body: kernel 'k' argument 0 views memory that "
               "is neither an acquired element nor a Buffer",
               "Every Element of the design API points into an acquired element or a Buffer; only a view built "
               "from a raw pointer reaches this.");
    c.internal("export.shape",
               "worker 'w': cannot export its body: kernel 'k' argument 0 is i32[4,4] where i32[2,8] "
               "is declared",
               "Kernel's own check (kernel.*) compares element counts; a multi-dimensional parameter of another "
               "shape with the same count is refused here (only 1-D parameters get IRON's collapse_shape).");
    c.internal("export.body_threw", "worker 'w': body threw while it was exported: boom",
               "resolve() runs every body first (its trace) and reports a throwing body with its own message.");
    c.site("frontend/src/export/ModuleExporter.cpp");
    NPUSIM_ERROR(c, "export.trace", kDesign,
                 "design 't': cannot export enable_trace: the trace configuration IRON emits (aie.trace ops) is not "
                 "exported; export the design without trace",
                 ObjectFifo in(i32(16), "in"), out(i32(16), "out");
                 Worker w([](F, F) {}, fn_args(in.cons(), out.prod()), {.name = "w"}); Runtime rt(
                     [](RuntimeData a, RuntimeData b, F i, F o) {
                         i.fill(a);
                         o.drain(b, {.wait = true});
                     },
                     fn_args(i32(16), i32(16), in.prod(), out.cons()));
                 Program p("npu1_1col", rt, {w}, "t"); p.enable_trace(8192); (void)export_mlir(p));
    c.internal("export.shared_barrier",
               "worker 'b': cannot export WorkerRuntimeBarrier 'x', which another worker "
               "also takes: IRON gives each worker's barrier argument its own aie.lock and "
               "the export cannot tell which one set() means",
               "resolve() gives each barrier one lock on one worker's tile and refuses a barrier shared by two "
               "workers before the export gets here.");
    c.internal("export.generic_device", "MLIR export: device 'npu9' is not a case of mlir-aie's AIEDevice enum",
               "Programs are built on npusim's devices by name (npu1, npu1_1col..3col, npu2, npu2_1col..7col), every "
               "one a case of the enum (std::logic_error).");
    c.site("frontend/src/export/MlirIr.cpp");
    c.internal("export.generic_untyped", "MLIR export: value %3 has no type for the generic form",
               "Every op that defines a value and every block argument gets its type where the exporter builds it "
               "(std::logic_error; the tools:export-mlir-opt test prints every registered design's generic form).");
    c.internal("export.generic_missing", "MLIR export: an op has no generic form: aie.end",
               "Every op the exporter builds is given its generic form where it is built (std::logic_error).");
    c.site("frontend/src/export/SequenceExporter.cpp");
    c.internal("export.rtp_dtype",
               "buffer 'p': cannot export a runtime-sequence write of 2 B at offset 0 into "
               "i16[4]: IRON writes whole i32 elements (rtp_buf[i] = v)",
               "Only reachable with a Buffer of another element type than i32 written from the sequence.");
    c.internal("export.barrier_unused",
               "WorkerRuntimeBarrier 'x' is set by the runtime sequence but no worker takes it",
               "resolve() refuses the same design first (barrier.*).");
    c.site("tools/ExportCommand.cpp");
    c.cli("export.no_design", kUsage, "export: which design? (see `npusim list`)", {"export"});
    c.cli("export.unknown_option", kUsage, "export: unknown option '--fast'", {"export", "memcpy", "--fast"});
    c.cli("export.extra_argument", kUsage, "export: unexpected argument 'b'", {"export", "memcpy", "b"});
    c.cli("export.link_with", kUsage, "--link-with expects KERNEL=FILE.o, got 'k'",
          {"export", "memcpy", "--link-with", "k"});
    c.site("frontend/src/export/ModuleExporter.cpp");
    c.cli("export.link_with_unknown", kDesign, "--link-with nope=x.o: the design calls no kernel 'nope' (its kernels: "
                                               "passThroughLine)",
          {"export", "passthrough_kernel", "--link-with", "nope=x.o"});
    c.site("tools/ExportCommand.cpp");
    c.cli("export.chess_alone", kUsage,
          "export: --chess and --full-elf choose what --print-commands prints; give --print-commands",
          {"export", "memcpy", "--chess"});
    c.cli("export.o_empty", kUsage, "-o needs a file name", {"export", "memcpy", "-o", ""});
    c.site("tools/OutputPaths.cpp");
    c.cli("export.o_write", kFile, "cannot write -o '/nonexistent/x.mlir': No such file or directory",
          {"export", "memcpy", "-o", "/nonexistent/x.mlir"});
    c.site("tools/ExportCommand.cpp");
    c.cli("export.o_full", kFile, "cannot write -o '/dev/full': No space left on device",
          {"export", "memcpy", "-o", "/dev/full"});
    c.site("frontend/src/ControlFlow.cpp");
    NPUSIM_ERROR(c, "export.range_step", kDesign,
                 "worker 'w': range_ with step 0: the step must be positive (scf.for: \"constant step operand must "
                 "be positive\")",
                 export_body([](F i, F) {
                     range_(0, 4, 0, [&](std::int64_t) {
                         i.acquire(1);
                         i.release(1);
                     });
                 }));
}

} // namespace npusim::errcat
