// Buffer address allocation and aiecc's `--alloc-scheme`, as mlir-aie's AIEAssignBuffers.cpp
// (AIEAssignBufferAddressesPass, simpleBankAwareAllocation, basicAllocation) does it;
// docs/resolve.md, "Mem-tile placement and memory allocation".
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::iron;
using Catch::Matchers::Contains;

namespace {
const model::NetBuffer& tma_buffer_named(const model::Netlist& n, const std::string& name) {
    for (const auto& b : n.buffers)
        if (b.name == name) return b;
    FAIL("no buffer " << name);
    throw;
}

void copy_one(ObjectFifoHandle i, ObjectFifoHandle o) {
    auto e = i.acquire(1);
    auto f = o.acquire(1);
    std::copy(e.as<std::int32_t>().begin(), e.as<std::int32_t>().begin() + 16, f.as<std::int32_t>().begin());
    i.release(1);
    o.release(1);
}

// shim -> in (i32[in_elems], depth 2) -> worker on `tile` -> a_out (i32[16]) -> shim (`a_out` sorts
// first, so its buffers are created first). With in_elems =
// 5120 each `in` buffer is 20 KiB: larger than a 16 KiB allocator bank of a compute tile
// (getNumBanks = 4 of getLocalMemorySize 64 KiB), so only basic-sequential places it
// (1 KiB stack + 2 x 20 KiB + 2 x 64 B fit the 64 KiB).
Program big_input(int in_elems = 5120, Tile tile = AnyComputeTile) {
    return test::passthrough({.type = tensor<std::int32_t>({in_elems}),
                              .out_type = tensor<std::int32_t>({16}),
                              .body = copy_one,
                              .host_elements = in_elems,
                              .out_host_elements = 16,
                              .program = "big_input",
                              .out_name = "a_out",
                              .worker = {.tile = tile, .name = "w"}});
}
} // namespace

// AIEAssignBufferAddressesPass, no --alloc-scheme: simpleBankAwareAllocation fails, the tile gets
// the warning "Bank-aware allocation failed, trying basic sequential allocation." and
// basicAllocation packs the buffers after the stack, largest first.
TEST_CASE("alloc-scheme unset: bank-aware falls back to basic-sequential with the toolchain's warning",
          "[frontend][alloc]") {
    const auto n = big_input().resolve();
    REQUIRE(n.warnings.size() == 1);
    CHECK_THAT(n.warnings[0], Contains("compute tile (0,2): Bank-aware allocation failed, trying basic sequential "
                                       "allocation.") &&
                                  Contains("Failed to allocate buffer: in_cons_buff_0 with size: 20480 bytes"));
    CHECK(tma_buffer_named(n, "in_cons_buff_0").address == 0x400);
    CHECK(tma_buffer_named(n, "in_cons_buff_1").address == 0x400 + 20480);
    CHECK(tma_buffer_named(n, "a_out_buff_0").address == 0x400 + 2 * 20480);
    CHECK(n.dump().find("warning: compute tile (0,2): Bank-aware allocation failed") != std::string::npos);
    // A design that fits the banks gets no warning.
    CHECK(big_input(1024).resolve().warnings.empty());
}

// --alloc-scheme=bank-aware: no fallback, "Bank-aware allocation failed." on the tile.
TEST_CASE("alloc-scheme bank-aware: no fallback, the toolchain's error", "[frontend][alloc]") {
    CHECK_THROWS_WITH(big_input().resolve({.alloc_scheme = AllocScheme::BankAware}),
                      Contains("compute tile (0,2): Bank-aware allocation failed.") &&
                          Contains("Failed to allocate buffer: in_cons_buff_0 with size: 20480 bytes"));
    const auto n = big_input(1024).resolve({.alloc_scheme = AllocScheme::BankAware});
    CHECK(tma_buffer_named(n, "in_cons_buff_0").address == 0x400); // bank 0 after the stack
    CHECK(tma_buffer_named(n, "in_cons_buff_1").address == 0x4000); // round robin: bank 1
}

// --alloc-scheme=basic-sequential: basicAllocation only, "Basic sequential allocation failed.".
TEST_CASE("alloc-scheme basic-sequential: packed largest first, the toolchain's error when full", "[frontend][alloc]") {
    const auto n = big_input().resolve({.alloc_scheme = AllocScheme::BasicSequential});
    CHECK(n.warnings.empty());
    CHECK(tma_buffer_named(n, "in_cons_buff_1").address == 0x400 + 20480);
    // basicAllocation sorts by descending size: the 64-B `a_out` buffers, created first, come after
    // the 4 KiB `in` ones.
    const auto m = big_input(1024).resolve({.alloc_scheme = AllocScheme::BasicSequential});
    CHECK(tma_buffer_named(m, "in_cons_buff_0").address == 0x400);
    CHECK(tma_buffer_named(m, "a_out_buff_0").address == 0x400 + 2 * 4096);
    CHECK_THROWS_WITH(big_input(8192).resolve({.alloc_scheme = AllocScheme::BasicSequential}),
                      "compute tile (0,2): Basic sequential allocation failed. Out of data memory: needs 66688 B "
                      "(stack 1024 B, 'a_out' 2 x 64 B, 'in' 2 x 32768 B) but the tile has 65536 B");
}

// The tile attribute allocation_scheme (IRON Tile(allocation_scheme=...)) overrides the flag for
// that tile (AIEAssignBufferAddressesPass: tile.getAllocationScheme() before clAllocScheme).
TEST_CASE("Tile allocation_scheme overrides --alloc-scheme for its tile", "[frontend][alloc]") {
    Tile seq(0, 2);
    seq.allocation_scheme = AllocScheme::BasicSequential;
    CHECK_NOTHROW(big_input(5120, seq).resolve({.alloc_scheme = AllocScheme::BankAware}));
    Tile bank(0, 2);
    bank.allocation_scheme = AllocScheme::BankAware;
    CHECK_THROWS_WITH(big_input(5120, bank).resolve(), Contains("Bank-aware allocation failed."));
    CHECK(std::string(alloc_scheme_name(AllocScheme::BasicSequential)) == "basic-sequential");
    CHECK(parse_alloc_scheme("bank-aware") == AllocScheme::BankAware);
    CHECK_FALSE(parse_alloc_scheme("bank_aware").has_value());
}
