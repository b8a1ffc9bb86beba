// ScratchpadParameter: lowered as aiecc's aie-lower-scratchpad-parameters does
// (lib/Dialect/AIEX/Transforms/AIELowerScratchpadParameters.cpp) and simulated with the host
// library's encoding (runtime_lib/test_lib/parameter_scratchpad.h). The expected values below are
// computed from the documented encoding, not from the code under test: the host writes
// bits << 2, the firmware clears the low 2 bits, the core shifts right by 2 (logical) and
// truncates, so only the low 30 bits of a value survive.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <fmt/format.h>

using namespace npusim;
using namespace npusim::iron;

namespace {

// The round trip of `bits` through the scratchpad, per the host library and the lowering.
std::uint32_t round_trip(std::uint32_t bits) { return ((bits << 2) & 0xFFFFFFFCu) >> 2; }

// One worker (while_true=false) reading an i32, an i16 and a bf16 parameter into out[0..2] (i32).
struct ReadDesign {
    ScratchpadParameter p{"p", DType::i32}, q{"q", DType::i16}, r{"r", DType::bf16};
    ObjectFifo out{tensor<std::int32_t>({4}), "out"};
    Worker w{[](ObjectFifoHandle o, ScratchpadParameter a, ScratchpadParameter b, ScratchpadParameter c) {
                 auto e = o.acquire(1);
                 e.at<std::int32_t>(0) = a.read<std::int32_t>();
                 e.at<std::int32_t>(1) = b.read<std::int16_t>();
                 e.at<std::int32_t>(2) = c.read<bfloat16>().bits;
                 o.release(1);
             },
             fn_args(out.prod(), p, q, r), WorkerOptions{.while_true = false, .name = "reader"}};
    Runtime rt;
    explicit ReadDesign(bool sync_after_drain = false)
        : rt(
              [sync_after_drain](RuntimeData c, ObjectFifoHandle o) {
                  if (sync_after_drain) { // the group's finish awaits the drain, then the sync
                      TaskGroup tg;
                      o.drain(c, {.wait = true, .group = &tg});
                      tg.finish();
                      sync_parameters();
                  } else {
                      o.drain(c, {.wait = true});
                  }
              },
              fn_args(tensor<std::int32_t>({4}), out.cons())) {}
    model::Netlist resolve(const std::string& dev = "npu2_1col") { return Program(dev, rt, {w}, "reader").resolve(); }
};

std::vector<std::int32_t> run(const model::Netlist& net, std::vector<std::uint32_t> words) {
    sim::SimOptions so;
    so.scratchpad = std::move(words);
    const auto r = sim::simulate(net, {std::vector<std::uint8_t>(16)}, so);
    std::vector<std::int32_t> c(4);
    std::memcpy(c.data(), r.host[0].data(), 16);
    return c;
}

} // namespace

TEST_CASE("scratchpad parameters lower to a buffer per reading core, a sync lock and the sequence's sync",
          "[sim][scratchpad]") {
    ReadDesign d;
    const auto net = d.resolve();
    // Module order: the workers' fn_args (program.py resolve_program); all three are read: "core".
    REQUIRE(net.scratchpad_params.size() == 3);
    CHECK(net.scratchpad_params[0].name == "p");
    CHECK(net.scratchpad_params[2].dtype == DType::bf16);
    for (const auto& sp : net.scratchpad_params) CHECK(sp.kind == model::ScratchpadParam::Kind::Core);
    // allocateBuffers: __param_<name>_<col>_<row>_<counter>, 2 x i32, one counter per device.
    const auto& core = net.cores.at(0);
    REQUIRE(core.params.size() == 3);
    const std::vector<std::string> names{"__param_p_0_2_0", "__param_q_0_2_1", "__param_r_0_2_2"};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& b = net.buffers.at(static_cast<std::size_t>(core.params[i].buffer));
        CHECK(b.name == names[i]);
        CHECK(b.bytes == 8);
        CHECK(b.tile == core.tile);
    }
    // emitCorePreambles: a lock with value 0 on the core's tile.
    REQUIRE(core.param_sync_lock >= 0);
    CHECK(net.locks.at(static_cast<std::size_t>(core.param_sync_lock)).init == 0);
    CHECK(net.locks.at(static_cast<std::size_t>(core.param_sync_lock)).tile == core.tile);
    // No sync_parameters(): the sync is the sequence's first instructions (emitSequencePreambles),
    // lowered as create_scratchpad, per buffer write32(0) + update_from_scratchpad, set_lock(1).
    using K = model::RuntimeOp::Kind;
    const std::vector<K> want{K::CreateScratchpad,
                              K::WriteBuffer,
                              K::UpdateFromScratchpad,
                              K::WriteBuffer,
                              K::UpdateFromScratchpad,
                              K::WriteBuffer,
                              K::UpdateFromScratchpad,
                              K::SetLock,
                              K::StartTask,
                              K::AwaitTask,
                              K::FreeTask};
    REQUIRE(net.sequence.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(net.sequence[i].kind == want[i]);
    CHECK(net.sequence[2].value == 0);
    CHECK(net.sequence[6].value == 2);
    CHECK(net.sequence[7].lock == core.param_sync_lock);
    CHECK(net.sequence[7].value == 1);
    CHECK(net.dump().find("scratchpad parameters:") != std::string::npos);
}

TEST_CASE("a core reads the values the host set for the run, through the 30-bit encoding", "[sim][scratchpad]") {
    ReadDesign d;
    const auto net = d.resolve();
    auto host = [](std::uint32_t bits) { return bits << 2; }; // ParameterScratchpad::writeBits, core kind
    const std::uint16_t q_bits = static_cast<std::uint16_t>(std::int16_t{-5});
    const std::uint16_t r_bits = bfloat16(2.5f).bits;
    auto c = run(net, {host(1000), host(q_bits), host(r_bits)});
    CHECK(c[0] == 1000);
    CHECK(c[1] == -5); // i16: trunci of the 30-bit value keeps the sign
    CHECK(c[2] == r_bits);
    CHECK(c[3] == 0);
    // The same netlist, other values: one xclbin serves every value.
    c = run(net, {host(static_cast<std::uint32_t>(-1)), host(0x40000000u), host(bfloat16(-3.0f).bits)});
    CHECK(static_cast<std::uint32_t>(c[0]) == round_trip(0xFFFFFFFFu)); // an i32 -1 arrives as 2^30 - 1
    CHECK(c[0] == 0x3FFFFFFF);
    CHECK(c[1] == 0); // 2^30 does not survive
    CHECK(static_cast<std::uint16_t>(c[2]) == bfloat16(-3.0f).bits);
    // Words not given are 0, as the host library clears the scratchpad.
    c = run(net, {host(7)});
    CHECK(c == std::vector<std::int32_t>{7, 0, 0, 0});
    sim::SimOptions so;
    so.scratchpad = {1, 2, 3, 4};
    CHECK_THROWS_WITH(sim::simulate(net, {std::vector<std::uint8_t>(16)}, so),
                      "design 'reader' declares 3 scratchpad parameter(s), 4 scratchpad words were given");
}

TEST_CASE("a sync placed after the drain the core must feed hangs, and the diagnosis names the sync",
          "[sim][scratchpad]") {
    ReadDesign d(true);
    const auto net = d.resolve();
    // sync_parameters() marks where the sync goes; none is added at the start.
    CHECK(net.sequence.front().kind == model::RuntimeOp::Kind::StartTask);
    try {
        (void)run(net, {});
        FAIL("expected a deadlock");
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Deadlock);
        CHECK_THAT(e.what(),
                   Catch::Contains("worker 'reader' on (0,2) waits in the scratchpad parameter sync (acquire == 1 "
                                   "before its body): lock __param_sync_lock_0_2 on (0,2) is 0, needs == 1; "
                                   "set by the runtime sequence (to 1)"));
    }
}

TEST_CASE("an offset_parameter moves a fill's start by the host's value in elements", "[sim][scratchpad]") {
    ScratchpadParameter off("input_offset", DType::i32);
    ObjectFifo in(tensor<std::int32_t>({8}), "objfifo_in"), out(tensor<std::int32_t>({8}), "objfifo_out");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto a = i.acquire(1);
            auto b = o.acquire(1);
            for (int k = 0; k < 8; ++k) b.at<std::int32_t>(k) = a.at<std::int32_t>(k);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod()), {.while_true = false, .name = "copy"});
    Runtime rt(
        [off](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a, {.tap = TensorAccessPattern({32}, 0, {1, 1, 1, 8}, {0, 0, 0, 1}), .offset_parameter = off});
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), tensor<std::int32_t>({8}), in.prod(), out.cons()));
    const auto net = Program("npu2_1col", rt, {w}, "offset").resolve();
    REQUIRE(net.scratchpad_params.size() == 1);
    CHECK(net.scratchpad_params[0].kind == model::ScratchpadParam::Kind::Addr);
    CHECK(net.sequence.front().kind == model::RuntimeOp::Kind::CreateScratchpad); // no reads: no lock, no buffer
    CHECK(net.sequence.at(1).kind == model::RuntimeOp::Kind::StartTask);
    CHECK(net.tasks.at(0).offset_param == 0);
    CHECK(net.tasks.at(0).offset_param_scale == 4);
    std::vector<std::uint8_t> a(128);
    for (std::int32_t k = 0; k < 32; ++k) std::memcpy(a.data() + 4 * k, &k, 4);
    for (std::uint32_t offset : {0u, 8u, 16u, 24u}) { // the upstream test's 0, 8, 16 and the last that fits
        sim::SimOptions so;
        so.scratchpad = {offset}; // an addr parameter is written raw
        const auto r = sim::simulate(net, {a, std::vector<std::uint8_t>(32)}, so);
        std::vector<std::int32_t> c(8);
        std::memcpy(c.data(), r.host[1].data(), 32);
        for (std::int32_t k = 0; k < 8; ++k)
            REQUIRE(c[static_cast<std::size_t>(k)] == static_cast<std::int32_t>(offset) + k);
    }
    sim::SimOptions so;
    so.scratchpad = {25};
    CHECK_THROWS_WITH(sim::simulate(net, {a, std::vector<std::uint8_t>(32)}, so),
                      Catch::Contains("offset_parameter 'input_offset' = 25 moves the transfer 100 B further, to "
                                      "bytes 100..131, past the end of arg0 (128 B)"));
}

TEST_CASE("scratchpad parameter errors quote the toolchain", "[sim][scratchpad][errors]") {
    SECTION("npu1 has no full-ELF flow") {
        ReadDesign d;
        CHECK_THROWS_WITH(
            d.resolve("npu1_1col"),
            "ScratchpadParameter 'p' (read by worker 'reader'): scratchpad parameters need the full-ELF "
            "flow (aiecc --get-full-elf), which npu1_1col (AIE-ML: Phoenix/Hawk Point) does not have; use "
            "a Buffer with use_write_rtp and a WorkerRuntimeBarrier instead");
    }
    SECTION("reads outside a body, of the wrong type, of f32") {
        ScratchpadParameter p("p", DType::i32), f("f", DType::f32);
        CHECK_THROWS_WITH(p.read<std::int32_t>(), "ScratchpadParameter 'p': read() called outside a worker body "
                                                  "('aiex.read_scratchpad_parameter' op must be inside an aie.core)");
        CHECK_THROWS_WITH(sync_parameters(), "sync_parameters() called outside the runtime sequence");
        CHECK_THROWS_WITH(ScratchpadParameter("", DType::i32),
                          "ScratchpadParameter: a name is required (it is the parameter's symbol)");
        ObjectFifo o(tensor<std::int32_t>({4}), "o");
        Runtime rt([](RuntimeData c, ObjectFifoHandle h) { h.drain(c, {.wait = true}); },
                   fn_args(tensor<std::int32_t>({4}), o.cons()));
        Worker wf(
            [](ObjectFifoHandle h, ScratchpadParameter x) {
                (void)x.read<float>();
                h.acquire(1);
                h.release(1);
            },
            fn_args(o.prod(), f), {.name = "wf"});
        CHECK_THROWS_WITH(Program("npu2", rt, {wf}).resolve(),
                          "worker 'wf': ScratchpadParameter 'f': f32 parameters are not supported: the scratchpad "
                          "encoding zeroes the top 2 bits, which clobbers the sign bit and top exponent bit of an f32. "
                          "Use bf16 or an integer type up to i32 instead.");
    }
    SECTION("a read of a parameter no worker declares, a type mismatch") {
        ScratchpadParameter p("p", DType::i32);
        ObjectFifo o(tensor<std::int32_t>({4}), "o");
        Runtime rt([](RuntimeData c, ObjectFifoHandle h) { h.drain(c, {.wait = true}); },
                   fn_args(tensor<std::int32_t>({4}), o.cons()));
        Worker w(
            [p](ObjectFifoHandle h) {
                (void)p.read<std::int32_t>();
                h.acquire(1);
                h.release(1);
            },
            fn_args(o.prod()), {.name = "w"});
        CHECK_THROWS_WITH(Program("npu2", rt, {w}).resolve(),
                          "worker 'w': reads a ScratchpadParameter that no worker takes in its fn_args "
                          "('aiex.read_scratchpad_parameter' op references unknown parameter); pass it in the fn_args "
                          "of the workers that read it");
        ObjectFifo o2(tensor<std::int32_t>({4}), "o2");
        Runtime rt2([](RuntimeData c, ObjectFifoHandle h) { h.drain(c, {.wait = true}); },
                    fn_args(tensor<std::int32_t>({4}), o2.cons()));
        Worker w2(
            [](ObjectFifoHandle h, ScratchpadParameter x) {
                (void)x.read<std::int16_t>();
                h.acquire(1);
                h.release(1);
            },
            fn_args(o2.prod(), p), {.name = "w2"});
        CHECK_THROWS_WITH(Program("npu2", rt2, {w2}).resolve(),
                          "worker 'w2': ScratchpadParameter 'p' is i32: read<i16>() does not match its type");
    }
    SECTION("sync twice, sync without parameters") {
        ObjectFifo o(tensor<std::int32_t>({4}), "o");
        Worker w(
            [](ObjectFifoHandle h) {
                h.acquire(1);
                h.release(1);
            },
            fn_args(o.prod()), {.name = "w"});
        Runtime none(
            [](RuntimeData c, ObjectFifoHandle h) {
                sync_parameters();
                h.drain(c, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({4}), o.cons()));
        CHECK_THROWS_WITH(Program("npu2", none, {w}).resolve(),
                          "sync_parameters() in a design that declares no ScratchpadParameter (the scratchpad would "
                          "have size 0: 'aiex.npu.create_scratchpad' op size must be greater than 0.)");
        ReadDesign d;
        Runtime twice(
            [](RuntimeData c, ObjectFifoHandle h) {
                sync_parameters();
                sync_parameters();
                h.drain(c, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({4}), d.out.cons()));
        CHECK_THROWS_WITH(Program("npu2", twice, {d.w}).resolve(),
                          "sync_parameters() is called twice in the runtime sequence: only one "
                          "'aiex.npu.create_scratchpad' is allowed per runtime sequence");
    }
    SECTION("one name twice, a parameter of both kinds, a non-i32 offset, more than 32") {
        ObjectFifo in(tensor<std::int32_t>({4}), "in"), o(tensor<std::int32_t>({4}), "o");
        ScratchpadParameter a("a", DType::i32), a2("a", DType::i32), h16("h", DType::i16);
        auto body = [](ObjectFifoHandle i, ObjectFifoHandle h, ScratchpadParameter x) {
            (void)x.read<std::int32_t>();
            i.acquire(1);
            h.acquire(1);
            i.release(1);
            h.release(1);
        };
        Worker w(body, fn_args(in.cons(), o.prod(), a), {.name = "w"});
        auto seq = [&in, &o](ScratchpadParameter param) {
            return Runtime(
                [param](RuntimeData x, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle h) {
                    i.fill(x, {.offset_parameter = param});
                    h.drain(c, {.wait = true});
                },
                fn_args(tensor<std::int32_t>({8}), tensor<std::int32_t>({4}), in.prod(), o.cons()));
        };
        CHECK_THROWS_WITH(Program("npu2", seq(a2), {w}).resolve(),
                          "ScratchpadParameter 'a' is declared by two different objects (redefinition of symbol named "
                          "'a'); share one object");
        CHECK_THROWS_WITH(Program("npu2", seq(a), {w}).resolve(),
                          "parameter 'a' is used both as an aiex.read_scratchpad_parameter source (core) and as a DMA "
                          "offset_parameter (addr); a parameter must have a single kind");
        CHECK_THROWS_WITH(Program("npu2", seq(h16), {w}).resolve(),
                          "offset_parameter 'h' must have type i32, got i16.");
        std::vector<ScratchpadParameter> many;
        for (int k = 0; k < 33; ++k) many.emplace_back(fmt::format("p{}", k), DType::i32);
        ObjectFifo in2(tensor<std::int32_t>({4}), "in2"), o2(tensor<std::int32_t>({4}), "o2");
        Worker wm(
            [](ObjectFifoHandle i, ObjectFifoHandle h, const std::vector<ScratchpadParameter>&) {
                i.acquire(1);
                h.acquire(1);
                i.release(1);
                h.release(1);
            },
            fn_args(in2.cons(), o2.prod(), many), {.name = "wm"});
        Runtime plain(
            [](RuntimeData x, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle h) {
                i.fill(x);
                h.drain(c, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({4}), tensor<std::int32_t>({4}), in2.prod(), o2.cons()));
        CHECK_THROWS_WITH(Program("npu2", plain, {wm}).resolve(),
                          Catch::StartsWith("Module declares 33 parameters but the scratchpad supports at most 32. The "
                                            "scratchpad is a single hardware resource shared by all PDIs loaded by a "
                                            "runtime sequence. (parameters: 'p0', 'p1', "));
    }
}

TEST_CASE("an offset_parameter used before the sync is an error at its push", "[sim][scratchpad][errors]") {
    ScratchpadParameter off("off", DType::i32);
    ObjectFifo in(tensor<std::int32_t>({4}), "in"), out(tensor<std::int32_t>({4}), "out");
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o) {
            i.acquire(1);
            o.acquire(1);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod()), {.while_true = false, .name = "w"});
    Runtime rt(
        [off](RuntimeData a, RuntimeData c, ObjectFifoHandle i, ObjectFifoHandle o) {
            i.fill(a, {.tap = TensorAccessPattern({8}, 0, {1, 1, 1, 4}, {0, 0, 0, 1}), .offset_parameter = off});
            sync_parameters();
            o.drain(c, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({8}), tensor<std::int32_t>({4}), in.prod(), out.cons()));
    const auto net = Program("npu2_1col", rt, {w}, "early").resolve();
    CHECK_THROWS_WITH(sim::simulate(net, {std::vector<std::uint8_t>(32), std::vector<std::uint8_t>(16)}, {}),
                      Catch::Contains("takes its offset from scratchpad parameter 'off' before the scratchpad is "
                                      "created: call sync_parameters() before the transfer"));
}
