#pragma once
// The pieces of the run-time kernel compiler (KernelCompiler) that do not touch the cache: the
// generated translation units, running the compiler, its dependency lists, content hashes and
// reading its diagnostics.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::harness::detail {

__extension__ typedef unsigned __int128 Uint128; // GCC and Clang on 64-bit targets

/// FNV-1a over 128 bits: content keys for the cache (not a security boundary: a cache on the
/// user's own disk).
class ContentHash {
public:
    /// Add one field (length-prefixed, so "ab"+"c" and "a"+"bc" differ).
    ContentHash& add(std::string_view field);
    std::string hex() const;

private:
    void mix(const void* data, std::size_t n);
    Uint128 h_ = (static_cast<Uint128>(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
};

/// The whole file; throws std::runtime_error naming it when it cannot be read.
std::string read_text(const std::filesystem::path& p);
/// Write through a temporary file and rename, so a reader never sees part of it.
void write_text(const std::filesystem::path& p, std::string_view text);

/// Run argv (argv[0] looked up in PATH), stdout and stderr into `output`; returns the exit status
/// (-1 when it could not be started: then `output` says why).
int run_command(const std::vector<std::string>& argv, std::string& output);

/// The files a gcc -MD dependency file lists (its first target's prerequisites).
std::vector<std::filesystem::path> parse_depfile(std::string_view text);

/// The translation unit that includes the source and exports, for each name,
/// npusim_jit_params_<name> (its parameter list) and npusim_jit_invoke_<name> (a call from an
/// argument array): the layout of JitArg / JitParam below.
std::string wrapper_source(const std::filesystem::path& source, const std::vector<std::string>& names,
                           const std::map<std::string, std::vector<std::string>>& pick = {});
/// The translation unit that moves the core's modes and the cascade, stream and event hooks of the
/// calling program into the library's copy of the host layer (npusim_jit_enter / npusim_jit_leave).
std::string support_source();

/// One argument as the wrapper receives it (the same layout on both sides).
struct JitArg {
    void* data;
    long long ivalue;
    double fvalue;
    int is_float;
};
/// One parameter as the wrapper reports it.
struct JitParam {
    int is_pointer;
    unsigned long bytes;
    int is_floating;
};

} // namespace npusim::harness::detail
