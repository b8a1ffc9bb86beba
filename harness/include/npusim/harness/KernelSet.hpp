#pragma once
// Which build of a design's kernels the workers call: the reference C++ kernels (kernels_ref/) or
// the AIE-API kernel sources (kernels_ref/aie/, npusim::aie_kernels) compiled through the host layer.
#include <optional>
#include <string>
#include <string_view>

namespace npusim::harness {

enum class KernelSet { reference, aie };

std::string_view kernel_set_name(KernelSet k); ///< "ref", "aie"

/// The one parser of kernel-set names (`--kernels`, kernel_set_by_name): "ref" or "reference"
/// is the reference build, "aie" the AIE-API build; anything else is nothing.
std::optional<KernelSet> parse_kernel_set(std::string_view name);

/// parse_kernel_set for library callers: an unknown name is a DesignError
/// "unknown kernel set 'X' (kernel sets: ref, aie)".
KernelSet kernel_set_by_name(const std::string& name);

} // namespace npusim::harness
