#pragma once
// Files for the trace-sink tests: a temporary directory removed at scope exit, and a file's bytes.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace npusim::tracetest {

struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& prefix) {
        path = std::filesystem::temp_directory_path() / (prefix + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& n) const { return (path / n).string(); }
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace npusim::tracetest
