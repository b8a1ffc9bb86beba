// Host tensors and argument specs: shapes in numpy spelling, typed construction and access, the
// byte helpers, and lookups by name.
#include "npusim/harness/Tensor.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>

using namespace npusim;
using namespace npusim::harness;

TEST_CASE("shapes: element counts and numpy spelling", "[harness][tensor]") {
    CHECK(shape_elements({}) == 1);
    CHECK(shape_elements({2, 3}) == 6);
    CHECK(shape_str({}) == "()");
    CHECK(shape_str({4096}) == "(4096,)");
    CHECK(shape_str({2, 3}) == "(2, 3)");
    CHECK(numpy_dtype_name(DType::bf16) == "bfloat16");
    CHECK(numpy_dtype_name(DType::u32) == "uint32");
    CHECK(numpy_dtype_name(DType::u16) == "uint16");
    CHECK(role_name(ArgRole::unused) == "unused");
}

TEST_CASE("Tensor: zero-filled or from values, typed access checked", "[harness][tensor]") {
    const Tensor z(DType::i16, {2, 3});
    CHECK(z.bytes() == 12);
    CHECK(z.type_str() == "i16[2,3]");
    const auto t = Tensor::from<std::int32_t>({3}, {1, -2, 3});
    CHECK(t.values<std::int32_t>() == std::vector<std::int32_t>{1, -2, 3});
    CHECK_THROWS_WITH(t.values<std::int16_t>(), "Tensor::values: the tensor holds i32, not i16");
    CHECK_THROWS_WITH(Tensor::from<std::int32_t>({4}, {1, 2}), "Tensor::from: 2 values for a shape of 4 elements");
    CHECK_THROWS_WITH(Tensor(DType::i32, {2}, std::vector<std::uint8_t>(7)),
                      "Tensor i32[2]: 7 bytes of data, expected 8");
    CHECK(Tensor(DType::i32, {}).type_str() == "i32[]");
}

// The generated inputs of the data-movement designs (E1, memcpy): each 64-bit draw of
// mt19937_64 gives the next 8 bytes, least significant first. The reference takes the draws' bytes
// by shifting, one at a time; the sizes cover whole draws, a partial last draw and an empty tensor.
TEST_CASE("Tensor::random_bits: the bytes of successive mt19937_64 draws", "[harness][tensor]") {
    for (const std::int64_t elements : {0, 1, 7, 8, 9, 4096, 4099}) {
        for (const auto dt : {DType::u8, DType::i8, DType::i16, DType::u16, DType::i32, DType::u32}) {
            const auto t = Tensor::random_bits(dt, {elements}, 42);
            REQUIRE(t.dtype == dt);
            REQUIRE(t.shape == std::vector<std::int64_t>{elements});
            REQUIRE(t.bytes() == static_cast<std::uint64_t>(elements) * dtype_bytes(dt));
            std::mt19937_64 rng(42);
            std::uint64_t w = 0;
            for (std::size_t i = 0; i < t.data.size(); ++i) {
                if (i % 8 == 0) w = rng();
                REQUIRE(t.data[i] == static_cast<std::uint8_t>(w >> (8 * (i % 8))));
            }
        }
    }
    // Another seed, other bytes; the same seed, the same bytes.
    CHECK(Tensor::random_bits(DType::u8, {64}, 1).data != Tensor::random_bits(DType::u8, {64}, 2).data);
    CHECK(Tensor::random_bits(DType::u8, {64}, 1).data == Tensor::random_bits(DType::u8, {64}, 1).data);
    CHECK_THROWS_WITH(Tensor::random_bits(DType::bf16, {4}, 1),
                      "Tensor::random_bits: bf16 is a float type (random bits would include NaNs); draw its values "
                      "instead");
}

TEST_CASE("byte helpers round-trip host vectors", "[harness][tensor]") {
    const std::vector<std::int16_t> v{1, -1, 300};
    const auto b = to_bytes(v);
    CHECK(b.size() == 6);
    CHECK(from_bytes<std::int16_t>(b) == v);
    CHECK(from_bytes<std::int32_t>(std::vector<std::uint8_t>(7)).size() == 1); // a partial element is dropped
    CHECK(to_bytes(std::vector<float>{}).empty());
}

TEST_CASE("ArgSpec and get", "[harness][tensor]") {
    const auto a = ArgSpec::output("c", iron::tensor<float>({4}), 1e-3, 1e-6);
    CHECK(a.role == ArgRole::output);
    CHECK(a.is_float());
    CHECK(a.bytes() == 16);
    CHECK(a.matches(Tensor(DType::f32, {4})));
    CHECK_FALSE(a.matches(Tensor(DType::f32, {2, 2})));
    CHECK(ArgSpec::input("a", iron::tensor<std::int8_t>({8})).rtol == 0);
    const Tensors ts{{"a", Tensor(DType::u8, {1})}, {"b", Tensor(DType::u8, {2})}};
    CHECK(get(ts, "b").elements() == 2);
    CHECK_THROWS_WITH(get(ts, "x"), "no tensor 'x' (tensors: a, b)");
    CHECK_THROWS_WITH(get(Tensors{}, "x"), "no tensor 'x' (tensors: none)");
}

TEST_CASE("tensors() moves each tensor into the map: no copy of the bytes", "[harness][tensor]") {
    Tensor a = Tensor::from<std::int32_t>({4}, {1, 2, 3, 4});
    const auto* bytes = a.data.data();
    const Tensors m = tensors("a", std::move(a), "b", Tensor(DType::i16, {2}), "a", Tensor(DType::u8, {1}));
    REQUIRE(m.size() == 2);
    CHECK(m.at("a").data.data() == bytes); // the same buffer
    CHECK(m.at("a").values<std::int32_t>() == std::vector<std::int32_t>{1, 2, 3, 4}); // the first 'a' is kept
    CHECK(m.at("b").type_str() == "i16[2]");
}
