// ScratchpadParameter errors (frontend/src/ScratchpadParameter.cpp, the resolve pass
// frontend/src/resolve/ScratchpadLowering.cpp, the run's scratchpad in sim/ and the harness).
#include "Designs.hpp"

#include "npusim/harness/DesignInstance.hpp"

#include <fmt/format.h>

namespace npusim::errcat {

namespace {
/// A worker 'w' reading `reads` of `params` (an i32 each) into its output object, with the
/// sequence `seq` over (a, b); fifos 'in' (4 x i32) and 'out'.
Program spad(std::vector<ScratchpadParameter> params, std::vector<ScratchpadParameter> reads,
             std::function<void(RuntimeData, RuntimeData, F, F)> seq = fill_drain, std::string device = "npu2_1col") {
    ObjectFifo in(i32(4), "in"), out(i32(4), "out");
    Worker w(
        [reads](F i, F o, const std::vector<ScratchpadParameter>&) {
            for (const auto& p : reads) (void)p.read<std::int32_t>();
            copy(i, o);
        },
        fn_args(in.cons(), out.prod(), params), {.name = "w"});
    Runtime rt(std::move(seq), fn_args(i32(8), i32(4), in.prod(), out.cons()));
    return Program(device, rt, {w}, "t");
}
Seq fill_with_offset(ScratchpadParameter p, bool sync_after = false) {
    return [p, sync_after](RuntimeData a, RuntimeData b, F in, F out) {
        in.fill(a, {.tap = TensorAccessPattern({8}, 0, {4}, {1}), .offset_parameter = p});
        if (sync_after) sync_parameters();
        out.drain(b, {.wait = true});
    };
}
} // namespace

void add_scratchpad(Catalog& c) {
    c.component("ScratchpadParameter",
                "Host-set parameters read by cores or offsetting a transfer, lowered as aiecc's "
                "aie-lower-scratchpad-parameters does (`frontend/src/ScratchpadParameter.cpp`, "
                "`frontend/src/resolve/ScratchpadLowering.cpp`). `spad(params, reads, seq)` is a worker 'w' taking "
                "`params` and reading `reads`.");
    c.site("frontend/src/ScratchpadParameter.cpp");
    NPUSIM_ERROR(c, "scratchpad.name", kDesign,
                 "ScratchpadParameter: a name is required (it is the parameter's symbol)",
                 ScratchpadParameter("", DType::i32));
    NPUSIM_ERROR(c, "scratchpad.sync_outside_sequence", kDesign,
                 "sync_parameters() called outside the runtime sequence", sync_parameters());
    NPUSIM_ERROR(c, "scratchpad.read_outside_body", kDesign,
                 "ScratchpadParameter 'p': read() called outside a worker body ('aiex.read_scratchpad_parameter' op "
                 "must be inside an aie.core)",
                 (void)ScratchpadParameter("p", DType::i32).read<std::int32_t>());
    NPUSIM_ERROR(
        c, "scratchpad.f32", kDesign,
        "worker 'w': ScratchpadParameter 'f': f32 parameters are not supported: the scratchpad encoding zeroes "
        "the top 2 bits, which clobbers the sign bit and top exponent bit of an f32. Use bf16 or an integer "
        "type up to i32 instead.",
        ScratchpadParameter f("f", DType::f32);
        resolve(spad({f}, {f})));
    NPUSIM_ERROR(c, "scratchpad.read_type", kDesign,
                 "worker 'w': ScratchpadParameter 'h' is i16: read<i32>() does not match its type",
                 ScratchpadParameter h("h", DType::i16);
                 resolve(spad({h}, {h})));
    c.site("frontend/src/resolve/BodyTracer.cpp");
    NPUSIM_ERROR(c, "scratchpad.undeclared", kDesign,
                 "worker 'w': reads a ScratchpadParameter that no worker takes in its fn_args "
                 "('aiex.read_scratchpad_parameter' op references unknown parameter); pass it in the fn_args of the "
                 "workers that read it",
                 resolve(spad({}, {ScratchpadParameter("p", DType::i32)})));
    c.site("frontend/src/resolve/ScratchpadLowering.cpp");
    NPUSIM_ERROR(c, "scratchpad.npu1", kDesign,
                 "ScratchpadParameter 'p' (read by worker 'w'): scratchpad parameters need the full-ELF flow (aiecc "
                 "--get-full-elf), which npu1_1col (AIE-ML: Phoenix/Hawk Point) does not have; use a Buffer with "
                 "use_write_rtp and a WorkerRuntimeBarrier instead",
                 ScratchpadParameter p("p", DType::i32);
                 resolve(spad({p}, {p}, fill_drain, "npu1_1col")));
    NPUSIM_ERROR(c, "scratchpad.duplicate_name", kDesign,
                 "ScratchpadParameter 'p' is declared by two different objects (redefinition of symbol named 'p'); "
                 "share one object",
                 resolve(spad({ScratchpadParameter("p", DType::i32), ScratchpadParameter("p", DType::i32)}, {})));
    NPUSIM_ERROR(c, "scratchpad.too_many", kDesign,
                 "Module declares 33 parameters but the scratchpad supports at most 32. The scratchpad is a single "
                 "hardware resource shared by all PDIs loaded by a runtime sequence. (parameters: <...>)",
                 std::vector<ScratchpadParameter> many;
                 for (int k = 0; k < 33; ++k) many.emplace_back(fmt::format("p{}", k), DType::i32);
                 resolve(spad(many, {})));
    NPUSIM_ERROR(c, "scratchpad.both_kinds", kDesign,
                 "parameter 'p' is used both as an aiex.read_scratchpad_parameter source (core) and as a DMA "
                 "offset_parameter (addr); a parameter must have a single kind",
                 ScratchpadParameter p("p", DType::i32);
                 resolve(spad({p}, {p}, fill_with_offset(p))));
    NPUSIM_ERROR(c, "scratchpad.offset_type", kDesign, "offset_parameter 'h' must have type i32, got i16.",
                 resolve(spad({}, {}, fill_with_offset(ScratchpadParameter("h", DType::i16)))));
    NPUSIM_ERROR(c, "scratchpad.sync_twice", kDesign,
                 "sync_parameters() is called twice in the runtime sequence: only one 'aiex.npu.create_scratchpad' is "
                 "allowed per runtime sequence",
                 ScratchpadParameter p("p", DType::i32);
                 resolve(spad({p}, {p}, [](RuntimeData a, RuntimeData b, F in, F out) {
                     sync_parameters();
                     sync_parameters();
                     fill_drain(a, b, in, out);
                 })));
    NPUSIM_ERROR(c, "scratchpad.sync_without_parameters", kDesign,
                 "sync_parameters() in a design that declares no ScratchpadParameter (the scratchpad would have size "
                 "0: 'aiex.npu.create_scratchpad' op size must be greater than 0.)",
                 resolve(spad({}, {}, [](RuntimeData a, RuntimeData b, F in, F out) {
                     sync_parameters();
                     fill_drain(a, b, in, out);
                 })));
    c.site("sim/src/SimEngine.cpp");
    NPUSIM_ERROR(c, "scratchpad.too_many_words", kMismatch,
                 "design 't' declares 1 scratchpad parameter(s), 2 scratchpad words were given",
                 ScratchpadParameter p("p", DType::i32);
                 sim::SimOptions o; o.scratchpad = {1, 2}; simulate(spad({p}, {p}), o));
    c.site("sim/src/RuntimeController.cpp");
    NPUSIM_ERROR(c, "scratchpad.offset_past_end", kProtocol,
                 "runtime sequence: task 0 ('in' fill): offset_parameter 'off' = 5 moves the transfer 20 B further, to "
                 "bytes 20..35, past the end of arg0 (32 B)",
                 ScratchpadParameter off("off", DType::i32);
                 sim::SimOptions o; o.scratchpad = {5}; simulate(spad({}, {}, fill_with_offset(off)), o));
    NPUSIM_ERROR(c, "scratchpad.offset_before_sync", kProtocol,
                 "runtime sequence: task 0 ('in' fill) takes its offset from scratchpad parameter 'off' before the "
                 "scratchpad is created: call sync_parameters() before the transfer",
                 simulate(spad({}, {}, fill_with_offset(ScratchpadParameter("off", DType::i32), true))));
    c.internal("scratchpad.update_before_create",
               "runtime sequence: update of buffer '__param_p_0_2_0' from scratchpad entry 0 before the scratchpad "
               "holds it",
               "resolve() emits every update_from_scratchpad after the create_scratchpad of the same sync.");
    c.internal("scratchpad.update_small_buffer",
               "runtime sequence: update_from_scratchpad writes 8 B, buffer '__param_p_0_2_0' has 4 B",
               "resolve() gives every parameter buffer 8 bytes (2 x i32).");
    c.site("sim/src/CoreProcess.cpp");
    c.internal("scratchpad.core_without_buffer",
               "worker 'w': reads a ScratchpadParameter that has no buffer on its tile",
               "resolve() gives every parameter a worker's body reads a buffer on that worker's tile "
               "(scratchpad.undeclared refuses the others).");
    c.site("sim/src/InvariantChecker.cpp");
    c.internal("scratchpad.invariants",
               "shim task 0 ('in' fill) takes its offset from scratchpad parameter 3 of 1; the parameter-sync lock 9 "
               "of worker 'w' is not among the 4 locks; a scratchpad update names parameter 2 of 1 and buffer 0 of 3",
               "Netlist invariants resolve() keeps; only a hand-built netlist breaks them.");
    c.site("harness/src/DesignInstance.cpp");
    NPUSIM_ERROR(c, "scratchpad.unknown_value", kDesign,
                 "design 'd': scratchpad value for unknown parameter 'nope' (the design declares: p)",
                 ScratchpadParameter p("p", DType::i32);
                 harness::DesignInstance inst(
                     spad({p}, {p}), {harness::ArgSpec::input("a", i32(8)), harness::ArgSpec::output("b", i32(4))},
                     {{"a", harness::Tensor(DType::i32, {8})}},
                     [](const harness::Tensors& in) {
                         return harness::Tensors{{"b", in.at("a")}};
                     },
                     "d");
                 inst.set_scratchpad("nope", std::int32_t{1}); (void)inst.scratchpad_words(resolve(inst.program)));
    c.site("frontend/src/export/BodyRecorder.cpp");
    c.internal("scratchpad.export_undeclared",
               "worker 'w': cannot export its body: a ScratchpadParameter that no worker takes in its fn_args (IRON "
               "declares only those: python/iron/program.py)",
               "resolve(), which export_mlir runs first, refuses a read of a parameter no worker declares "
               "(scratchpad.undeclared).");
}

} // namespace npusim::errcat
