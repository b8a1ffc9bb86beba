#include "OutputPaths.hpp"

#include "CliSupport.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace npusim::tools {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void cannot(const std::string& opt, const std::string& path, const std::string& why) {
    throw FileError(fmt::format("cannot write {} '{}': {}", opt, path, why));
}

// The folder a file `path` is created in ("." for a bare name).
std::string folder_of(const std::string& path) {
    const auto parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

void check_writable_dir(const std::string& opt, const std::string& path, const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) cannot(opt, path, std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) cannot(opt, path, std::strerror(ENOTDIR));
    if (::access(dir.c_str(), W_OK | X_OK) != 0) cannot(opt, path, std::strerror(errno));
}

// Whether `path` is an existing file that is not a regular file (a device, a pipe): written in
// place, and more than one output may name it (/dev/null).
bool special_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

} // namespace

std::string output_name(const std::string& opt, const std::string& value) {
    if (value.empty()) throw UsageError(fmt::format("{} needs a file name", opt));
    return value;
}

void check_output_file(const std::string& opt, const std::string& path) {
    output_name(opt, path);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) cannot(opt, path, "it is a directory");
        if (!S_ISREG(st.st_mode)) { // a device or pipe is written in place
            if (::access(path.c_str(), W_OK) != 0) cannot(opt, path, std::strerror(errno));
            return;
        }
    }
    // A regular file is written under a temporary name in its folder and renamed onto its name.
    check_writable_dir(opt, path, folder_of(path));
}

void check_output_dir(const std::string& opt, const std::string& path) {
    output_name(opt, path);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (!S_ISDIR(st.st_mode)) cannot(opt, path, "it exists and is not a directory");
        check_writable_dir(opt, path, path);
        return;
    }
    // Created with its missing parents: the nearest folder that exists must take them.
    fs::path p = fs::absolute(fs::path(path)).lexically_normal();
    while (p.has_parent_path() && p != p.parent_path()) {
        p = p.parent_path();
        if (::stat(p.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                cannot(opt, path, fmt::format("'{}' is not a directory", p.string()));
            if (::access(p.c_str(), W_OK | X_OK) != 0) cannot(opt, path, std::strerror(errno));
            return;
        }
    }
}

void check_stream_written(std::ostream& s, const std::string& what) {
    errno = 0;
    s.flush();
    if (!s) {
        const int e = errno;
        throw FileError(fmt::format("cannot write {}: {}", what, e ? std::strerror(e) : "I/O error"));
    }
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    std::vector<std::pair<std::string, fs::path>> seen;
    for (const auto& [opt, path] : outputs) {
        if (path.empty() || special_file(path)) continue;
        std::error_code ec;
        fs::path key = fs::weakly_canonical(fs::absolute(path), ec);
        if (ec) key = fs::absolute(path).lexically_normal();
        for (const auto& [other, other_key] : seen)
            if (other_key == key)
                throw UsageError(fmt::format("{} and {} name the same file '{}': each output needs its own file",
                                             other, opt, path));
        seen.emplace_back(opt, key);
    }
}

} // namespace npusim::tools
