#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>

namespace npusim::iron::detail {

void throw_bad_range_step(std::int64_t step) {
    // mlir/lib/Dialect/SCF/IR/SCF.cpp ForOp::verify: "constant step operand must be positive".
    throw DesignError(fmt::format("range_ with step {}: the step must be positive (scf.for: \"constant step "
                                  "operand must be positive\")",
                                  step));
}

} // namespace npusim::iron::detail
