#pragma once
// npusim AIE-API host layer — umbrella header. AIE kernel sources include <aie_api/aie.hpp> and compile
// unchanged with g++ on x86; see kernels_ref/aie_api/README.md for what is covered and how the
// hardware semantics are modelled.
#include "detail/accum.hpp"
#include "detail/bfp.hpp"
#include "detail/cascade.hpp"
#include "detail/config.hpp"
#include "detail/elementary.hpp"
#include "detail/intrinsics.hpp"
#include "detail/intrinsics_compose.hpp"
#include "detail/intrinsics_extra.hpp"
#include "detail/intrinsics_lut.hpp"
#include "detail/intrinsics_mul_elem.hpp"
#include "detail/intrinsics_shift.hpp"
#include "detail/intrinsics_v64.hpp"
#include "detail/iterator.hpp"
#include "detail/lut.hpp"
#include "detail/mmul.hpp"
#include "detail/numeric.hpp"
#include "detail/ops.hpp"
#include "detail/ops_logic.hpp"
#include "detail/reshape.hpp"
#include "detail/sliding.hpp"
#include "detail/stream.hpp"
#include "detail/unsupported.hpp"
#include "detail/vector.hpp"

// AIE compilers accept C99 `restrict` in C++; map it to the GNU spelling. Define
// NPUSIM_AIE_API_NO_RESTRICT_MACRO before including this header to opt out.
#if !defined(NPUSIM_AIE_API_NO_RESTRICT_MACRO) && !defined(restrict)
#define restrict __restrict
#endif
