#include "npusim/harness/TimingProfiles.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace npusim::harness {

namespace fs = std::filesystem;

std::string timing_profiles_dir() {
    std::error_code ec;
    if (fs::is_directory(NPUSIM_PROFILES_INSTALL_DIR, ec)) return NPUSIM_PROFILES_INSTALL_DIR;
    return NPUSIM_PROFILES_BUILD_DIR;
}

std::vector<std::string> timing_profile_names() {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(timing_profiles_dir(), ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") out.push_back(it->path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string timing_profile_path(const std::string& value) {
    std::error_code ec;
    const bool is_name = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    if (!is_name || fs::exists(value, ec)) return value;
    const auto path = fs::path(timing_profiles_dir()) / (value + ".json");
    if (fs::exists(path, ec)) return path.string();
    const auto names = timing_profile_names();
    throw DesignError(fmt::format("--timing '{}' is neither a file nor a shipped timing profile (shipped, in "
                                  "{}: {})",
                                  value, timing_profiles_dir(),
                                  names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

} // namespace npusim::harness
