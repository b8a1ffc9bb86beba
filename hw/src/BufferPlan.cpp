#include "npusim/hw/BufferPlan.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::hw {

BufferPlan::BufferPlan(const std::string& design, std::size_t instruction_words, const std::vector<HostArg>& args)
    : instruction_words_(instruction_words) {
    if (instruction_words == 0)
        throw DesignError(fmt::format("design '{}': the instruction stream is empty (no buffer object to hand the "
                                      "MLIR_AIE kernel)",
                                      design));
    bos_.push_back({"instructions", kInstructionGroup, instruction_words * sizeof(std::uint32_t), true, true, false,
                    -1});
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a.bytes == 0)
            throw DesignError(fmt::format("design '{}': runtime argument {} ('{}') has 0 bytes; XRT cannot allocate "
                                          "an empty buffer object",
                                          design, i, a.name));
        const bool in = a.role == HostArg::Role::input || a.role == HostArg::Role::inout;
        const bool out = a.role == HostArg::Role::output || a.role == HostArg::Role::inout;
        // An unused argument still gets its BO (the kernel takes every sequence argument), synced
        // to the device so it holds defined bytes, as the hosts do for their zero-filled buffers.
        bos_.push_back({a.name, kFirstDataGroup + static_cast<int>(i), a.bytes, false,
                        in || a.role == HostArg::Role::unused, out, static_cast<int>(i)});
    }
}

std::string BufferPlan::kernel_call() const {
    std::string s = fmt::format("kernel({}, bo_instr, {}", kOpcode, instruction_words_);
    for (const auto& b : bos_)
        if (b.arg >= 0) s += ", bo_" + b.name;
    return s + ")";
}

std::string BufferPlan::table() const {
    std::size_t w = 4;
    for (const auto& b : bos_) w = std::max(w, b.name.size());
    std::string s = fmt::format("  {:>8}  {:<{}}  {:>12}  {:<9}  {}\n", "group_id", "name", w, "bytes", "flags", "sync");
    for (const auto& b : bos_) {
        std::string sync = b.to_device && b.from_device ? "to and from device"
                           : b.to_device                ? "to device"
                           : b.from_device              ? "from device"
                                                        : "-";
        s += fmt::format("  {:>8}  {:<{}}  {:>12}  {:<9}  {}\n", b.group_id, b.name, w, b.bytes,
                         b.cacheable ? "cacheable" : "host_only", sync);
    }
    return s;
}

} // namespace npusim::hw
