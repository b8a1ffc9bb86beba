#pragma once
// A text file written by a trace sink. Every failure (cannot open, short write, error on close)
// becomes a std::runtime_error whose message names the file and the kind of output, e.g.
// "cannot write Perfetto trace to '/no/such/dir/t.json': No such file or directory".
#include <cstdio>
#include <string>
#include <string_view>

namespace npusim::traces {

class OutputFile {
public:
    /// Creates or truncates `path`. `what` names the output in error messages ("VCD trace").
    OutputFile(std::string path, std::string what);
    /// Closes the file if close() was not called, without reporting errors.
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Appends `text` (buffered by stdio).
    void write(std::string_view text);
    /// Flushes and closes; throws if anything written since opening did not reach the file.
    void close();

    const std::string& path() const noexcept { return path_; }

private:
    [[noreturn]] void fail(int err);

    std::string path_;
    std::string what_;
    std::FILE* file_ = nullptr; ///< null once closed
};

} // namespace npusim::traces
