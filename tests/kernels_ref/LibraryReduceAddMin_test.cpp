// reduce_add / reduce_min reference kernels (kernels_ref/library/reduce_add_min.hpp) against an
// independent formulation: the exact sum in 64 bits reduced modulo 2^32, and std::min_element.
#include "npusim/kernels/library/reduce_add_min.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace npusim::kernels::library;

TEST_CASE("reduce_add and reduce_min, vector and scalar", "[kernels][library]") {
    std::mt19937 rng(5);
    for (std::int32_t n : {128, 1024, 4096}) {
        std::vector<std::int32_t> in(static_cast<std::size_t>(n));
        // large values so that the sum wraps
        for (auto& x : in) x = static_cast<std::int32_t>(rng());
        std::int64_t exact = 0;
        for (auto x : in) exact += x;
        const auto wrapped = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(exact)));
        const auto lowest = *std::min_element(in.begin(), in.end());
        std::int32_t out = 0;
        reduce_add_vector_i32(in.data(), &out, n);
        CHECK(out == wrapped);
        reduce_add_scalar_i32(in.data(), &out, n);
        CHECK(out == wrapped);
        reduce_min_vector_i32(in.data(), &out, n);
        CHECK(out == lowest);
        reduce_min_scalar_i32(in.data(), &out, n);
        CHECK(out == lowest);
    }
    std::int32_t out = 1;
    reduce_min_scalar_i32(&out, &out, 0);
    CHECK(out == std::numeric_limits<std::int32_t>::max());
    reduce_add_scalar_i32(&out, &out, 0);
    CHECK(out == 0);
    CHECK(reduce_vector_i32_cycles(1024) == 64 + kReduceTailCycles);
    CHECK(reduce_scalar_i32_cycles(10) == 120);
}

TEST_CASE("reduce_add / reduce_min preconditions", "[kernels][library]") {
    std::vector<std::int32_t> in(128);
    std::int32_t out = 0;
    CHECK_THROWS_AS(reduce_add_vector_i32(in.data(), &out, 112), std::invalid_argument); // 7 vectors < 8
    CHECK_THROWS_AS(reduce_min_vector_i32(in.data(), &out, 120), std::invalid_argument); // not a multiple of 16
    CHECK_THROWS_AS(reduce_add_scalar_i32(nullptr, &out, 4), std::invalid_argument);
    CHECK_THROWS_AS(reduce_min_scalar_i32(in.data(), &out, -1), std::invalid_argument);
}
