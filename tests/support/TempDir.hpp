#pragma once
// A scratch directory of its own for a test: made by mkdtemp under the system's temporary
// directory (TMPDIR), so two runs of the suite at once never share one, and removed with its
// contents when the TempDir goes out of scope.
#include <filesystem>
#include <string>
#include <string_view>

namespace npusim::test {

class TempDir {
public:
    /// <tmp>/<prefix>.XXXXXX; throws std::runtime_error if the directory cannot be made.
    explicit TempDir(std::string_view prefix = "npusim_test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// The path of `name` inside the directory.
    std::string file(const std::string& name) const { return (path / name).string(); }

    std::filesystem::path path;
};

/// The bytes of a file (empty if it cannot be read).
std::string slurp(const std::filesystem::path& p);

} // namespace npusim::test
