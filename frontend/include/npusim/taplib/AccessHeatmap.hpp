#pragma once
// The image form of a taplib visualisation (upstream: visualization2d.py draws the access order as a
// matplotlib pcolormesh heatmap). npusim writes a binary PPM (P6) that any image tool reads
// (ImageMagick `convert map.ppm map.png`): one cell of `cell_px` x `cell_px` pixels per tensor
// element, row-major, coloured along a viridis-like ramp from the first access (dark violet) to the
// last (yellow); untouched elements are white. The same map as SVG (one <rect> per element with its
// step in a <title>, viewable in any browser) for larger tensors and documents.
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/taplib/TensorAccessSequence.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npusim::iron {

/// The RGB colour of access step `step` of `steps` (0 .. steps-1); white for step < 0.
std::array<std::uint8_t, 3> heatmap_colour(std::int64_t step, std::int64_t steps);

/// PPM bytes of an access-order map (`order`, rows x cols, -1 = untouched).
std::string access_heatmap_ppm(const std::vector<std::int64_t>& order, std::int64_t rows, std::int64_t cols,
                               int cell_px = 8);
/// The heatmap of one pattern (2-D view: rows = all dimensions but the last), and of a sequence.
std::string access_heatmap_ppm(const TensorAccessPattern& tap, int cell_px = 8);
std::string access_heatmap_ppm(const TensorAccessSequence& tas, int cell_px = 8);

/// SVG text of an access-order map; each <rect> has id "e{row}_{col}", its fill colour and a
/// <title> with its step ("." if untouched).
std::string access_heatmap_svg(const std::vector<std::int64_t>& order, std::int64_t rows, std::int64_t cols,
                               int cell_px = 8);
std::string access_heatmap_svg(const TensorAccessPattern& tap, int cell_px = 8);
std::string access_heatmap_svg(const TensorAccessSequence& tas, int cell_px = 8);

} // namespace npusim::iron
