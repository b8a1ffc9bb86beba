// A design declares how its float outputs are compared (DesignSpec::tolerance): the run uses it
// unless RunOptions::tolerance (`npusim run --tolerance`) overrides it.
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/harness/DesignRunner.hpp"
#include "support/Passthrough.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

using namespace npusim;
using namespace npusim::harness;

namespace {
constexpr std::int64_t kN = 256;

// A copy whose reference is 1e-5 relatively above the input, compared with rtol 6e-6: inside
// nearly_equal's rtol x (|got| + |want|), outside allclose's rtol x |want|.
const DesignSpec& nearly_equal_design() {
    static const bool registered = [] {
        DesignSpec s;
        s.name = "test_declared_nearly_equal";
        s.description = "test: a design comparing with nearly-equal";
        s.devices = {"npu1_1col"};
        s.kernels_note = "no kernel: the body copies";
        s.tolerance = ToleranceMode::nearly_equal;
        s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions&) {
            const auto ty = iron::tensor<float>({kN});
            const auto program = test::passthrough({.type = ty, .host_elements = kN, .spec = &dev});
            std::vector<float> x(kN);
            for (std::int64_t i = 0; i < kN; ++i) x[static_cast<std::size_t>(i)] = 1.0f + static_cast<float>(i);
            auto reference = [](const Tensors& in) {
                auto v = get(in, "a").values<float>();
                for (auto& e : v) e *= 1.00001f;
                return tensors("b", Tensor::from({kN}, v));
            };
            return DesignInstance(program, {ArgSpec::input("a", ty), ArgSpec::output("b", ty, 6e-6, 0.0)},
                                  tensors("a", Tensor::from({kN}, x)), reference, "test_declared_nearly_equal");
        };
        register_design(std::move(s));
        return true;
    }();
    (void)registered;
    return design_by_name("test_declared_nearly_equal");
}
} // namespace

TEST_CASE("a design's declared comparison mode applies unless --tolerance overrides it", "[harness][tolerance]") {
    const auto& spec = nearly_equal_design();
    auto opts = test::run_opts("npu1_1col", 1);
    CHECK(run_design(spec, "npu1_1col", {}, opts).all_match); // the design's nearly-equal
    opts.tolerance = ToleranceMode::allclose;
    CHECK_FALSE(run_design(spec, "npu1_1col", {}, opts).all_match); // overridden
    opts.tolerance = ToleranceMode::nearly_equal;
    CHECK(run_design(spec, "npu1_1col", {}, opts).all_match);
}

TEST_CASE("params_text shows a named parameter by its name, others by number", "[harness][params]") {
    DesignSpec s;
    s.params = {{"M", 64, "rows"}, {"dtype", 0, "element type", {"i32", "i8"}}};
    CHECK(s.params_text({{"M", 128}, {"dtype", 1}}) == "M=128 dtype=i8");
    CHECK(s.params_text({{"other", 3}}) == "other=3");
    CHECK(s.params_text({}).empty());
}
