#pragma once
// The output files of a command (--trace, --vcd, --html, --dot, --csv, -o, --save-outputs): checked
// before the work starts, so a path that cannot be written fails at once, not after a long
// simulation, and without creating or touching the file (a run that fails later leaves a previous
// file as it was). A check that fails is a FileError (exit 2, "file error"), like an input file's.
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace npusim::tools {

/// An output (or input) file that cannot be written or read: exit code 2, status "file_error".
struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `path` given to option `opt` can be written: UsageError when empty ("--trace needs a file
/// name"); FileError when it is a directory, its folder does not exist or cannot be written, or it
/// exists and cannot be written ("cannot write --trace '/no/t.json': No such file or directory").
void check_output_file(const std::string& opt, const std::string& path);
/// The folder `path` of option `opt` (--save-outputs) can be created or written into: UsageError when
/// empty; FileError when it is not a directory, or it and its nearest existing parent cannot be written.
void check_output_dir(const std::string& opt, const std::string& path);
/// No two of the (option, path) outputs name the same file (a device such as /dev/null excepted):
/// UsageError "--trace and --vcd name the same file 'x.json': ..." otherwise.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

/// Flushes `s` and throws FileError ("cannot write standard output: No space left on device") when
/// what was written to it did not all arrive; `what` names the stream.
void check_stream_written(std::ostream& s, const std::string& what);

/// Refuses an empty value of output option `opt` (UsageError "--trace needs a file name").
std::string output_name(const std::string& opt, const std::string& value);

} // namespace npusim::tools
