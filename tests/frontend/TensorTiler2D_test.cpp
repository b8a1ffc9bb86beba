// TensorTiler2D / TensorAccessSequence (IRON taplib). Expected patterns are the values upstream's
// taplib produces: mlir-aie test/python/taplib/{simple_tiler,group_tiler_partial,step_tiler}.py and
// the examples' taps listed in reference/iron-api-and-examples.md (E6 single_core.py, E8
// cascade.py, E9 row_wise_bias_add.py, E11 vector_exp's simple_tiler). Access orders are checked
// against plain nested loops written here.
#include "npusim/model/Error.hpp"
#include "npusim/taplib/AccessHeatmap.hpp"
#include "npusim/taplib/TensorTiler2D.hpp"
#include "support/TempDir.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

using namespace npusim;
using namespace npusim::iron;
using V = std::vector<std::int64_t>;

namespace {
void check_tap(const TensorAccessPattern& t, std::int64_t offset, std::array<std::int64_t, 4> sizes,
               std::array<std::int64_t, 4> strides) {
    INFO(t.str());
    CHECK(t.offset() == offset);
    CHECK(t.sizes() == sizes);
    CHECK(t.strides() == strides);
}
} // namespace

TEST_CASE("simple_tiler: one linear pattern, and one pattern per tile", "[frontend][taplib]") {
    // simple_tiler.py: simple_tiler((3, 5)) -> sizes [1,1,3,5], strides [0,0,5,1]
    const auto one = TensorTiler2D::simple_tiler({3, 5});
    REQUIRE(one.size() == 1);
    check_tap(one[0], 0, {1, 1, 3, 5}, {0, 0, 5, 1});
    // simple_tiler((9, 4), (3, 2)): 6 tiles at offsets 0, 2, 12, 14, 24, 26
    const auto tiles = TensorTiler2D::simple_tiler({9, 4}, V{3, 2});
    REQUIRE(tiles.size() == 6);
    const V offsets{0, 2, 12, 14, 24, 26};
    for (std::size_t i = 0; i < 6; ++i) check_tap(tiles[i], offsets[i], {1, 1, 3, 2}, {0, 0, 4, 1});
    // independent order: tiles row-major, elements row-major within a tile
    V expect(36, -1);
    std::int64_t step = 0;
    for (int tr = 0; tr < 3; ++tr)
        for (int tc = 0; tc < 2; ++tc)
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 2; ++c) expect[static_cast<std::size_t>((tr * 3 + r) * 4 + tc * 2 + c)] = step++;
    CHECK(tiles.access_order() == expect);
    CHECK(tiles.access_count() == V(36, 1));
    CHECK(tiles.visualize() == "[0] tap(offset=0, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               "[1] tap(offset=2, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               "[2] tap(offset=12, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               "[3] tap(offset=14, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               "[4] tap(offset=24, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               "[5] tap(offset=26, sizes=[1,1,3,2], strides=[0,0,4,1])\n"
                               " 0  1  6  7\n"
                               " 2  3  8  9\n"
                               " 4  5 10 11\n"
                               "12 13 18 19\n"
                               "14 15 20 21\n"
                               "16 17 22 23\n"
                               "24 25 30 31\n"
                               "26 27 32 33\n"
                               "28 29 34 35\n");
}

TEST_CASE("simple_tiler options as the examples use them", "[frontend][taplib]") {
    // E10 matrix transpose-style fill: simple_tiler((64,64), tile_col_major=True)
    check_tap(TensorTiler2D::simple_tiler({64, 64}, std::nullopt, {.tile_col_major = true})[0], 0, {1, 1, 64, 64},
              {0, 0, 1, 64});
    // E11/E13: simple_tiler((1, size), (1, chunk))[idx]: off idx*chunk, sizes [1,1,1,chunk]
    const auto t = TensorTiler2D::simple_tiler({1, 4096}, V{1, 1024});
    REQUIRE(t.size() == 4);
    for (std::size_t i = 0; i < 4; ++i)
        check_tap(t[i], static_cast<std::int64_t>(i) * 1024, {1, 1, 1, 1024}, {0, 0, 0, 1});
    // iter_col_major walks tiles down the columns first; pattern_repeat goes to dimension 0
    const auto c = TensorTiler2D::simple_tiler({4, 4}, V{2, 2}, {.iter_col_major = true, .pattern_repeat = 3});
    REQUIRE(c.size() == 4);
    const V offs{0, 8, 2, 10};
    for (std::size_t i = 0; i < 4; ++i) check_tap(c[i], offs[i], {3, 1, 2, 2}, {0, 0, 4, 1});
}

TEST_CASE("group_tiler: the matmul and bias-add example taps", "[frontend][taplib]") {
    // E6 single_core.py (M=K=N=512, m=k=n=32): A_tiles, b_tap, C_tiles
    const auto a =
        TensorTiler2D::group_tiler({512, 512}, {32, 32}, V{1, 16}, {.pattern_repeat = 16, .prune_step = false});
    REQUIRE(a.size() == 16);
    for (std::size_t i = 0; i < 16; ++i)
        check_tap(a[i], static_cast<std::int64_t>(i) * 16384, {16, 16, 32, 32}, {0, 32, 512, 1});
    check_tap(TensorTiler2D::group_tiler({512, 512}, {32, 32}, V{16, 16},
                                         {.tile_group_col_major = true, .prune_step = false})[0],
              0, {16, 16, 32, 32}, {32, 16384, 512, 1});
    const auto c = TensorTiler2D::group_tiler({512, 512}, {32, 32}, V{2, 16}, {.prune_step = false});
    REQUIRE(c.size() == 8);
    for (std::size_t j = 0; j < 8; ++j)
        check_tap(c[j], static_cast<std::int64_t>(j) * 32768, {2, 16, 32, 32}, {16384, 32, 512, 1});
    // E9 row_wise_bias_add.py (M=768, N=2304, m=96, n=32): tap and bias_tap
    check_tap(TensorTiler2D::group_tiler({768, 2304}, {96, 32}, V{8, 72}, {.tile_group_col_major = true})[0], 0,
              {1, 72, 768, 32}, {0, 32, 2304, 1});
    check_tap(TensorTiler2D::group_tiler({1, 2304}, {1, 32}, V{1, 72})[0], 0, {1, 72, 1, 32}, {0, 32, 2304, 1});
}

TEST_CASE("group_tiler with allow_partial (group_tiler_partial.py)", "[frontend][taplib]") {
    const V dims{45, 24};
    const auto rows = TensorTiler2D::group_tiler(dims, {3, 2}, V{5, 7}, {.allow_partial = true});
    REQUIRE(rows.size() == 6);
    const V offs{0, 14, 360, 374, 720, 734};
    for (std::size_t i = 0; i < 6; ++i) check_tap(rows[i], offs[i], {5, i % 2 ? 5 : 7, 3, 2}, {72, 2, 24, 1});
    const auto tcm = TensorTiler2D::group_tiler(dims, {3, 2}, V{5, 7}, {.tile_col_major = true, .allow_partial = true});
    for (std::size_t i = 0; i < 6; ++i) check_tap(tcm[i], offs[i], {1, 5, i % 2 ? 10 : 14, 3}, {0, 72, 1, 24});
    const auto gcm =
        TensorTiler2D::group_tiler(dims, {3, 2}, V{5, 7}, {.tile_group_col_major = true, .allow_partial = true});
    for (std::size_t i = 0; i < 6; ++i) check_tap(gcm[i], offs[i], {1, i % 2 ? 5 : 7, 15, 2}, {0, 2, 24, 1});
    const auto icm = TensorTiler2D::group_tiler(dims, {3, 2}, V{5, 7}, {.iter_col_major = true, .allow_partial = true});
    const V icm_offs{0, 360, 720, 14, 374, 734};
    for (std::size_t i = 0; i < 6; ++i) check_tap(icm[i], icm_offs[i], {5, i < 3 ? 7 : 5, 3, 2}, {72, 2, 24, 1});
}

TEST_CASE("step_tiler: step_tiler.py and the cascade example", "[frontend][taplib]") {
    const auto s = TensorTiler2D::step_tiler({32, 32}, {2, 2}, {2, 2}, V{1, 1});
    REQUIRE(s.size() == 64);
    check_tap(s[0], 0, {2, 2, 2, 2}, {64, 2, 32, 1});
    check_tap(s[1], 4, {2, 2, 2, 2}, {64, 2, 32, 1});
    check_tap(s[26], 392, {2, 2, 2, 2}, {64, 2, 32, 1});
    // independent order: 8x8 groups row-major, 2x2 tiles row-major in a group, 2x2 elements each
    V expect(1024, -1);
    std::int64_t step = 0;
    for (int gr = 0; gr < 8; ++gr)
        for (int gc = 0; gc < 8; ++gc)
            for (int tr = 0; tr < 2; ++tr)
                for (int tc = 0; tc < 2; ++tc)
                    for (int r = 0; r < 2; ++r)
                        for (int c = 0; c < 2; ++c)
                            expect[static_cast<std::size_t>((gr * 4 + tr * 2 + r) * 32 + gc * 4 + tc * 2 + c)] = step++;
    CHECK(s.access_order() == expect);
    CHECK(s.access_count() == V(1024, 1));
    check_tap(TensorTiler2D::step_tiler({32, 32}, {2, 2}, {2, 2}, V{2, 1})[0], 0, {2, 2, 2, 2}, {128, 2, 32, 1});

    // E8 cascade.py (M=K=N=512, m=k=n=32, 4 columns, 4 rows, tb_max_n_rows=5)
    const auto ct =
        TensorTiler2D::step_tiler({512, 512}, {32, 32}, {5, 4}, V{1, 4}, {.allow_partial = true, .prune_step = false});
    REQUIRE(ct.size() == 16);
    for (std::int64_t tb = 0; tb < 4; ++tb)
        for (std::int64_t col = 0; col < 4; ++col)
            check_tap(ct[static_cast<std::size_t>(tb * 4 + col)], tb * 81920 + 32 * col, {tb == 3 ? 1 : 5, 4, 32, 32},
                      {tb == 3 ? 0 : 16384, 128, 512, 1});
    const auto bt = TensorTiler2D::step_tiler({512, 512}, {128, 32}, {4, 4}, V{1, 4},
                                              {.tile_group_col_major = true, .prune_step = false});
    REQUIRE(bt.size() == 4);
    for (std::int64_t col = 0; col < 4; ++col)
        check_tap(bt[static_cast<std::size_t>(col)], 32 * col, {4, 4, 128, 32}, {128, 65536, 512, 1});
    const auto at =
        TensorTiler2D::step_tiler({512, 512}, {32, 32}, {1, 4}, V{1, 4}, {.pattern_repeat = 4, .prune_step = false});
    REQUIRE(at.size() == 64);
    for (std::int64_t mb = 0; mb < 16; ++mb)
        for (std::int64_t col = 0; col < 4; ++col)
            check_tap(at[static_cast<std::size_t>(mb * 4 + col)], mb * 16384 + 32 * col, {4, 4, 32, 32},
                      {0, 128, 512, 1});
}

TEST_CASE("tiler errors quote taplib's ValueErrors", "[frontend][taplib]") {
    CHECK_THROWS_WITH(TensorTiler2D::simple_tiler({10, 4}, V{3, 2}),
                      "TensorTiler2D.simple_tiler: Tensor dimension 0 (10) is not divisible by tile dim (3)");
    CHECK_THROWS_WITH(TensorTiler2D::group_tiler({45, 24}, {3, 2}, V{5, 7}),
                      "TensorTiler2D.group_tiler: allow_partial=False but tensor does not divide evenly into tile "
                      "groups in dimension 1");
    CHECK_THROWS_WITH(TensorTiler2D::step_tiler({8, 8}, {2, 2}, {2, 2}, std::nullopt, {.pattern_repeat = 0}),
                      "TensorTiler2D.step_tiler: Pattern repeat must be >= 1 but is 0");
    CHECK_THROWS_WITH(TensorTiler2D::group_tiler({8, 8}, {2, 2}, V{2, 2}, {.pattern_repeat = 2}),
                      "TensorTiler2D.group_tiler: Ran out of dimensions for repeat (sizes=[2, 2, 2, 2], strides=[16, "
                      "2, 8, 1])");
    CHECK_THROWS_WITH(TensorTiler2D::simple_tiler({8, 0}),
                      "TensorTiler2D.simple_tiler: Each tensor dimension must be >= 1 (dimensions=[8, 0])");
    CHECK_THROWS_WITH(TensorTiler2D::simple_tiler({2, 2, 2}),
                      "TensorTiler2D.simple_tiler: Tensor dimension ([2, 2, 2]) does not match expected dimension (2)");
    CHECK_THROWS_WITH(TensorTiler2D::simple_tiler({4, 4})[1],
                      "TensorAccessSequence: index 1 is out of range (the sequence has 1 patterns)");
    CHECK_THROWS_WITH(TensorAccessSequence::from_taps({}),
                      "TensorAccessSequence.from_taps: Received no TensorAccessPatterns; must have at least one "
                      "TensorAccessPatterns to create a TensorAccessSequence.");
    CHECK_THROWS_WITH(
        TensorAccessSequence::from_taps({TensorAccessPattern::linear({4, 4}), TensorAccessPattern::linear({2, 8})}),
        "TensorAccessSequence: TensorAccessPatterns have multiple tensor dimensions (found [4, 4] and "
        "[2, 8])");
}

TEST_CASE("the access heatmap as SVG, read back by xmllint", "[frontend][taplib]") {
    // visualization2d.py draws the access order as a heatmap; ours is an SVG document (and a PPM).
    // Its consumer here is libxml2's xmllint: the document must parse, and XPath reads cells back.
    const auto tas = TensorTiler2D::simple_tiler({4, 6}, V{2, 3});
    const npusim::test::TempDir tmp("npusim_taplib_heatmap");
    const auto& dir = tmp.path;
    const std::string svg = (dir / "map.svg").string();
    { std::ofstream(svg) << access_heatmap_svg(tas, 4); }
    auto run = [](const std::string& cmd) {
        std::string out;
        std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
        REQUIRE(p);
        char buf[256];
        while (std::fgets(buf, sizeof buf, p.get())) out += buf;
        return out;
    };
    auto xpath = [&](const std::string& expr) {
        auto out = run("xmllint --xpath \"" + expr + "\" " + svg + " 2>&1");
        while (!out.empty() && out.back() == '\n') out.pop_back(); // libxml2 2.9 ends the value with a newline
        return out;
    };
    const std::string ns = "/*[local-name()='svg']";
    CHECK(xpath("string(" + ns + "/@width)") == "24");
    CHECK(xpath("count(" + ns + "/*[local-name()='rect'])") == "24");
    // element (0,3) is the first of tile (0,1): step 6; (3,5) is the last step, 23, in the last colour
    auto cell = [&](const std::string& id, const std::string& what) {
        return xpath("string(" + ns + "/*[@id='" + id + "']/" + what + ")");
    };
    CHECK(cell("e0_3", "*[local-name()='title']") == "6");
    CHECK(cell("e3_5", "*[local-name()='title']") == "23");
    CHECK(cell("e0_0", "@fill") == "#440154");
    CHECK(cell("e3_5", "@fill") == "#fde725");
    std::filesystem::remove_all(dir);
}

TEST_CASE("untouched elements are white in the heatmap", "[frontend][taplib]") {
    const auto ppm = access_heatmap_ppm(TensorAccessPattern({2, 2}, 0, {2}, {1}), 1);
    REQUIRE(ppm.substr(0, 11) == "P6\n2 2\n255\n");
    const std::string px = ppm.substr(11);
    REQUIRE(px.size() == 12);
    CHECK(px.substr(0, 3) == std::string{char(68), char(1), char(84)});
    CHECK(px.substr(3, 3) == std::string{char(253), char(231), char(37)});
    CHECK(px.substr(6) == std::string(6, char(255)));
    CHECK_THROWS_WITH(access_heatmap_ppm(V{0, 1, 2}, 2, 2),
                      "access_heatmap_ppm: 2 x 2 cells of 8 px do not fit an access map of 3 elements");
    CHECK_THROWS_WITH(access_heatmap_svg(V{0, 1, 2, 3}, 2, 2, 0),
                      "access_heatmap_svg: 2 x 2 cells of 0 px do not fit an access map of 4 elements");
}
