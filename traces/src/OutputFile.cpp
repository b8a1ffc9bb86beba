#include "npusim/traces/OutputFile.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace npusim::traces {

namespace {

// The temporary files being written, for remove_unfinished(): fixed slots a signal handler can
// read without allocating. A slot is claimed with its flag and published once its path is copied.
constexpr std::size_t kSlots = 16;
constexpr std::size_t kPathMax = 4096;
struct UnfinishedSlot {
    std::atomic<int> state{0}; ///< 0 free, 1 being filled or cleared, 2 holds a path
    char path[kPathMax];
};
std::array<UnfinishedSlot, kSlots> g_unfinished;

int claim(const std::string& path) {
    if (path.size() >= kPathMax) return -1;
    for (std::size_t i = 0; i < kSlots; ++i) {
        int free = 0;
        if (!g_unfinished[i].state.compare_exchange_strong(free, 1)) continue;
        std::memcpy(g_unfinished[i].path, path.c_str(), path.size() + 1);
        g_unfinished[i].state.store(2);
        return static_cast<int>(i);
    }
    return -1; // more files at once than slots: that one is not cleaned up by a crash report
}

void release(int slot) {
    if (slot >= 0) g_unfinished[static_cast<std::size_t>(slot)].state.store(0);
}

// ".NAME.PID.tmp" beside `path`.
std::string temp_name(const std::string& path) {
    const std::filesystem::path p(path);
    return (p.parent_path() / fmt::format(".{}.{}.tmp", p.filename().string(), ::getpid())).string();
}

} // namespace

OutputFile::OutputFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
    struct stat st {};
    const bool in_place = ::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (!in_place) {
        if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail(EISDIR);
        temp_ = temp_name(path_);
        slot_ = claim(temp_);
    }
    errno = 0;
    file_ = std::fopen(in_place ? path_.c_str() : temp_.c_str(), "wb");
    if (!file_) fail(errno);
}

OutputFile::~OutputFile() {
    if (file_) {
        std::fclose(file_);
        if (!temp_.empty()) ::unlink(temp_.c_str()); // never completed: the previous file stays
    }
    release(slot_);
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
    if (!temp_.empty()) {
        // The file is complete: it takes the name (the previous file, if any, is replaced at once).
        if (std::rename(temp_.c_str(), path_.c_str()) != 0) fail(errno);
        release(slot_);
        slot_ = -1;
    }
}

void OutputFile::fail(int err) {
    if (file_) {
        std::fclose(file_);
        file_ = nullptr;
    }
    if (!temp_.empty()) ::unlink(temp_.c_str());
    release(slot_);
    slot_ = -1;
    const std::string why = err != 0 ? std::strerror(err) : "I/O error";
    throw OutputFileError(fmt::format("cannot write {} to '{}': {}", what_, path_, why), why);
}

void OutputFile::remove_unfinished() noexcept {
    for (auto& s : g_unfinished)
        if (s.state.load() == 2) ::unlink(s.path);
}

} // namespace npusim::traces
