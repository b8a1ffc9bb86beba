#pragma once
// A text file written by a trace sink. Every failure (cannot open, short write, error on close)
// becomes an OutputFileError (a std::runtime_error) whose message names the file and the kind of output, e.g.
// "cannot write Perfetto trace to '/no/such/dir/t.json': No such file or directory".
//
// A regular file (or one that does not exist yet) is written under a temporary name in the same
// folder (".NAME.PID.tmp") and renamed onto its name by close(): a run that fails or is stopped
// while writing leaves the previous file whole, never half-overwritten. Anything else (a device
// such as /dev/null or /dev/full, a pipe) is written in place.
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace npusim::traces {

/// An output file that cannot be written (the CLI reports it as a file error, exit 2).
struct OutputFileError : std::runtime_error {
    OutputFileError(const std::string& message, std::string why) : std::runtime_error(message), reason(std::move(why)) {}
    std::string reason; ///< why, as strerror says it ("No space left on device")
};

class OutputFile {
public:
    /// Creates the temporary file (or opens `path` in place). `what` names the output in error
    /// messages ("VCD trace").
    OutputFile(std::string path, std::string what);
    /// Closes and removes the temporary file if close() was not called, without reporting errors.
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Appends `text` (buffered by stdio).
    void write(std::string_view text);
    /// Flushes, closes and renames the file onto its name; throws if anything written since opening
    /// did not reach the file or the rename fails (the temporary file is removed then).
    void close();

    const std::string& path() const noexcept { return path_; }

    /// How much text a sink gathers in memory before each write() (1 MiB: few system calls, small
    /// peak memory, whatever the length of the run).
    static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

    /// Removes the temporary files of every OutputFile not yet closed. Only unlink(2): safe in a
    /// signal handler, for what ends the process while a file is being written (a crash report, the
    /// watchdog, an interrupt).
    static void remove_unfinished() noexcept;

private:
    [[noreturn]] void fail(int err);

    std::string path_;
    std::string what_;
    std::string temp_; ///< the temporary name; empty when written in place
    int slot_ = -1; ///< its entry among the unfinished files, -1: none
    std::FILE* file_ = nullptr; ///< null once closed
};

} // namespace npusim::traces
