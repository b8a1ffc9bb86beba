#pragma once
// Factories of the registered designs (one source file each).
#include "npusim/examples/DesignRegistry.hpp"
#include "npusim/iron.hpp"

#include <random>

namespace npusim::examples {

DesignSpec make_passthrough_kernel();   // E1
DesignSpec make_passthrough_dmas();     // E2
DesignSpec make_vector_scalar_mul();    // E3
DesignSpec make_vector_vector_add();    // E4
DesignSpec make_matmul_single_core();   // E6
DesignSpec make_matmul_whole_array();   // E7
DesignSpec make_vector_reduce_max();           // E5 single core
DesignSpec make_vector_reduce_max_memtile();   // E5 split/join through a mem tile
DesignSpec make_row_wise_bias_add();           // E9
DesignSpec make_transpose_dma();               // E10
DesignSpec make_memcpy();                      // E11

/// Every device name, for designs that run anywhere.
std::vector<std::string> every_device();
/// A parameter that must divide another: DesignError otherwise.
void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small);
/// Kernels built from AIE-API source work on whole vectors: `param` must be a multiple of `lanes`.
void require_vector_multiple(const std::string& design, const Params& p, const std::string& param, std::int64_t lanes,
                             const std::string& kernel);
void require_one_of(const std::string& design, const Params& p, const std::string& name, std::vector<std::int64_t> allowed);

} // namespace npusim::examples
