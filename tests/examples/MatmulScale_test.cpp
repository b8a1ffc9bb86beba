// E7 matmul_whole_array on every column count IRON's whole_array.py offers (--n-aie-cols 1, 2, 4,
// 8: mlir-aie programming_examples/basic/matrix_multiplication/whole_array/whole_array.py L452;
// NPU1 up to 4, L104-105), with A distributed as IRON does over fewer columns (n_shim_mem_A,
// n_A_tiles_per_shim, L125-130); and E6/E7 at 4096 x 4096 x 4096, whose runtime sequences must stay
// within the shim's 16 BD ids and 4-deep task queues (IRON groups the transfers: tb_max_n_rows,
// L246-247, finish, L339-342). The big sizes are resolved only (the netlist's tasks and BD ids,
// no kernel runs); docs/performance.md has the wall time of a full 4096^3 simulation.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/Error.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

using namespace npusim;
using namespace npusim::harness;

namespace {

model::Netlist resolve(const std::string& design, const std::string& device, const Params& overrides) {
    const auto& spec = design_by_name(design);
    auto inst = spec.build(model::device_by_name(device), spec.resolve_params(overrides), 1);
    return inst.program.resolve();
}

struct SequenceUse {
    std::size_t tasks = 0;
    int max_queued = 0; ///< most tasks started on one shim channel and not yet awaited or freed
    int max_bds = 0; ///< most BD ids held at once on one shim tile
    int groups = 0; ///< awaits of a drain (one per drain: a task group's finish)
};

// Walks the runtime sequence: a task holds its channel's queue slot and its BD id from its start
// until the sequence awaits it (an await takes the channel's oldest token: every earlier task of
// that channel has completed) or frees it. In the simulation a fill retires no later than that,
// because the drain awaited before the free needs all of its data; so these maxima bound what the
// simulated queues hold.
SequenceUse sequence_use(const model::Netlist& n) {
    using Channel = std::tuple<model::TileCoord, model::Direction, int>;
    std::map<Channel, std::vector<int>> queued;
    std::map<model::TileCoord, std::set<int>> bds;
    SequenceUse u;
    u.tasks = n.tasks.size();
    for (const auto& op : n.sequence) {
        if (op.task < 0) continue;
        const auto& t = n.tasks[static_cast<std::size_t>(op.task)];
        auto& q = queued[{t.tile, t.dir, t.channel}];
        auto& b = bds[t.tile];
        switch (op.kind) {
        case model::RuntimeOp::Kind::StartTask:
            q.push_back(t.id);
            REQUIRE(b.insert(t.bd_id).second); // no BD id handed out twice
            u.max_queued = std::max(u.max_queued, static_cast<int>(q.size()));
            u.max_bds = std::max(u.max_bds, static_cast<int>(b.size()));
            break;
        case model::RuntimeOp::Kind::AwaitTask:
            ++u.groups;
            while (!q.empty() && q.front() <= t.id) {
                b.erase(n.tasks[static_cast<std::size_t>(q.front())].bd_id);
                q.erase(q.begin());
            }
            break;
        case model::RuntimeOp::Kind::FreeTask:
            if (auto it = std::find(q.begin(), q.end(), t.id); it != q.end()) q.erase(it);
            b.erase(t.bd_id);
            break;
        default: break;
        }
    }
    return u;
}

RunOptions opts(const std::string& device) { return test::run_opts(device); }

} // namespace

TEST_CASE("matmul_whole_array runs on every column count IRON's whole_array offers", "[examples][matmul][cols]") {
    // NPU1: the NPU1ColN device of --n-aie-cols N (_device_for, L47-51); NPU2: the whole array
    // with cols=N, and the npu2_Ncol devices with their own column count.
    const std::vector<std::tuple<std::string, std::int64_t>> runs = {{"npu1_1col", 0}, {"npu1_2col", 0}, {"npu1", 0},
                                                                     {"npu2", 1},      {"npu2", 2},      {"npu2", 4},
                                                                     {"npu2_2col", 0}, {"npu2", 8}};
    std::map<std::int64_t, std::uint64_t> cycles; // npu2, by columns
    for (const auto& [device, cols] : runs) {
        INFO(device << " cols=" << cols);
        const auto rep = run_design(
            design_by_name("matmul_whole_array"), device,
            {{"M", 256}, {"K", 256}, {"N", 256}, {"m", 32}, {"k", 32}, {"n", 32}, {"cols", cols}}, opts(device));
        REQUIRE(rep.checks.size() == 1);
        INFO(rep.checks[0].first_mismatches);
        CHECK(rep.all_match);
        const std::int64_t c = cols ? cols : model::device_by_name(device).cols;
        CHECK(rep.workers == static_cast<std::size_t>(4 * c));
        if (device == "npu2") cycles[c] = rep.result.cycles;
    }
    // More columns, fewer cycles while A's shims are the bound (they re-read A for every column
    // tile); at this size 8 columns are not faster than 4: 16 more shim tasks, each first task on
    // a channel a cold dispatch of the serial controller, outweigh one column tile per core.
    CHECK(cycles.at(2) < cycles.at(1));
    CHECK(cycles.at(4) < cycles.at(2));
}

TEST_CASE("matmul_whole_array distributes A over min(4, cols) mem tiles as IRON does", "[examples][matmul][cols]") {
    // cols = 1: A_L3L2_0 carries n_A_tiles_per_shim = 4 tiles of m x k and is split on mem tile 0
    // into A_L2L1_0..3; that mem tile then uses all 6 S2MM (A, B, 4 C) and 6 MM2S (4 A, B, C).
    // cols = 2: A_L3L2_0 and _1, 2 tiles each, split into A_L2L1_0/1 and A_L2L1_2/3.
    for (const auto& [device, shims, per_shim] : std::vector<std::tuple<std::string, int, std::int64_t>>{
             {"npu1_1col", 1, 4}, {"npu1_2col", 2, 2}, {"npu1", 4, 1}}) {
        INFO(device);
        const auto n = resolve("matmul_whole_array", device, {});
        std::map<std::string, std::uint64_t> fifo_bytes;
        for (const auto& b : n.buffers) fifo_bytes[b.prov.object] = b.bytes;
        int a_l3l2 = 0;
        for (int i = 0; i < 4; ++i) a_l3l2 += fifo_bytes.count(fmt::format("A_L3L2_{}", i)) ? 1 : 0;
        CHECK(a_l3l2 == shims);
        // the link pool of A_L3L2_0 holds per_shim tiles of 64 x 64 i16 (the defaults)
        CHECK(fifo_bytes.at("A_L3L2_0") == static_cast<std::uint64_t>(per_shim * 64 * 64 * 2));
        std::set<std::string> rows;
        for (const auto& f : n.flows)
            if (f.prov.object.rfind("A_L2L1_", 0) == 0) {
                rows.insert(f.prov.object);
                CHECK(f.source.tile.col < shims); // every A row leaves one of the A mem tiles
                CHECK(f.dests.size() == static_cast<std::size_t>(model::device_by_name(device).cols));
            }
        CHECK(rows.size() == 4);
        if (shims == 1) {
            int s2mm = 0, mm2s = 0;
            for (const auto& c : n.channels)
                if (c.tile == model::TileCoord{0, 1}) ++(c.dir == model::Direction::S2MM ? s2mm : mm2s);
            CHECK(s2mm == 6);
            CHECK(mm2s == 6);
        }
    }
}

namespace {

const Params kBig{{"M", 4096}, {"K", 4096}, {"N", 4096}};

Params with_big(const Params& extra) {
    Params p = kBig;
    for (const auto& [k, v] : extra) p[k] = v;
    return p;
}

struct BigCase {
    std::string design, device;
    Params p;
    std::size_t tasks;
    int queued, bds; ///< the most tasks on one channel's queue, BD ids on one shim tile
};

void check_big(const BigCase& c) {
    std::string ps;
    for (const auto& [k, v] : c.p) ps += fmt::format(" {}={}", k, v);
    INFO(c.design << " on " << c.device << ps);
    const auto n = resolve(c.design, c.device, c.p);
    const auto u = sequence_use(n);
    CHECK(u.tasks == c.tasks);
    CHECK(u.max_queued == c.queued);
    CHECK(u.max_bds == c.bds);
    CHECK(u.max_queued <= model::device_by_name(c.device).task_queue_depth);
    CHECK(u.max_bds <= model::device_by_name(c.device).shim.bds);
}

} // namespace

TEST_CASE("matmul_whole_array at 4096^3: the runtime sequence stays within the shim's BD ids and task queues",
          "[examples][matmul][sizes]") {
    // Each fill one task (N / (n cols) <= 65 column tiles): IRON's groups. Per column and row
    // block one A fill (columns < 4) and one B fill, per two row blocks one drain: 16 row blocks of
    // 4 x 64 rows -> 8 cols x (16 + 8) + 4 x 16 = 256 tasks on npu2. The first group holds 2 halves
    // of 2 row blocks: 4 A fills on shim (0,0) MM2S (the queue's depth), and 2 drains + 4 A + 4 B
    // = 10 BD ids of shim (0,0).
    // With 128 column tiles on one column (n = 32) or two (n = 16) a repeat over 64 makes each A
    // and B fill two tasks: groups of one row block (IRON's tb_max_n_rows = 2), two in flight,
    // still 4 queued and 2 x (2 + 2 + 1) = 10 BD ids.
    for (const auto& c : std::vector<BigCase>{
             {"matmul_whole_array", "npu2", kBig, 8 * (16 + 8) + 4 * 16, 4, 10},
             {"matmul_whole_array", "npu1", kBig, 4 * (16 + 8) + 4 * 16, 4, 10},
             {"matmul_whole_array", "npu1_1col", with_big({{"n", 32}}), 16 * 2 * 2 + 16, 4, 10},
             {"matmul_whole_array", "npu2_2col", with_big({{"n", 16}}), 2 * 16 * 2 * 2 + 2 * 16, 4, 10}})
        check_big(c);
}

TEST_CASE("matmul_single_core at 4096^3: the runtime sequence stays within the shim's BD ids and task queues",
          "[examples][matmul][sizes]") {
    // 32^3 tiles (the defaults): 128 row blocks, 128 column tiles make each A and B fill 2 tasks;
    // groups of one row block with one drain each, two in flight: 4 queued, 10 BD ids.
    check_big({"matmul_single_core", "npu1_1col", kBig, 128 * (2 + 2 + 1), 4, 10});
    // A fill that alone needs more tasks than the queue holds is refused, naming the limit.
    CHECK_THROWS_WITH(resolve("matmul_single_core", "npu1_1col", with_big({{"n", 8}})),
                      "design 'matmul_single_core': one row block's fills need 8 (A) and 8 (B) shim tasks on one "
                      "channel, more than its 4-deep task queue (a repeat over 2^6 is split into several tasks); "
                      "use a larger n or more columns");
}

TEST_CASE("matmul: fills split into two shim tasks simulate with the smaller groups, no queue overflow",
          "[examples][matmul][sizes]") {
    // N / n = 128 column tiles on one column: every A and B fill is two tasks (repeat over 64 with
    // K / k = 2 non-contiguous k-tiles), so the sequences run groups of one row block; the
    // IRON's 2 x 2 groups would put 8 tasks on one 4-deep queue.
    for (const auto& [design, device, p] : std::vector<std::tuple<std::string, std::string, Params>>{
             {"matmul_whole_array", "npu1_1col", {{"M", 128}, {"K", 64}, {"N", 1024}, {"m", 16}, {"k", 32}, {"n", 8}}},
             {"matmul_single_core",
              "npu2_1col",
              {{"M", 64}, {"K", 64}, {"N", 2048}, {"m", 16}, {"k", 32}, {"n", 16}}}}) {
        INFO(design << " on " << device);
        const auto n = resolve(design, device, p);
        const auto u = sequence_use(n);
        CHECK(u.max_queued == 4);
        const auto rep = run_design(design_by_name(design), device, p, opts(device));
        CHECK(rep.all_match);
    }
}

TEST_CASE("matmul_whole_array: column counts and sizes IRON refuses", "[examples][matmul][cols]") {
    const auto o = opts("npu2");
    CHECK_THROWS_WITH(run_design(design_by_name("matmul_whole_array"), "npu2", {{"cols", 3}}, o),
                      "design 'matmul_whole_array': cols=3 must be 1, 2 or 4..8 on npu2 (whole_array.py "
                      "n_A_tiles_per_shim = 4 // cols must divide the 4 rows)");
    CHECK_THROWS_WITH(run_design(design_by_name("matmul_whole_array"), "npu2", {{"M", 768}}, o),
                      "design 'matmul_whole_array': M/m/4=3 must be even (each drain covers 2 row blocks of 4m "
                      "rows: whole_array.py tb_n_rows = 2)");
    CHECK_FALSE(design_by_name("matmul_whole_array").supports("npu1_3col"));
}
