#include "RunMemory.hpp"

#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <limits>

namespace npusim::harness::detail {

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    return b && a > std::numeric_limits<std::uint64_t>::max() / b ? std::numeric_limits<std::uint64_t>::max() : a * b;
}

std::string size(std::uint64_t bytes) { return model::byte_size_text(bytes); }

} // namespace

RunMemory::RunMemory(std::string run, std::uint64_t given_bytes) : run_(std::move(run)) {
    limit_ = given_bytes ? HostMemoryLimit{given_bytes, ""} : host_memory_limit();
}

void RunMemory::check(std::uint64_t arg_bytes, std::uint64_t extra, std::uint64_t invocations) const {
    const std::uint64_t need = saturating_add(saturating_mul(3, arg_bytes), extra);
    if (!limit_.bytes || need <= limit_.bytes) return;
    throw DesignError(fmt::format(
        "{}: its runtime arguments take {} and a run needs about 3 times that{} ({}), more than the {} of host "
        "memory available{}",
        run_, size(arg_bytes), extra ? fmt::format(", plus {} for {} invocations", size(extra), invocations) : "",
        size(need), size(limit_.bytes), limit_.source.empty() ? "" : " (" + limit_.source + ")"));
}

void RunMemory::out_of_memory(const std::string& while_doing) const {
    throw DesignError(fmt::format("{}: out of host memory (std::bad_alloc) while {}; {} of host memory was available{} "
                                  "when the run started",
                                  run_, while_doing, limit_.bytes ? size(limit_.bytes) : std::string("an unknown amount"),
                                  limit_.source.empty() ? "" : " (" + limit_.source + ")"));
}

} // namespace npusim::harness::detail
