#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace npusim::traces {

OutputFile::OutputFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
    errno = 0;
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) fail(errno);
}

OutputFile::~OutputFile() {
    if (file_) std::fclose(file_);
}

void OutputFile::write(std::string_view text) {
    if (!file_) throw std::logic_error(fmt::format("{} '{}' written after close()", what_, path_));
    if (text.empty()) return;
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail(errno);
}

void OutputFile::close() {
    if (!file_) return;
    errno = 0;
    bool ok = std::fflush(file_) == 0 && std::ferror(file_) == 0;
    int err = errno;
    if (std::fclose(file_) != 0 && ok) {
        ok = false;
        err = errno;
    }
    file_ = nullptr;
    if (!ok) fail(err);
}

void OutputFile::fail(int err) {
    if (file_) {
        std::fclose(file_);
        file_ = nullptr;
    }
    throw std::runtime_error(
        fmt::format("cannot write {} to '{}': {}", what_, path_, err != 0 ? std::strerror(err) : "I/O error"));
}

} // namespace npusim::traces
