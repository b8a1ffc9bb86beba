#pragma once
// What every design file includes: the IRON API, the harness's design registry
// (NPUSIM_REGISTER_DESIGN) and parameter checks. Each design lives in one source file and
// registers itself there; nothing else lists it (docs/adding-a-design.md).
#include "npusim/harness/DesignParams.hpp"
#include "npusim/harness/DesignRegistry.hpp"
#include "npusim/iron.hpp"

#include <random>

namespace npusim::examples {

using namespace npusim::harness;

} // namespace npusim::examples
