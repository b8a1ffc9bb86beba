// DesignInstance: its argument checks against the runtime sequence, the reference run on the
// actual inputs, host tensors, and check().
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"
#include "npusim/model/Error.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("goldens come from the actual inputs: the reference runs on what was simulated", "[golden]") {
    const auto& spec = design_by_name("vector_scalar_mul");
    const auto inst = spec.build(model::device_by_name("npu1"), spec.resolve_params({{"size", 64}, {"tile", 32}}), 5);
    REQUIRE(inst.args.size() == 3);
    CHECK(inst.args[0].name == "a");
    CHECK(inst.args[1].role == ArgRole::output);
    CHECK(inst.args[2].type_str() == "i32[1]");
    Tensors in = inst.inputs;
    in["a"] = Tensor::from<std::int16_t>({64}, std::vector<std::int16_t>(64, 1000));
    in["factor"] = Tensor::from<std::int32_t>({1}, {-40});
    const auto want = inst.expected(in);
    CHECK(want.at("c").values<std::int16_t>()[0] == static_cast<std::int16_t>(-40000)); // wraps like numpy astype
    // Host tensors lay the inputs out per argument; outputs start zeroed.
    const auto host = inst.host_tensors(in);
    REQUIRE(host.size() == 3);
    CHECK(host[1] == std::vector<std::uint8_t>(128));
    auto after = host;
    after[1] = want.at("c").data;
    CHECK(inst.check(in, after)[0].match);
    CHECK_FALSE(inst.check(after)[0].match); // against the seed inputs it differs
    // From movable inputs: the same host tensors, each input's bytes moved (not copied) out of them.
    Tensors moved = in;
    const auto* a_bytes = moved.at("a").data.data();
    const auto taken = inst.host_tensors(std::move(moved));
    CHECK(taken == host);
    CHECK(taken[0].data() == a_bytes);
    CHECK(moved.empty());
    Tensors missing = in;
    missing.erase("factor");
    CHECK_THROWS_WITH(inst.host_tensors(std::move(missing)),
                      "design 'vector_scalar_mul': input 'factor' needs a i32[1] tensor, none given");
    CHECK(inst.host() == inst.host_tensors(inst.inputs));
}

TEST_CASE("DesignInstance checks the declared arguments against the runtime sequence", "[golden]") {
    using namespace iron;
    const auto& dev = model::device_by_name("npu1_1col");
    auto make = [&] {
        ObjectFifo in(tensor<std::int32_t>({16}), "in");
        ObjectFifo out = in.cons().forward();
        Runtime rt(
            [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
                i.fill(a);
                o.drain(b, {.wait = true});
            },
            fn_args(tensor<std::int32_t>({16}), tensor<std::int32_t>({16}), in.prod(), out.cons()));
        return Program(dev, rt, {}, "t");
    };
    const auto i32 = tensor<std::int32_t>({16});
    auto ref = [](const Tensors& in) { return Tensors{{"b", get(in, "a")}}; };
    const Tensors in{{"a", Tensor(DType::i32, {16})}};
    CHECK_NOTHROW(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)}, in, ref, "t"));
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32)}, in, ref, "t"),
                      "design 't' declares 1 runtime arguments, its runtime sequence takes 2");
    CHECK_THROWS_WITH(DesignInstance(make(),
                                     {ArgSpec::input("a", i32), ArgSpec::output("b", tensor<std::int16_t>({16}))}, in,
                                     ref, "t"),
                      "design 't': runtime argument 1 'b' is declared i16[16] but the runtime sequence takes i32[16]");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("a", i32)}, in, ref, "t"),
                      "design 't': two runtime arguments are called 'a'");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::input("b", i32)}, in, ref, "t"),
                      "design 't': no generated data for input 'b'");
    CHECK_THROWS_WITH(DesignInstance(make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)},
                                     {{"a", Tensor(DType::i32, {8})}}, ref, "t"),
                      "design 't': generated data for input 'a' is i32[8], the argument is i32[16]");
    const DesignInstance bad_ref(
        make(), {ArgSpec::input("a", i32), ArgSpec::output("b", i32)}, in,
        [](const Tensors&) {
            return Tensors{{"b", Tensor(DType::i32, {4})}};
        },
        "t");
    CHECK_THROWS_WITH(bad_ref.expected(in),
                      "design 't': the reference computes i32[4] for output 'b', the argument is i32[16]");
}
