#pragma once
// Umbrella header: every reference kernel (plain C++ re-expressions of the AIE kernels the
// canonical IRON designs call) and its NPU1 cycle estimate.
#include <npusim/kernels/bfloat16.hpp>
#include <npusim/kernels/cascade_matmul.hpp>
#include <npusim/kernels/kernel_common.hpp>
#include <npusim/kernels/matmul.hpp>
#include <npusim/kernels/passthrough.hpp>
#include <npusim/kernels/reduce_max.hpp>
#include <npusim/kernels/relu.hpp>
#include <npusim/kernels/scale_shift.hpp>
#include <npusim/kernels/row_wise_bias_add.hpp>
#include <npusim/kernels/vector_scalar_mul.hpp>
#include <npusim/kernels/zero.hpp>
