// The built-in library's post-stage 1x1 kernels (harness/KernelLibraryConv.hpp; mlir-aie
// python/iron/kernels/conv.py bn_conv2dk1_relu_xy_pool_padded :402-443, bn_fc_relu_ui16_pad
// :669-706 at 3ca0193): IRON's names, argument types and defaults, their refusals, and both run in
// one-core designs shaped as MobileNet's post_l1 / post_l2 (a 7x7 image pooled row by row over weight
// chunks into one uint16 output held across the rows; a uint16 vector through padded weight rows)
// with both kernel sets, equal to the references called directly; a call that would write past its
// output is a kernel error naming why.
#include "npusim/harness/KernelLibraryConv.hpp"
#include "npusim/iron.hpp"
#include "npusim/kernels/conv2dk1_pool.hpp"
#include "support/HostBytes.hpp"
#include "support/RunOptions.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace iks = npusim::harness::iron_kernels;

namespace {

std::vector<std::string> post_lib_types(const npusim::iron::Kernel& k) {
    std::vector<std::string> out;
    for (const auto& t : k.arg_types()) out.push_back(t.str());
    return out;
}

constexpr std::int64_t kPostW = 7, kPostCi = 16, kPostCo = 16, kPostPadd = 24, kPostSplit = 2;

// A 7x7 int8 image pooled through `k` (factory output_channels = 24: 16 channels padded to 24) in two
// weight chunks a row; the host gives the rows, the weights once per row, and reads the 24 outputs.
std::vector<std::uint8_t> post_lib_pool_run(const npusim::iron::Kernel& k, const std::vector<std::int8_t>& rows,
                                            const std::vector<std::int8_t>& wts, std::int64_t scale,
                                            std::int64_t weight_index_shift) {
    using namespace npusim;
    using namespace npusim::iron;
    const std::int64_t chunk = kPostCo / kPostSplit * kPostCi;
    const auto row_ty = tensor<std::int8_t>({kPostW * kPostCi});
    const auto chunk_ty = tensor<std::int8_t>({chunk});
    const auto out_ty = tensor<std::uint16_t>({kPostPadd});
    ObjectFifo fi(row_ty, "rows", 1), fw(chunk_ty, "wts", 1), fo(out_ty, "out", 1);
    Worker wk(
        [=](ObjectFifoHandle ii, ObjectFifoHandle iw, ObjectFifoHandle oo, Kernel kern) {
            auto eo = oo.acquire(1);
            for (std::int64_t y = 0; y < kPostW; ++y) {
                auto ei = ii.acquire(1);
                for (std::int64_t wi = 0; wi < kPostSplit; ++wi) {
                    auto ew = iw.acquire(1);
                    kern(ei, ew, eo, kPostW, kPostCi, kPostCo, kPostPadd, scale, y, kPostSplit,
                         wi + weight_index_shift);
                    iw.release(1);
                }
                ii.release(1);
            }
            oo.release(1);
        },
        fn_args(fi.cons(), fw.cons(), fo.prod(), k), WorkerOptions{.name = "pool"});
    const auto rows_ty = tensor<std::int8_t>({kPostW * kPostW * kPostCi});
    const auto wts_ty = tensor<std::int8_t>({kPostW * kPostSplit * chunk});
    Runtime rt(
        [](RuntimeData hr, RuntimeData hw, RuntimeData ho, ObjectFifoHandle pr, ObjectFifoHandle pw,
           ObjectFifoHandle co_) {
            pr.fill(hr);
            pw.fill(hw);
            co_.drain(ho, {.wait = true});
        },
        fn_args(rows_ty, wts_ty, out_ty, fi.prod(), fw.prod(), fo.cons()));
    std::vector<std::int8_t> wts_rows;
    for (std::int64_t y = 0; y < kPostW; ++y) wts_rows.insert(wts_rows.end(), wts.begin(), wts.end());
    const auto net = Program(model::device_by_name("npu1_1col"), rt, {wk}, "pool").resolve();
    const auto r = sim::simulate(net, {test::bytes_of(rows), test::bytes_of(wts_rows),
                                       std::vector<std::uint8_t>(2 * kPostPadd, 0xaa)},
                                 test::sim_opts("npu1_1col"));
    return r.host[2];
}

} // namespace

TEST_CASE("bn_conv2dk1_relu_xy_pool_padded / bn_fc_relu_ui16_pad: IRON's names, signatures and defaults, their "
          "refusals, costs",
          "[harness][kernel_library]") {
    const auto pool = iks::bn_conv2dk1_relu_xy_pool_padded();
    CHECK(pool.name() == "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8");
    std::vector<std::string> want{"i8[560]", "i8[102400]", "u16[1280]"};
    want.insert(want.end(), 8, "i32 scalar");
    CHECK(post_lib_types(pool) == want);
    CHECK(post_lib_types(iks::bn_conv2dk1_relu_xy_pool_padded(7, 80, 1280, 9600,
                                                              npusim::harness::KernelSet::aie))[1] == "i8[9600]");
    const auto fc = iks::bn_fc_relu_ui16_pad();
    CHECK(fc.name() == "post_L2_conv2dk1_relu_i16_ui16_pad");
    CHECK(post_lib_types(fc) == std::vector<std::string>{"u16[1280]", "i8[20480]", "u16[16]", "i32 scalar",
                                                         "i32 scalar", "i32 scalar", "i32 scalar", "i32 scalar"});
    CHECK(post_lib_types(iks::bn_fc_relu_ui16_pad(1280, 8, 10240))[1] == "i8[10240]");
    // post_l1's call: 7 pixels, 80 channels, 960 of 1280 outputs, 8 chunks
    std::vector<npusim::iron::KernelArg> a(11);
    for (const auto& [i, v] : {std::pair{3, 7}, {4, 80}, {5, 960}, {6, 1280}, {9, 8}}) a[i].ivalue = v;
    CHECK(pool.cost(a) == npusim::kernels::conv2dk1_xy_pool_cycles(7, 80, 960, 1280, 8));
    CHECK(pool.cost(a) == 120u * 7 * 80 + 120 + 320);
    std::vector<npusim::iron::KernelArg> f(8);
    for (const auto& [i, v] : {std::pair{3, 1}, {4, 960}, {5, 1280}, {6, 8}}) f[i].ivalue = v;
    CHECK(fc.cost(f) == 8u * 961);
    CHECK_THROWS_WITH(iks::bn_conv2dk1_relu_xy_pool_padded(0),
                      "bn_conv2dk1_relu_xy_pool_padded(): input_width=0 must be in 1..1024 (npusim's build)");
    CHECK_THROWS_WITH(iks::bn_conv2dk1_relu_xy_pool_padded(7, 84),
                      "bn_conv2dk1_relu_xy_pool_padded(): input_channels=84 and output_channels=1280 must be positive "
                      "multiples of 8 up to 4096");
    CHECK_THROWS_WITH(iks::bn_fc_relu_ui16_pad(1280, 12),
                      "bn_fc_relu_ui16_pad(): input_channels=1280 and output_channels=12 must be positive multiples "
                      "of 8 up to 4096");
    CHECK_THROWS_WITH(iks::bn_fc_relu_ui16_pad(1280, 16, 0),
                      "bn_fc_relu_ui16_pad(): weight_chunk_count=0 must be positive");
}

TEST_CASE("bn_conv2dk1_relu_xy_pool_padded pools a 7x7 image over weight chunks, both kernel sets equal to the "
          "reference, and a chunk past the output is a kernel error",
          "[harness][kernel_library]") {
    std::mt19937 rng(61);
    std::vector<std::int8_t> rows(kPostW * kPostW * kPostCi), wts(kPostCo * kPostCi);
    for (auto& v : rows) v = static_cast<std::int8_t>(rng() & 0xff);
    for (auto& v : wts) v = static_cast<std::int8_t>(rng() & 0xff);
    const std::int64_t scale = 8, chunk = kPostCo / kPostSplit * kPostCi;
    std::vector<std::uint16_t> want(kPostPadd, 0xaaaa);
    for (std::int64_t y = 0; y < kPostW; ++y)
        for (std::int64_t wi = 0; wi < kPostSplit; ++wi)
            npusim::kernels::conv2dk1_xy_pool_padded_u16(rows.data() + y * kPostW * kPostCi, wts.data() + wi * chunk,
                                                         want.data(), kPostW, kPostCi, kPostCo, kPostPadd, scale,
                                                         static_cast<std::int32_t>(y), kPostSplit,
                                                         static_cast<std::int32_t>(wi));
    CHECK(want[kPostCo] == 0);
    for (const auto ks : {npusim::harness::KernelSet::reference, npusim::harness::KernelSet::aie}) {
        const auto k = iks::bn_conv2dk1_relu_xy_pool_padded(kPostW, kPostCi, kPostPadd, chunk, ks);
        CHECK(post_lib_pool_run(k, rows, wts, scale, 0) == npusim::test::bytes_of(want));
        try {
            post_lib_pool_run(k, rows, wts, scale, 2); // chunk 2 ends at 24, chunk 3 does not fit
            FAIL("a chunk past the output ran");
        } catch (const npusim::SimulationError& e) {
            CHECK(std::string(e.what()) ==
                  "worker 'pool': kernel 'conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8' threw: "
                  "conv2dk1_xy_pool_fused_relu_large_padded_i8_ui8: weight_index=3 writes output channels [24, 32), "
                  "outside the factory's output_channels=24");
        }
    }
}

TEST_CASE("bn_fc_relu_ui16_pad runs post_l2's call shape, both kernel sets equal to the reference",
          "[harness][kernel_library]") {
    using namespace npusim;
    using namespace npusim::iron;
    std::mt19937 rng(62);
    const std::int64_t ci = 64, ci_used = 48, co = 16, scale = 9, wc = co * ci;
    std::vector<std::uint16_t> in(ci);
    for (auto& v : in) v = static_cast<std::uint16_t>(rng() % 256); // pooled uint8 values, as post_l1 leaves them
    std::vector<std::int8_t> wts(wc);
    for (auto& v : wts) v = static_cast<std::int8_t>(rng() & 0xff);
    std::vector<std::uint16_t> want(co);
    kernels::conv2dk1_fc_relu_pad_u16(in.data(), wts.data(), want.data(), 1, ci_used, ci, co, scale);
    for (const auto ks : {harness::KernelSet::reference, harness::KernelSet::aie}) {
        const auto k = iks::bn_fc_relu_ui16_pad(ci, co, std::nullopt, ks);
        const auto in_ty = tensor<std::uint16_t>({ci});
        const auto w_ty = tensor<std::int8_t>({wc});
        const auto o_ty = tensor<std::uint16_t>({co});
        ObjectFifo fi(in_ty, "act", 1), fw(w_ty, "wts", 1), fo(o_ty, "out", 1);
        Worker wk(
            [=](ObjectFifoHandle ii, ObjectFifoHandle iw, ObjectFifoHandle oo, Kernel kern) {
                auto ei = ii.acquire(1);
                auto ew = iw.acquire(1);
                auto eo = oo.acquire(1);
                kern(ei, ew, eo, 1, ci_used, ci, co, scale);
                ii.release(1);
                iw.release(1);
                oo.release(1);
            },
            fn_args(fi.cons(), fw.cons(), fo.prod(), k), WorkerOptions{.name = "fc"});
        Runtime rt(
            [](RuntimeData hi, RuntimeData hw, RuntimeData ho, ObjectFifoHandle pi, ObjectFifoHandle pw,
               ObjectFifoHandle co_) {
                pi.fill(hi);
                pw.fill(hw);
                co_.drain(ho, {.wait = true});
            },
            fn_args(in_ty, w_ty, o_ty, fi.prod(), fw.prod(), fo.cons()));
        const auto net = Program(model::device_by_name("npu1_1col"), rt, {wk}, "fc").resolve();
        const auto r = sim::simulate(net, {test::bytes_of(in), test::bytes_of(wts), std::vector<std::uint8_t>(2 * co)},
                                     test::sim_opts("npu1_1col"));
        CHECK(r.host[2] == test::bytes_of(want));
    }
}
