#include "npusim/model/Text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace npusim::model {

std::string grouped(std::uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", grouped(n), n == 1 ? one : many);
}

std::string json_string(std::string_view s) {
    return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace npusim::model
