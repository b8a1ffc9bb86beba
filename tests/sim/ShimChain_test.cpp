// Shim tasks of chained BDs (shim_dma_bd_chain; IRON: aiex.dma_configure_task with BD blocks
// joined by next_bd, docs/notes/runtime-sequence-semantics.md §2): one queue push runs BD 0, its
// next_bd, ..., the whole chain repeat_count + 1 times; a BD's outermost dim is its iteration,
// advanced once per pass (AIEDMATasksToNPU.cpp L843-866), its inner three dims move once per pass.
#include "npusim/iron.hpp"
#include "npusim/model/ShimChainSteps.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/HostBytes.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::bytes_of;
using npusim::test::values_of;

namespace {
// The shim's MM2S 0 ("in") streams into a compute tile whose worker copies 64-element buffers to
// its MM2S 0, streamed to the shim's S2MM 0 ("out"); `seq` drives both ends.
Program chain_loopback(std::function<void(RuntimeData, RuntimeData)> seq, std::int64_t elements) {
    const Tile shim(0, 0), core(0, 2);
    const auto tile_ty = tensor<std::int32_t>({64});
    Buffer in_buf(tile_ty, "in_buf"), out_buf(tile_ty, "out_buf");
    Lock in_e(core, std::nullopt, 1, "in_e"), in_f(core, std::nullopt, 0, "in_f");
    Lock out_e(core, std::nullopt, 1, "out_e"), out_f(core, std::nullopt, 0, "out_f");
    Worker w(
        [](Buffer in, Buffer out, Lock ie, Lock inf, Lock oe, Lock of) {
            inf.acquire();
            oe.acquire();
            range_(64, [&](std::int64_t i) { out.at<std::int32_t>(i) = in.at<std::int32_t>(i); });
            ie.release();
            of.release();
        },
        fn_args(in_buf, out_buf, in_e, in_f, out_e, out_f), {.tile = core, .name = "copy"});
    TileDma dma(core,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in_buf, .acquires = {{in_e}}, .releases = {{in_f}}}}},
                 DmaChannel{DMAChannelDir::MM2S, 0,
                            {Bd{.buffer = out_buf, .acquires = {{out_f}}, .releases = {{out_e}}}}}},
                "core_dma");
    Runtime rt(seq, fn_args(tensor<std::int32_t>({elements}), tensor<std::int32_t>({elements})));
    rt.add_flow(Flow(shim, core, {.shim_symbol = "in"}));
    rt.add_flow(Flow(core, shim, {.shim_symbol = "out"}));
    for (const auto& l : {in_e, in_f, out_e, out_f}) rt.add_lock(l);
    rt.add_tile_dma(dma);
    return Program("npu1_1col", rt, {w}, "chain_loopback");
}

std::vector<std::int32_t> chain_ramp(std::size_t n) {
    std::vector<std::int32_t> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<std::int32_t>(i * 7 + 5);
    return a;
}
} // namespace

TEST_CASE("a chained shim task runs its BDs in chain order, repeated, each BD's iteration advancing per pass",
          "[sim][chain]") {
    // In: BD 0 moves a[128..255], its next_bd BD 1 a[0..127]. Out: BD 0 writes 64 elements at
    // 0 + pass x 128, BD 1 at 64 + pass x 128 (iteration size 2, stride 128), the chain run twice.
    // So the stream a[128..255] a[0..127] lands in c[0..255] in order: c is a rotated by 128.
    const auto prog = chain_loopback(
        [](RuntimeData a, RuntimeData c) {
            const Task in = shim_dma_bd_chain("in", {{a, TensorAccessPattern({256}, 128, {128}, {1})},
                                                     {a, TensorAccessPattern({256}, 0, {128}, {1})}});
            const Task out = shim_dma_bd_chain(
                "out",
                {{c, TensorAccessPattern({256}, 0, {2, 1, 1, 64}, {128, 0, 0, 1})},
                 {c, TensorAccessPattern({256}, 64, {2, 1, 1, 64}, {128, 0, 0, 1})}},
                {.issue_token = true, .repeat_count = 1});
            dma_start_task(in);
            dma_start_task(out);
            dma_await_task(out);
            dma_free_task(in);
        },
        256);
    const auto net = prog.resolve();
    REQUIRE(net.tasks.size() == 2);
    CHECK(net.tasks[0].chain.size() == 1);
    CHECK(net.tasks[0].chain_passes == 1);
    CHECK(net.tasks[1].chain_passes == 2);
    CHECK(net.tasks[0].bd_id != net.tasks[0].chain[0].bd_id); // a BD id each
    CHECK(net.tasks[1].bytes() == 256 * 4);
    CHECK(model::shim_task_steps(net.tasks[1]) == 4);
    CHECK(model::shim_task_step(net.tasks[1], 2).pattern.min_offset() == 128 * 4); // pass 1 of BD 0
    CHECK(model::shim_task_step(net.tasks[1], 3).pattern.min_offset() == 192 * 4); // pass 1 of BD 1

    const auto a = chain_ramp(256);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(256 * 4)}, {});
    std::vector<std::int32_t> want(a.begin() + 128, a.end());
    want.insert(want.end(), a.begin(), a.begin() + 128);
    CHECK(values_of<std::int32_t>(r.host[1]) == want);
    CHECK(r.warnings.empty());
    CHECK(r.bd_transfers >= 6); // the shim's six BD runs (2 in, 4 out), besides the tile's
}

TEST_CASE("a chained shim task: one BD whose outermost dim is an iteration moves its inner dims once per pass",
          "[sim][chain]") {
    // One BD with sizes [4, 1, 1, 64] (stride 64) and repeat_count 0 moves 64 elements once, as
    // the configured-task lowering makes the outermost dim the BD's iteration; repeat_count 3
    // moves all four pieces.
    auto run = [](int repeat_count) {
        const auto prog = chain_loopback(
            [repeat_count](RuntimeData a, RuntimeData c) {
                const Task in = shim_dma_bd_chain("in", {{a, TensorAccessPattern({256}, 0, {4, 1, 1, 64}, {64, 0, 0, 1})}},
                                                  {.repeat_count = repeat_count});
                const Task out = shim_dma_bd_chain(
                    "out", {{c, TensorAccessPattern({256}, 0, {4, 1, 1, 64}, {64, 0, 0, 1})}},
                    {.issue_token = true, .repeat_count = repeat_count});
                dma_start_task(in);
                dma_start_task(out);
                dma_await_task(out);
                dma_free_task(in);
            },
            256);
        const auto a = chain_ramp(256);
        return values_of<std::int32_t>(
            sim::simulate(prog.resolve(), {bytes_of(a), std::vector<std::uint8_t>(256 * 4)}, {}).host[1]);
    };
    const auto a = chain_ramp(256);
    auto once = std::vector<std::int32_t>(a.begin(), a.begin() + 64);
    once.resize(256, 0);
    CHECK(run(0) == once);
    CHECK(run(3) == a);
}

TEST_CASE("shim_dma_bd_chain: its errors name the symbol and the BD", "[sim][chain]") {
    auto resolve_with = [](std::function<void(RuntimeData, RuntimeData)> seq) {
        return chain_loopback(std::move(seq), 256).resolve();
    };
    CHECK_THROWS_WITH(resolve_with([](RuntimeData a, RuntimeData) {
                          (void)shim_dma_bd_chain("in", {{a, std::nullopt}}, {.repeat_count = 256});
                      }),
                      Catch::Contains("shim_dma_bd_chain('in'): repeat_count 256 is outside 0..255"));
    CHECK_THROWS_WITH(resolve_with([](RuntimeData a, RuntimeData) {
                          (void)shim_dma_bd_chain("in", {{a, std::nullopt},
                                                         {a, TensorAccessPattern({256}, 200, {128}, {1})}});
                      }),
                      Catch::Contains("shim_dma_bd_chain('in'): BD 1 with runtime argument 0"));
    CHECK_THROWS_WITH(resolve_with([](RuntimeData, RuntimeData) { (void)shim_dma_bd_chain("in", {}); }),
                      Catch::Contains("shim_dma_bd_chain('in'): a task needs at least one BD"));
}

TEST_CASE("a chain of shim BDs written register by register (npu_writebd use_next_bd) runs as one task",
          "[sim][chain]") {
    // The same movement as the first case, by registers: BD 0 (a[128..255]) chains to BD 1
    // (a[0..127]) on MM2S 0; BD 2 (64 words, iteration wrap 1 = 2 iterations, step 127 = stride
    // 128 words) chains to BD 3 (64 words at +64 words, the same iteration) on S2MM 0, pushed with
    // repeat_count 1 (AM025 DMA_BD<n>_5..7: iteration and next_bd fields; the push's repeat).
    const auto prog = chain_loopback(
        [](RuntimeData, RuntimeData) {
            npu_writebd({.bd_id = 0, .buffer_length = 128, .next_bd = 1, .use_next_bd = 1});
            npu_address_patch(0x1D004, 0, 128 * 4);
            npu_writebd({.bd_id = 1, .buffer_length = 128});
            npu_address_patch(0x1D024, 0, 0);
            npu_writebd({.bd_id = 2, .buffer_length = 64, .iteration_size = 1, .iteration_stride = 127,
                         .next_bd = 3, .use_next_bd = 1});
            npu_address_patch(0x1D044, 1, 0);
            npu_writebd({.bd_id = 3, .buffer_length = 64, .iteration_size = 1, .iteration_stride = 127});
            npu_address_patch(0x1D064, 1, 64 * 4);
            npu_push_queue(0, 0, 1, 0, false, 0, 0); // MM2S 0: BD 0 -> BD 1, once
            npu_push_queue(0, 0, 0, 0, true, 1, 2); // S2MM 0: BD 2 -> BD 3, twice
            npu_sync(0, 0, 0, 0);
        },
        256);
    const auto net = prog.resolve();
    REQUIRE(net.tasks.size() == 2);
    CHECK(net.tasks[0].chain.size() == 1);
    CHECK(net.tasks[1].chain_passes == 2);
    const auto a = chain_ramp(256);
    const auto r = sim::simulate(net, {bytes_of(a), std::vector<std::uint8_t>(256 * 4)}, {});
    std::vector<std::int32_t> want(a.begin() + 128, a.end());
    want.insert(want.end(), a.begin(), a.begin() + 128);
    CHECK(values_of<std::int32_t>(r.host[1]) == want);
}
