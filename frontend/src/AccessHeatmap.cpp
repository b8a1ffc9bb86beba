#include "npusim/taplib/AccessHeatmap.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron {

namespace {
// Five stops of matplotlib's default (viridis) colormap, first to last.
constexpr std::array<std::array<int, 3>, 5> kStops{
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};

std::int64_t rows_of(const std::vector<std::int64_t>& dims, std::int64_t cols) {
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    return cols ? n / cols : 0;
}
} // namespace

std::array<std::uint8_t, 3> heatmap_colour(std::int64_t step, std::int64_t steps) {
    if (step < 0) return {255, 255, 255};
    const double t = steps > 1 ? static_cast<double>(std::min(step, steps - 1)) / static_cast<double>(steps - 1) : 0.0;
    const double pos = t * static_cast<double>(kStops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(pos), kStops.size() - 2);
    const double f = pos - static_cast<double>(i);
    std::array<std::uint8_t, 3> c{};
    for (std::size_t k = 0; k < 3; ++k)
        c[k] = static_cast<std::uint8_t>(kStops[i][k] + (kStops[i + 1][k] - kStops[i][k]) * f + 0.5);
    return c;
}

namespace {
// The number of steps of a map (at least 1), after checking its shape.
std::int64_t checked_steps(const char* what, const std::vector<std::int64_t>& order, std::int64_t rows,
                           std::int64_t cols, int cell_px) {
    if (rows < 1 || cols < 1 || rows * cols != static_cast<std::int64_t>(order.size()) || cell_px < 1)
        throw DesignError(fmt::format("{}: {} x {} cells of {} px do not fit an access map of {} elements", what, rows,
                                      cols, cell_px, order.size()));
    return std::max<std::int64_t>(*std::max_element(order.begin(), order.end()) + 1, 1);
}
} // namespace

std::string access_heatmap_ppm(const std::vector<std::int64_t>& order, std::int64_t rows, std::int64_t cols,
                               int cell_px) {
    const std::int64_t steps = checked_steps("access_heatmap_ppm", order, rows, cols, cell_px);
    const std::int64_t w = cols * cell_px, h = rows * cell_px;
    std::string out = fmt::format("P6\n{} {}\n255\n", w, h);
    const std::size_t header = out.size();
    out.resize(header + static_cast<std::size_t>(w * h * 3));
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x) {
            const auto c = heatmap_colour(order[static_cast<std::size_t>((y / cell_px) * cols + x / cell_px)], steps);
            const auto at = header + static_cast<std::size_t>((y * w + x) * 3);
            for (std::size_t k = 0; k < 3; ++k) out[at + k] = static_cast<char>(c[k]);
        }
    return out;
}

std::string access_heatmap_ppm(const TensorAccessPattern& tap, int cell_px) {
    const std::int64_t cols = tap.tensor_dims().empty() ? 1 : tap.tensor_dims().back();
    return access_heatmap_ppm(tap.access_map(), rows_of(tap.tensor_dims(), cols), cols, cell_px);
}

std::string access_heatmap_ppm(const TensorAccessSequence& tas, int cell_px) {
    const std::int64_t cols = tas.tensor_dims().empty() ? 1 : tas.tensor_dims().back();
    return access_heatmap_ppm(tas.access_order(), rows_of(tas.tensor_dims(), cols), cols, cell_px);
}

std::string access_heatmap_svg(const std::vector<std::int64_t>& order, std::int64_t rows, std::int64_t cols,
                               int cell_px) {
    const std::int64_t steps = checked_steps("access_heatmap_svg", order, rows, cols, cell_px);
    std::string out = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n",
                                  cols * cell_px, rows * cell_px);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
            const auto v = order[static_cast<std::size_t>(r * cols + c)];
            const auto col = heatmap_colour(v, steps);
            out += fmt::format("<rect id=\"e{}_{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                               "fill=\"#{:02x}{:02x}{:02x}\"><title>{}</title></rect>\n",
                               r, c, c * cell_px, r * cell_px, cell_px, cell_px, col[0], col[1], col[2],
                               v < 0 ? std::string(".") : std::to_string(v));
        }
    return out + "</svg>\n";
}

std::string access_heatmap_svg(const TensorAccessPattern& tap, int cell_px) {
    const std::int64_t cols = tap.tensor_dims().empty() ? 1 : tap.tensor_dims().back();
    return access_heatmap_svg(tap.access_map(), rows_of(tap.tensor_dims(), cols), cols, cell_px);
}

std::string access_heatmap_svg(const TensorAccessSequence& tas, int cell_px) {
    const std::int64_t cols = tas.tensor_dims().empty() ? 1 : tas.tensor_dims().back();
    return access_heatmap_svg(tas.access_order(), rows_of(tas.tensor_dims(), cols), cols, cell_px);
}

} // namespace npusim::iron
