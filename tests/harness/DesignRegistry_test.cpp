// The design registry: list order by declared position (then name), deferred registrations (what
// NPUSIM_REGISTER_DESIGN does), duplicate and incomplete designs, lookups; and the process's
// registry: every example design registered exactly once, in the `npusim list` order.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>

using namespace npusim;
using namespace npusim::harness;

namespace {

DesignSpec named(std::string name) {
    DesignSpec s;
    s.name = std::move(name);
    s.build = [](const model::DeviceSpec&, const Params&, const BuildOptions&) -> DesignInstance {
        throw std::logic_error("not built in these tests");
    };
    return s;
}

std::vector<std::string> names(DesignRegistry& r) {
    std::vector<std::string> v;
    for (const auto& d : r.designs()) v.push_back(d.name);
    return v;
}

int factory_calls = 0;
DesignSpec make_alpha() {
    ++factory_calls;
    return named("alpha");
}
DesignSpec make_beta() {
    ++factory_calls;
    return named("beta");
}
DesignSpec make_failing() { throw DesignError("design 'failing': cannot be described"); }

} // namespace

TEST_CASE("designs are listed by position, then by name, whatever the order they are added in", "[harness][registry]") {
    DesignRegistry r;
    CHECK(r.next_position() == 0);
    r.add(named("c30"), 30);
    r.add(named("a10"), 10);
    r.add(named("z20"), 20);
    r.add(named("b20"), 20); // same position: by name
    CHECK(names(r) == std::vector<std::string>{"a10", "b20", "z20", "c30"});
    CHECK(r.next_position() == 31);
    r.add(named("late"), r.next_position());
    CHECK(names(r).back() == "late");
    CHECK(r.by_name("z20").name == "z20");
    CHECK_THROWS_WITH(r.by_name("nope"),
                      "unknown design 'nope' (designs: a10, b20, z20, c30, late); see `npusim list`");
}

TEST_CASE("deferred registrations run when the designs are first looked at", "[harness][registry]") {
    factory_calls = 0;
    DesignRegistry r;
    r.add_deferred(&make_beta, 20);
    r.add_deferred(&make_alpha, 10);
    CHECK(factory_calls == 0);
    CHECK(names(r) == std::vector<std::string>{"alpha", "beta"});
    CHECK(factory_calls == 2);
    CHECK(names(r).size() == 2); // each runs once
    CHECK(factory_calls == 2);
    // A deferred registration after the first look is placed by its position too.
    r.add_deferred([] { return named("middle"); }, 15);
    CHECK(names(r) == std::vector<std::string>{"alpha", "middle", "beta"});
}

TEST_CASE("a second design with a taken name is an error naming it", "[harness][registry]") {
    DesignRegistry r;
    r.add(named("alpha"), 10);
    CHECK_THROWS_WITH(r.add(named("alpha"), 20), "register_design: a design named 'alpha' already exists");
    CHECK(names(r) == std::vector<std::string>{"alpha"});
    // Registered twice from source files: the first look reports it; the first-listed one stays.
    DesignRegistry d;
    d.add_deferred(&make_alpha, 50);
    d.add_deferred(&make_alpha, 40);
    d.add_deferred(&make_beta, 60);
    CHECK_THROWS_WITH(d.designs(), "register_design: a design named 'alpha' already exists");
    CHECK(names(d) == std::vector<std::string>{"alpha", "beta"});
    // The process's registry refuses a name the examples use.
    CHECK_THROWS_WITH(register_design(named("memcpy")), "register_design: a design named 'memcpy' already exists");
}

TEST_CASE("a design needs a name and a build function, a factory's error surfaces at the first look",
          "[harness][registry]") {
    DesignRegistry r;
    CHECK_THROWS_WITH(r.add(named(""), 10), "register_design: a design needs a name and a build function");
    DesignSpec no_build;
    no_build.name = "x";
    CHECK_THROWS_WITH(r.add(no_build, 10), "register_design: a design needs a name and a build function");
    r.add_deferred(&make_failing, 10);
    r.add_deferred(&make_beta, 20);
    CHECK_THROWS_WITH(r.designs(), "design 'failing': cannot be described");
    CHECK(names(r) == std::vector<std::string>{"beta"});
}

TEST_CASE("every example design is registered exactly once, in the npusim list order", "[harness][registry]") {
    std::vector<std::string> listed;
    for (const auto& d : all_designs()) listed.push_back(d.name);
    CHECK(listed ==
          std::vector<std::string>{
              "passthrough_kernel", "passthrough_dmas", "vector_scalar_mul", "vector_vector_add", "matmul_single_core",
              "matmul_bfp16", "matmul_whole_array", "matmul_cascade", "vector_reduce_max", "vector_reduce_max_memtile",
              "row_wise_bias_add", "transpose_dma", "memcpy", "relu", "scale_shift", "per_tile", "invocation_counter",
              "init_values_repeat", "vec_vec_add_objfifo_init", "edge_detect", "color_detect", "color_threshold",
              "softmax", "swiglu", "rms_norm", "conv2d", "transform", "reduce", "lowlevel_passthrough", "chaining_channels", "custom_dma",
              "manual_switchbox", "stream_port_passthrough",
              "scratchpad_multiply", "scratchpad_offset",
              "packet_flow_merge", "dma_padding",
              // the catalog of hanging designs (docs/deadlocks.md)
              "deadlock_shared_pool_overacquire", "deadlock_held_exceeds_depth", "deadlock_opposite_order",
              "deadlock_opposite_order_dma", "deadlock_ring3", "deadlock_broadcast_skip", "deadlock_join_early",
              "deadlock_memtile_second_pass", "deadlock_drain_more", "deadlock_fill_less", "deadlock_partial_object",
              "deadlock_finished_worker", "deadlock_cascade_never_put"});
    CHECK(std::set<std::string>(listed.begin(), listed.end()).size() == listed.size());
    for (const auto& d : all_designs()) {
        INFO(d.name);
        CHECK(&design_by_name(d.name) == &d);
        CHECK_FALSE(d.devices.empty());
        CHECK(d.build);
    }
}

TEST_CASE("the registry lists designs and rejects bad names and parameters", "[harness][registry]") {
    CHECK(all_designs().size() >= 4);
    CHECK(design_by_name(default_design()).name == "passthrough_kernel");
    CHECK_THROWS_WITH(design_by_name("nope"), Catch::StartsWith("unknown design 'nope' (designs: passthrough_kernel,"));
    CHECK_THROWS_WITH(design_by_name("passthrough_kernel").resolve_params({{"width", 3}}),
                      "design 'passthrough_kernel' has no parameter 'width' (parameters: size, tile, bits)");
}
