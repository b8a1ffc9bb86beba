// Device tables and their presets; the sources of the numbers are in docs/hardware-sources.md.
#include "npusim/model/DeviceSpec.hpp"
#include "npusim/model/Error.hpp"

#include "model/MarkdownTable.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <functional>

using namespace npusim;
using namespace npusim::model;

TEST_CASE("all twelve NPU devices exist with their geometry", "[model][device]") {
    REQUIRE(all_devices().size() == 12);
    const std::pair<const char*, int> expected[] = {
        {"npu1", 4},      {"npu1_1col", 1}, {"npu1_2col", 2}, {"npu1_3col", 3}, {"npu2", 8},      {"npu2_1col", 1},
        {"npu2_2col", 2}, {"npu2_3col", 3}, {"npu2_4col", 4}, {"npu2_5col", 5}, {"npu2_6col", 6}, {"npu2_7col", 7}};
    for (auto [name, cols] : expected) {
        const auto& d = device_by_name(name);
        CHECK(d.name == name);
        CHECK(d.cols == cols);
        CHECK(d.rows == 6);
        CHECK(d.arch == (std::string(name).rfind("npu1", 0) == 0 ? Arch::AIE2 : Arch::AIE2P));
        CHECK(d.tiles_of(TileKind::Compute).size() == static_cast<std::size_t>(4 * cols));
        CHECK(d.tiles_of(TileKind::Shim).size() == static_cast<std::size_t>(cols)); // every column has a shim DMA
    }
}

TEST_CASE("device lookup is case-insensitive and accepts IRON class names", "[model][device]") {
    CHECK(device_by_name("NPU2").name == "npu2");
    CHECK(device_by_name("NPU1Col2").name == "npu1_2col");
    CHECK(device_by_name("npu2col7").name == "npu2_7col");
    try {
        device_by_name("npu3");
        FAIL("no error");
    } catch (const DesignError& e) {
        CHECK(std::string(e.what()).find("unknown device 'npu3' (known devices: npu1, npu1_1col") == 0);
    }
}

TEST_CASE("tile kinds per row and per-kind resources", "[model][device]") {
    const auto& d = device_by_name("npu1");
    CHECK(d.kind_at({0, 0}) == TileKind::Shim);
    CHECK(d.kind_at({3, 1}) == TileKind::Mem);
    CHECK(d.kind_at({2, 5}) == TileKind::Compute);
    CHECK(d.compute.memory_bytes == 0x10000);
    CHECK(d.mem.memory_bytes == 0x80000);
    CHECK(d.compute.locks == 16);
    CHECK(d.mem.locks == 64);
    CHECK(d.shim.locks == 16);
    CHECK(d.compute.lock_max_value == 63);
    CHECK(d.compute.bds == 16);
    CHECK(d.mem.bds == 48);
    CHECK(d.compute.bd_dims == 3);
    CHECK(d.mem.bd_dims == 4);
    CHECK(d.compute.buffer_length_bits == 14);
    CHECK(d.mem.buffer_length_bits == 17);
    CHECK(d.compute.wrap_bits == 8);
    CHECK(d.mem.wrap_bits == 10);
    CHECK(d.shim.step_bits == 20);
    CHECK(d.compute.default_stack_bytes == 0x400);
    CHECK(d.dma_channels({0, 1}, Direction::S2MM) == 6);
    CHECK(d.dma_channels({0, 2}, Direction::MM2S) == 2);
    CHECK(d.dma_channels({0, 0}, Direction::MM2S) == 2);
    CHECK(d.cascade_bits == 512);
    CHECK(d.task_queue_depth == 4);
    CHECK(d.mem.zero_padding);
    CHECK_FALSE(d.compute.zero_padding);
}

TEST_CASE("mem tile BD ids are split between even and odd channels", "[model][device]") {
    const auto& d = device_by_name("npu2");
    CHECK(d.bd_range({0, 1}, 0) == std::pair{0, 23});
    CHECK(d.bd_range({0, 1}, 3) == std::pair{24, 47});
    CHECK(d.bd_range({0, 2}, 1) == std::pair{0, 15});
}

TEST_CASE("stream capacity: 6 up, 4 down per column, 4 each way per row, none east-west on mem tiles",
          "[model][device]") {
    const auto& d = device_by_name("npu1");
    CHECK(d.stream_capacity({0, 0}, Port::North) == 6);
    CHECK(d.stream_capacity({0, 2}, Port::North) == 6);
    CHECK(d.stream_capacity({0, 3}, Port::South) == 4);
    CHECK(d.stream_capacity({0, 5}, Port::North) == 0); // top row
    CHECK(d.stream_capacity({0, 2}, Port::East) == 4);
    CHECK(d.stream_capacity({1, 2}, Port::West) == 4);
    CHECK(d.stream_capacity({0, 2}, Port::West) == 0); // column 0
    CHECK(d.stream_capacity({3, 2}, Port::East) == 0); // last column
    CHECK(d.stream_capacity({0, 1}, Port::East) == 0); // mem tiles have no east/west ports
    CHECK(d.stream_capacity({0, 0}, Port::East) == 4); // shim row
}

TEST_CASE("AIE2 memory affinity: own, west, north, south (not a mem tile)", "[model][device]") {
    const auto& d = device_by_name("npu1");
    CHECK(d.core_can_access({1, 3}, {1, 3}));
    CHECK(d.core_can_access({1, 3}, {0, 3})); // west
    CHECK_FALSE(d.core_can_access({1, 3}, {2, 3})); // east
    CHECK(d.core_can_access({1, 3}, {1, 4})); // north
    CHECK(d.core_can_access({1, 3}, {1, 2})); // south
    CHECK_FALSE(d.core_can_access({1, 2}, {1, 1})); // south is a mem tile
    TileCoord pool;
    REQUIRE(d.shares_memory({1, 2}, {1, 3}, pool));
    CHECK(pool == TileCoord{1, 2}); // vertical: producer's memory
    REQUIRE(d.shares_memory({1, 2}, {2, 2}, pool));
    CHECK(pool == TileCoord{1, 2}); // consumer east of producer reaches west
    REQUIRE(d.shares_memory({2, 2}, {1, 2}, pool));
    CHECK(pool == TileCoord{1, 2}); // producer east of consumer: pool on the consumer
    CHECK_FALSE(d.shares_memory({0, 2}, {2, 2}, pool));
    CHECK_FALSE(d.shares_memory({0, 1}, {0, 2}, pool)); // mem tile never shares with a core
}

TEST_CASE("tile_kind_of_row: row 0 shim, row 1 mem, rows 2+ compute on every device", "[model][device]") {
    CHECK(npusim::model::tile_kind_of_row(0) == npusim::model::TileKind::Shim);
    CHECK(npusim::model::tile_kind_of_row(1) == npusim::model::TileKind::Mem);
    CHECK(npusim::model::tile_kind_of_row(2) == npusim::model::TileKind::Compute);
    CHECK(npusim::model::tile_kind_of_row(5) == npusim::model::TileKind::Compute);
    for (const auto& d : npusim::model::all_devices())
        for (int r = 0; r < d.rows; ++r) CHECK(d.kind_at({0, r}) == npusim::model::tile_kind_of_row(r));
}

namespace {
// Every field of a tile table, spelled out, so a changed or forgotten number fails by name.
void check_tile(const TileResources& r, std::uint32_t memory_bytes, int alloc_banks, int physical_banks, int locks,
                int bds, bool split, int s2mm, int mm2s, int bd_dims, int length_bits, int wrap_bits, int step_bits,
                bool zero_padding, std::uint32_t alignment, std::uint32_t stack) {
    CHECK(r.memory_bytes == memory_bytes);
    CHECK(r.alloc_banks == alloc_banks);
    CHECK(r.physical_banks == physical_banks);
    CHECK(r.locks == locks);
    CHECK(r.lock_max_value == 63);
    CHECK(r.bds == bds);
    CHECK(r.bds_split_by_channel_parity == split);
    CHECK(r.dma_s2mm_channels == s2mm);
    CHECK(r.dma_mm2s_channels == mm2s);
    CHECK(r.bd_dims == bd_dims);
    CHECK(r.buffer_length_bits == length_bits);
    CHECK(r.wrap_bits == wrap_bits);
    CHECK(r.step_bits == step_bits);
    CHECK(r.iteration_bits == 6);
    CHECK(r.zero_padding == zero_padding);
    CHECK(r.buffer_alignment == alignment);
    CHECK(r.default_stack_bytes == stack);
}
void check_ports(const SwitchPorts& p, std::array<int, 8> want) {
    CHECK(std::array<int, 8>{p.north_out, p.south_out, p.east_out, p.west_out, p.north_in, p.south_in, p.east_in,
                             p.west_in} == want);
}
} // namespace

TEST_CASE("every table number of every device, field by field", "[model][device]") {
    for (const auto& d : all_devices()) {
        INFO(d.name);
        const bool npu2 = d.arch == Arch::AIE2P;
        CHECK(d.rows == 6);
        CHECK(d.cascade_bits == 512);
        CHECK(d.task_queue_depth == 4);
        CHECK(d.max_repeat_count == 255);
        CHECK(d.max_packet_id == 31);
        check_tile(d.compute, 0x10000, 4, 8, 16, 16, false, 2, 2, 3, 14, 8, 13, false, 32, 0x400);
        check_tile(d.mem, 0x80000, 8, npu2 ? 8 : 16, 64, 48, true, 6, 6, 4, 17, 10, 17, true, 4, 0);
        check_tile(d.shim, 0, 0, 0, 16, 16, false, 2, 2, 3, 32, 10, 20, false, 4, 0);
        check_ports(d.compute_ports, {6, 4, 4, 4, 4, 6, 4, 4});
        check_ports(d.mem_ports, {6, 4, 0, 0, 4, 6, 0, 0});
        check_ports(d.shim_ports, {6, 6, 4, 4, 4, 8, 4, 4});
    }
    const std::pair<const char*, const char*> classes[] = {
        {"npu1", "NPU1"},          {"npu1_1col", "NPU1Col1"}, {"npu1_2col", "NPU1Col2"}, {"npu1_3col", "NPU1Col3"},
        {"npu2", "NPU2"},          {"npu2_1col", "NPU2Col1"}, {"npu2_2col", "NPU2Col2"}, {"npu2_3col", "NPU2Col3"},
        {"npu2_4col", "NPU2Col4"}, {"npu2_5col", "NPU2Col5"}, {"npu2_6col", "NPU2Col6"}, {"npu2_7col", "NPU2Col7"}};
    REQUIRE(all_devices().size() == std::size(classes));
    for (std::size_t i = 0; i < std::size(classes); ++i) {
        CHECK(all_devices()[i].name == classes[i].first);
        CHECK(all_devices()[i].iron_class == classes[i].second);
    }
}

namespace {
// Every field of a tile preset is set: positive where the tile kind has the resource, zero only
// where it has none (shim tiles have no data memory; only compute tiles have a core stack).
// The structured binding names all 18 fields: a field added to TileResources fails to compile here
// until this test checks it too.
void check_tile_preset_is_complete(const TileResources& r, TileKind kind) {
    const auto& [memory_bytes, alloc_banks, physical_banks, locks, lock_max_value, bds, bds_split, s2mm, mm2s, bd_dims,
                 buffer_length_bits, wrap_bits, step_bits, iteration_bits, zero_padding, constant_pad_value,
                 buffer_alignment, default_stack_bytes] = r;
    const bool has_memory = kind != TileKind::Shim;
    CHECK((memory_bytes > 0) == has_memory);
    CHECK((alloc_banks > 0) == has_memory);
    CHECK((physical_banks > 0) == has_memory);
    if (has_memory) {
        CHECK(memory_bytes % static_cast<std::uint32_t>(alloc_banks) == 0);
        CHECK(memory_bytes % static_cast<std::uint32_t>(physical_banks) == 0);
    }
    CHECK(locks > 0);
    CHECK(lock_max_value > 0);
    CHECK(bds > 0);
    CHECK(bds_split == (kind == TileKind::Mem));
    if (bds_split) CHECK(bds % 2 == 0);
    CHECK(s2mm > 0);
    CHECK(mm2s > 0);
    CHECK(bd_dims > 0);
    CHECK(buffer_length_bits > 0);
    CHECK(wrap_bits > 0);
    CHECK(step_bits > 0);
    CHECK(iteration_bits > 0);
    CHECK(zero_padding == (kind == TileKind::Mem));
    CHECK((!constant_pad_value || zero_padding)); // a pad value needs padding
    CHECK(buffer_alignment > 0);
    CHECK((default_stack_bytes > 0) == (kind == TileKind::Compute));
}
// Every switch-port count is set: 6 up and 4 down on every tile kind, 4 each way along a row,
// and mem tiles have no east/west ports. The binding names all 8 fields.
void check_port_preset_is_complete(const SwitchPorts& p, TileKind kind) {
    const auto& [north_out, south_out, east_out, west_out, north_in, south_in, east_in, west_in] = p;
    CHECK(north_out > 0);
    CHECK(south_out > 0);
    CHECK(north_in > 0);
    CHECK(south_in > 0);
    const bool row_ports = kind != TileKind::Mem;
    CHECK((east_out > 0) == row_ports);
    CHECK((west_out > 0) == row_ports);
    CHECK((east_in > 0) == row_ports);
    CHECK((west_in > 0) == row_ports);
}
} // namespace

TEST_CASE("arch_preset: every field of every preset is set", "[model][device]") {
    for (Arch arch : {Arch::AIE2, Arch::AIE2P}) {
        INFO(arch_name(arch));
        const ArchPreset& p = arch_preset(arch);
        const auto& [a, rows, cascade_bits, queue_depth, max_repeat, max_packet_id, compute, mem, shim, compute_ports,
                     mem_ports, shim_ports] = p;
        CHECK(a == arch);
        CHECK(rows == 6); // one shim row, one mem-tile row, compute rows (tile_kind_of_row)
        CHECK(tile_kind_of_row(rows - 1) == TileKind::Compute);
        CHECK(cascade_bits > 0);
        CHECK(queue_depth > 0);
        CHECK(max_repeat > 0);
        CHECK(max_packet_id > 0);
        check_tile_preset_is_complete(compute, TileKind::Compute);
        check_tile_preset_is_complete(mem, TileKind::Mem);
        check_tile_preset_is_complete(shim, TileKind::Shim);
        check_port_preset_is_complete(compute_ports, TileKind::Compute);
        check_port_preset_is_complete(mem_ports, TileKind::Mem);
        check_port_preset_is_complete(shim_ports, TileKind::Shim);
    }
}

TEST_CASE("arch_preset: AIE2P tables are AIE2's except the mem tile's physical banks and pad value register",
          "[model][device]") {
    const ArchPreset& aie2 = arch_preset(Arch::AIE2);
    const ArchPreset& aie2p = arch_preset(Arch::AIE2P);
    CHECK(aie2p.compute == aie2.compute);
    CHECK(aie2p.shim == aie2.shim);
    CHECK_FALSE(aie2p.mem == aie2.mem);
    CHECK(aie2.mem.physical_banks == 16); // AM020: 16 x 32 KiB
    CHECK(aie2p.mem.physical_banks == 8); // AM027: 8 banks of 2K x 256 bit
    CHECK_FALSE(aie2.mem.constant_pad_value); // AIETargetModel.h:456: no CONSTANT_PAD_VALUE on AIE2
    CHECK(aie2p.mem.constant_pad_value); // AIETargetModel.h:926 BaseNPU2TargetModel
    TileResources mem = aie2p.mem;
    mem.physical_banks = aie2.mem.physical_banks;
    mem.constant_pad_value = aie2.mem.constant_pad_value;
    CHECK(mem == aie2.mem);
    CHECK(aie2p.compute_ports == aie2.compute_ports);
    CHECK(aie2p.mem_ports == aie2.mem_ports);
    CHECK(aie2p.shim_ports == aie2.shim_ports);
    CHECK(aie2p.rows == aie2.rows);
    CHECK(aie2p.cascade_bits == aie2.cascade_bits);
    CHECK(aie2p.task_queue_depth == aie2.task_queue_depth);
    CHECK(aie2p.max_repeat_count == aie2.max_repeat_count);
    CHECK(aie2p.max_packet_id == aie2.max_packet_id);
}

TEST_CASE("every device is built from its generation's presets", "[model][device]") {
    for (const auto& d : all_devices()) {
        INFO(d.name);
        const ArchPreset& p = arch_preset(d.arch);
        CHECK(d.rows == p.rows);
        CHECK(d.cascade_bits == p.cascade_bits);
        CHECK(d.task_queue_depth == p.task_queue_depth);
        CHECK(d.max_repeat_count == p.max_repeat_count);
        CHECK(d.max_packet_id == p.max_packet_id);
        CHECK(d.compute == p.compute);
        CHECK(d.mem == p.mem);
        CHECK(d.shim == p.shim);
        CHECK(d.compute_ports == p.compute_ports);
        CHECK(d.mem_ports == p.mem_ports);
        CHECK(d.shim_ports == p.shim_ports);
    }
}

namespace {
std::string cell(bool b) { return b ? "true" : "false"; }
template <class T>
std::string cell(T v) {
    return fmt::format("{}", v);
}
} // namespace

TEST_CASE("docs/hardware-sources.md lists every preset number with a source", "[model][device][docs]") {
    const std::string doc = test::read_doc("hardware-sources.md");
    const ArchPreset& p = arch_preset(Arch::AIE2);

    const std::vector<std::pair<std::string, std::string>> wide = {{"rows", cell(p.rows)},
                                                                   {"cascade_bits", cell(p.cascade_bits)},
                                                                   {"task_queue_depth", cell(p.task_queue_depth)},
                                                                   {"max_repeat_count", cell(p.max_repeat_count)},
                                                                   {"max_packet_id", cell(p.max_packet_id)}};
    const auto wide_rows = test::markdown_table(doc, "| field | value | source |");
    REQUIRE(wide_rows.size() == wide.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
        INFO(wide[i].first);
        REQUIRE(wide_rows[i].size() == 3);
        CHECK(wide_rows[i][0] == wide[i].first);
        CHECK(wide_rows[i][1] == wide[i].second);
        CHECK_FALSE(wide_rows[i][2].empty());
    }

    using Get = std::function<std::string(const TileResources&)>;
    const std::vector<std::pair<std::string, Get>> fields = {
        {"memory_bytes", [](const TileResources& r) { return cell(r.memory_bytes); }},
        {"alloc_banks", [](const TileResources& r) { return cell(r.alloc_banks); }},
        {"physical_banks", [](const TileResources& r) { return cell(r.physical_banks); }},
        {"locks", [](const TileResources& r) { return cell(r.locks); }},
        {"lock_max_value", [](const TileResources& r) { return cell(r.lock_max_value); }},
        {"bds", [](const TileResources& r) { return cell(r.bds); }},
        {"bds_split_by_channel_parity", [](const TileResources& r) { return cell(r.bds_split_by_channel_parity); }},
        {"dma_s2mm_channels", [](const TileResources& r) { return cell(r.dma_s2mm_channels); }},
        {"dma_mm2s_channels", [](const TileResources& r) { return cell(r.dma_mm2s_channels); }},
        {"bd_dims", [](const TileResources& r) { return cell(r.bd_dims); }},
        {"buffer_length_bits", [](const TileResources& r) { return cell(r.buffer_length_bits); }},
        {"wrap_bits", [](const TileResources& r) { return cell(r.wrap_bits); }},
        {"step_bits", [](const TileResources& r) { return cell(r.step_bits); }},
        {"iteration_bits", [](const TileResources& r) { return cell(r.iteration_bits); }},
        {"zero_padding", [](const TileResources& r) { return cell(r.zero_padding); }},
        {"constant_pad_value", [](const TileResources& r) { return cell(r.constant_pad_value); }},
        {"buffer_alignment", [](const TileResources& r) { return cell(r.buffer_alignment); }},
        {"default_stack_bytes", [](const TileResources& r) { return cell(r.default_stack_bytes); }}};
    const auto tile_rows = test::markdown_table(doc, "| field | compute | mem | shim | source |");
    REQUIRE(tile_rows.size() == fields.size());
    for (std::size_t i = 0; i < fields.size(); ++i) {
        INFO(fields[i].first);
        REQUIRE(tile_rows[i].size() == 5);
        CHECK(tile_rows[i][0] == fields[i].first);
        CHECK(tile_rows[i][1] == fields[i].second(p.compute));
        CHECK(tile_rows[i][2] == fields[i].second(p.mem));
        CHECK(tile_rows[i][3] == fields[i].second(p.shim));
        CHECK_FALSE(tile_rows[i][4].empty());
    }

    using GetPort = std::function<int(const SwitchPorts&)>;
    const std::vector<std::pair<std::string, GetPort>> ports = {
        {"north_out", [](const SwitchPorts& s) { return s.north_out; }},
        {"south_out", [](const SwitchPorts& s) { return s.south_out; }},
        {"east_out", [](const SwitchPorts& s) { return s.east_out; }},
        {"west_out", [](const SwitchPorts& s) { return s.west_out; }},
        {"north_in", [](const SwitchPorts& s) { return s.north_in; }},
        {"south_in", [](const SwitchPorts& s) { return s.south_in; }},
        {"east_in", [](const SwitchPorts& s) { return s.east_in; }},
        {"west_in", [](const SwitchPorts& s) { return s.west_in; }}};
    const auto port_rows = test::markdown_table(doc, "| port | compute | mem | shim | source |");
    REQUIRE(port_rows.size() == ports.size());
    for (std::size_t i = 0; i < ports.size(); ++i) {
        INFO(ports[i].first);
        REQUIRE(port_rows[i].size() == 5);
        CHECK(port_rows[i][0] == ports[i].first);
        CHECK(port_rows[i][1] == cell(ports[i].second(p.compute_ports)));
        CHECK(port_rows[i][2] == cell(ports[i].second(p.mem_ports)));
        CHECK(port_rows[i][3] == cell(ports[i].second(p.shim_ports)));
    }
    // The two AIE2P differences are documented with their values.
    CHECK(arch_preset(Arch::AIE2P).mem.physical_banks == 8);
    CHECK_THAT(doc, Catch::Contains("the mem tile's `physical_banks` is 8, from AM027"));
    CHECK(arch_preset(Arch::AIE2P).mem.constant_pad_value);
    CHECK_THAT(doc, Catch::Contains("the mem tile's `constant_pad_value` is true"));
}

#include "npusim/model/LockRules.hpp"

TEST_CASE("lock rules: repeat_scaled multiplies objects by the repeat count, an acquire fits up to the depth",
          "[model][locks]") {
    STATIC_REQUIRE(npusim::model::repeat_scaled(3, 1) == 3);
    STATIC_REQUIRE(npusim::model::repeat_scaled(2, 4) == 8);
    STATIC_REQUIRE(npusim::model::acquire_fits(2, 2));
    STATIC_REQUIRE_FALSE(npusim::model::acquire_fits(3, 2));
}
