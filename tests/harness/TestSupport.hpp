#pragma once
// Helpers shared by the harness tests: simulator options for a device, run options with a seed,
// and a scratch directory.
#include "npusim/harness/DesignRunner.hpp"

#include <filesystem>
#include <string>

namespace npusim::harness::test {

inline sim::SimOptions sim_opts(const std::string& device) {
    sim::SimOptions o;
    o.timing = model::TimingParams::for_arch(model::device_by_name(device).arch);
    return o;
}

inline RunOptions run_opts(const std::string& device, std::uint64_t seed = 1) {
    RunOptions o;
    o.seed = seed;
    o.sim = sim_opts(device);
    return o;
}

// A scratch directory removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) : path(std::filesystem::temp_directory_path() / name) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& n) const { return (path / n).string(); }
};

} // namespace npusim::harness::test
