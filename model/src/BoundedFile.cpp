#include "npusim/model/BoundedFile.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace npusim::model {

BoundedFile::BoundedFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw BoundedFileError(BoundedFileError::Kind::Directory, "it is a directory");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw BoundedFileError(BoundedFileError::Kind::Open, std::strerror(errno));
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
        regular_ = true;
        size_ = static_cast<std::uint64_t>(st.st_size);
    }
}

BoundedFile::~BoundedFile() {
    if (fd_ >= 0) ::close(fd_);
}

namespace {

// Up to `n` bytes of `fd` appended to `out` (a std::string or a byte vector), in chunks of at most
// 1 MiB, so that a source that ends early never costs `n` bytes of memory.
template <class Bytes>
void read_chunks(int fd, std::uint64_t n, Bytes& out) {
    constexpr std::uint64_t kChunk = 1 << 20;
    const std::size_t start = out.size();
    while (out.size() - start < n) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n - (out.size() - start), kChunk));
        const std::size_t at = out.size();
        out.resize(at + want);
        const ssize_t got = ::read(fd, out.data() + at, want);
        if (got < 0) {
            out.resize(at);
            if (errno == EINTR) continue;
            throw BoundedFileError(BoundedFileError::Kind::Read, std::strerror(errno));
        }
        out.resize(at + static_cast<std::size_t>(got));
        if (got == 0) break;
    }
}

} // namespace

std::string BoundedFile::read(std::uint64_t n) {
    std::string out;
    // A regular file's bytes are known to be there: one allocation. Anything else grows by chunks.
    if (regular_) out.reserve(static_cast<std::size_t>(std::min(n, size_)));
    read_chunks(fd_, n, out);
    return out;
}

std::vector<std::uint8_t> BoundedFile::read_bytes(std::uint64_t n) {
    std::vector<std::uint8_t> out;
    if (regular_) out.reserve(static_cast<std::size_t>(std::min(n, size_)));
    read_chunks(fd_, n, out);
    return out;
}

bool BoundedFile::more() { return !read(1).empty(); }

std::string read_bounded_file(const std::string& path, std::uint64_t max_bytes) {
    BoundedFile f(path);
    if (f.regular() && f.size() > max_bytes)
        throw BoundedFileError(BoundedFileError::Kind::TooLarge,
                               fmt::format("it has {} bytes, more than the limit of {}", f.size(),
                                           byte_size_text(max_bytes)),
                               f.size());
    std::string bytes = f.read(max_bytes);
    if (bytes.size() == max_bytes && f.more())
        throw BoundedFileError(BoundedFileError::Kind::TooLarge,
                               fmt::format("it has more than the limit of {}", byte_size_text(max_bytes)));
    return bytes;
}

std::string byte_size_text(std::uint64_t bytes) {
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return fmt::format("{} B", bytes);
    int u = 0;
    double v = static_cast<double>(bytes);
    while (v >= 1024 && u < 6) {
        v /= 1024;
        ++u;
    }
    std::string s = fmt::format("{:.1f}", v);
    if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
    return s + " " + units[u];
}

} // namespace npusim::model
