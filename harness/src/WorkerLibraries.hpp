#pragma once
// Per-core copies of a run-time compiled kernel library. On the NPU every core links its own copy of
// a kernel's object into its program memory, so a kernel's mutable statics (a call counter such as
// mlir-aie's gemm_asymmetric_tile_buffering/config1/mm_bfp_mixed.cc `static int g_counter`, l.41-52 at
// 3ca0193) are per core. A dlopen'ed library has one copy of its statics per process, so each worker
// that calls a function of the library gets its own load of it: the library file copied to a new
// file (the dynamic loader shares a load between paths of the same file) and dlopen'ed. The first
// worker uses the load the build made.
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace npusim::harness::detail {

/// The dlopen handle of `library` for `worker`: `first` (the build's own load) for the first worker
/// asking (and for calls outside any worker, worker ""), a private load for every other worker.
/// Throws std::runtime_error when a copy cannot be made or loaded. Thread-safe.
void* worker_library(const std::filesystem::path& library, void* first, std::string_view worker);

} // namespace npusim::harness::detail
