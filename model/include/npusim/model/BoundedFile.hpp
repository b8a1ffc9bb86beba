#pragma once
// Reading a file whose size has a known upper bound (a timing file, an instruction stream, an
// xclbin, a .npy header or data) without trusting the file: the size of a regular file is checked
// before anything is read, and anything else (a pipe, /dev/zero, a file in /proc) is read in
// chunks and given up as soon as it goes past the bound. So `--timing /dev/zero` or a sparse
// multi-gigabyte file is refused at once instead of filling memory.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace npusim::model {

/// Why a bounded read failed. The message does not name the file: each caller puts it in its own
/// words ("timing file 'x': ..."). `bytes` is the regular file's size for TooLarge (0 when the file
/// is not regular: only "more than the bound" is known).
class BoundedFileError : public std::runtime_error {
public:
    enum class Kind { Directory, Open, Read, TooLarge };
    BoundedFileError(Kind kind, const std::string& what, std::uint64_t bytes = 0)
        : std::runtime_error(what), kind_(kind), bytes_(bytes) {}
    Kind kind() const noexcept { return kind_; }
    std::uint64_t bytes() const noexcept { return bytes_; }

private:
    Kind kind_;
    std::uint64_t bytes_;
};

/// A file opened for bounded reading (POSIX descriptor; closed by the destructor).
class BoundedFile {
public:
    /// Opens `path`: BoundedFileError(Directory) for a directory, (Open) when it cannot be opened
    /// (the message is strerror's text).
    explicit BoundedFile(const std::string& path);
    ~BoundedFile();
    BoundedFile(const BoundedFile&) = delete;
    BoundedFile& operator=(const BoundedFile&) = delete;

    /// A regular file, whose size() is known before reading.
    bool regular() const noexcept { return regular_; }
    /// The regular file's size in bytes (0 for anything else).
    std::uint64_t size() const noexcept { return size_; }
    /// Up to `n` more bytes (fewer only at the end of the file), read in chunks of at most 1 MiB
    /// so that a source that ends early never costs `n` bytes of memory; BoundedFileError(Read)
    /// on a read error.
    std::string read(std::uint64_t n);
    /// The same as bytes.
    std::vector<std::uint8_t> read_bytes(std::uint64_t n);
    /// True when at least one more byte can be read (it is consumed).
    bool more();

private:
    int fd_ = -1;
    bool regular_ = false;
    std::uint64_t size_ = 0;
};

/// The whole of `path` when it has at most `max_bytes`; BoundedFileError(TooLarge) otherwise,
/// decided from a regular file's size before reading it, and after `max_bytes` + 1 bytes of
/// anything else. The message of TooLarge is "it has N bytes, more than the limit of M" (or "it
/// has more than the limit of M" when the size is not known); Directory, Open and Read as BoundedFile.
std::string read_bounded_file(const std::string& path, std::uint64_t max_bytes);

/// "1 MiB", "1.5 MiB", "512 KiB", "100 B": a byte count in the largest unit that keeps it
/// readable (at most one decimal, dropped when zero).
std::string byte_size_text(std::uint64_t bytes);

} // namespace npusim::model
