// harness::fit_least_squares on residual functions with known answers: a linear model fitted
// exactly, bounds that hold, whole cycles, and parameters the observations cannot tell apart held.
#include "npusim/harness/TimingFit.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace npusim;

namespace {

harness::FitParameter fit_param(const char* name, double start, double lower, double upper, bool integer) {
    return {name, start, start, std::max(start, 1.0), lower, upper, integer};
}

} // namespace

TEST_CASE("fit_least_squares: a linear model's parameters are found, whole cycles stay whole", "[harness][calibrate]") {
    // Observations y_i = a * i + b, with a = 7 (cycles) and b = 2.5 (a rate).
    const std::vector<harness::FitParameter> ps{fit_param("a", 1, 0, 1000, true), fit_param("b", 1, 0.1, 10, false)};
    auto residuals = [](const std::vector<double>& x) {
        std::vector<double> r;
        for (int i = 0; i < 20; ++i) r.push_back((7.0 * i + 2.5) - (x[0] * i + x[1]));
        return r;
    };
    harness::FitOptions exact;
    exact.prior_weight = 1e-9; // no pull toward the start: the data decide alone
    const auto out = harness::fit_least_squares(ps, residuals, exact);
    CHECK(out.values[0] == 7);
    CHECK(out.values[1] == Approx(2.5).epsilon(1e-3));
    CHECK(out.held[0] == harness::kFitted);
    for (double r : out.residuals) CHECK(std::abs(r) < 0.01);
    // The default prior pulls a weakly observed parameter toward its table value: b moves by
    // 20 residuals of one unit each against one unit of prior, so it stops short of 2.5.
    const auto pulled = harness::fit_least_squares(ps, residuals);
    CHECK(pulled.values[1] < 2.5);
    CHECK(pulled.values[1] > 2.3);
}

TEST_CASE("fit_least_squares: a bound holds where the data pull past it", "[harness][calibrate]") {
    // The data want -5 cycles of latency: physics says 0.
    const std::vector<harness::FitParameter> ps{fit_param("lat", 3, 0, 100, true)};
    const auto out = harness::fit_least_squares(ps, [](const std::vector<double>& x) {
        return std::vector<double>{-5.0 - x[0], -5.0 - x[0]};
    });
    CHECK(out.values[0] == 0);
}

TEST_CASE("fit_least_squares: of two parameters that move the observations alike, the weaker is held",
          "[harness][calibrate]") {
    // y = (p + q) * i: only the sum is seen; q moves less (scale 1 vs 4) and is held at its start.
    const std::vector<harness::FitParameter> ps{fit_param("p", 4, 0, 100, true), fit_param("q", 1, 0, 100, true),
                                                fit_param("unused", 2, 0, 100, true)};
    const auto out = harness::fit_least_squares(ps, [](const std::vector<double>& x) {
        std::vector<double> r;
        for (int i = 1; i <= 10; ++i) r.push_back(9.0 * i - (x[0] + x[1]) * i);
        return r;
    });
    CHECK(out.values[0] == 8);
    CHECK(out.values[1] == 1);
    CHECK(out.held[1] == 0); // moves as p does
    CHECK(out.held[2] == harness::kNoEffect);
    CHECK(out.values[2] == 2);
}

TEST_CASE("fit_least_squares: parameters collinear at the fitted values are one combined degree of freedom",
          "[harness][calibrate]") {
    // y_i = (p + q) * i for i = 1..10, and y_0 = 3 * max(0, 5 - p): at the start (p = q = 1) the
    // first observation tells p from q (their columns' cosine is 0.99, so both are fitted); once p
    // passes 5 only p + q = 20 is seen. The split along p - q is what the prior gives (both start
    // at 1 with a scale of 1: 10 and 10), not where the steps happened to stop, and it is reported.
    const std::vector<harness::FitParameter> ps{fit_param("p", 1, 0, 100, false), fit_param("q", 1, 0, 100, false)};
    const auto residuals = [](const std::vector<double>& x) {
        std::vector<double> r{0.0 - 3.0 * std::max(0.0, 5.0 - x[0])};
        for (int i = 1; i <= 10; ++i) r.push_back(20.0 * i - (x[0] + x[1]) * i);
        return r;
    };
    harness::FitOptions opts;
    opts.prior_weight = 1e-6;
    const auto out = harness::fit_least_squares(ps, residuals, opts);
    CHECK(out.held[0] == harness::kFitted);
    CHECK(out.held[1] == harness::kFitted);
    CHECK(out.values[0] + out.values[1] == Approx(20).epsilon(1e-3));
    CHECK(out.values[0] == Approx(10).epsilon(0.02));
    CHECK(out.values[1] == Approx(10).epsilon(0.02));
    REQUIRE(out.combined.size() == 1);
    CHECK(out.combined[0] == std::vector<int>{0, 1});
    CHECK(out.combined_condition[0] > 1000);
    // Without the check the split is wherever the steps stopped: p took most of the change.
    opts.max_condition = 0;
    const auto raw = harness::fit_least_squares(ps, residuals, opts);
    CHECK(raw.combined.empty());
    CHECK(raw.values[0] + raw.values[1] == Approx(20).epsilon(1e-3));
    CHECK(std::abs(raw.values[0] - raw.values[1]) > 1);
}

TEST_CASE("timing_fit_parameter: the bounds physics gives", "[harness][calibrate]") {
    const auto t = model::TimingParams::for_arch(model::Arch::AIE2);
    const auto stream = harness::timing_fit_parameter(*model::find_timing_param("stream_bytes_per_cycle"), t);
    CHECK(stream.upper == 4); // AM020's 32-bit port
    CHECK(stream.lower > 0);
    const auto t2 = model::TimingParams::for_arch(model::Arch::AIE2P);
    CHECK(harness::timing_fit_parameter(*model::find_timing_param("stream_bytes_per_cycle"), t2).upper == 8);
    const auto k = harness::timing_fit_parameter(*model::find_timing_param("kernel_call_overhead_cycles"), t);
    CHECK(k.lower == 0); // no call faster than its body at peak
    CHECK(k.integer);
    CHECK_FALSE(harness::timing_row_fittable(*model::find_timing_param("clock_mhz")));
    CHECK_THROWS_AS(harness::fit_least_squares({}, [](const std::vector<double>&) { return std::vector<double>{}; }),
                    std::invalid_argument);
}
