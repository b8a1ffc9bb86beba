#pragma once
// The vision kernels of the built-in library (mlir-aie python/iron/kernels/vision.py at 3ca0193): IRON's
// names, argument types and defaults, bound to the reference kernels (kernels_ref/vision.hpp) or, with
// KernelSet::aie, the AIE-API builds (kernels_ref/aie/). npusim's kernels are the uint8 builds
// (BIT_WIDTH 8, the factories' default); int16 / int32 are a DesignError naming the factory.
#include "npusim/frontend/Kernel.hpp"
#include "npusim/harness/KernelSet.hpp"

#include <cstdint>

namespace npusim::harness::iron_kernels {

/// rgba2hue(line_width=1920): rgba2hueLine(in: u8[4w], out: u8[w], n). The reference runs in both
/// kernel sets: the AIE2 vector path's floored table inverse differs from rgba2hue.cc's scalar
/// formula (kernels_ref/vision.hpp), which the designs use.
iron::Kernel rgba2hue(std::int64_t line_width = 1920, KernelSet ks = KernelSet::reference);
/// threshold(line_width=1920, dtype=uint8): thresholdLine(in, out, n: i32, threshold: i16, maxval: i16,
/// type: i8) (the scalar types IRON declares for BIT_WIDTH 8).
iron::Kernel threshold(std::int64_t line_width = 1920, DType dtype = DType::u8, KernelSet ks = KernelSet::reference);
/// bitwise_or / bitwise_and(line_width=1920, dtype=uint8): bitwise{OR,AND}Line(a, b, out, n).
iron::Kernel bitwise_or(std::int64_t line_width = 1920, DType dtype = DType::u8, KernelSet ks = KernelSet::reference);
iron::Kernel bitwise_and(std::int64_t line_width = 1920, DType dtype = DType::u8,
                         KernelSet ks = KernelSet::reference);
/// gray2rgba(line_width=1920): gray2rgbaLine(in: u8[w], out: u8[4w], n); rgba2gray the reverse.
iron::Kernel gray2rgba(std::int64_t line_width = 1920, KernelSet ks = KernelSet::reference);
iron::Kernel rgba2gray(std::int64_t line_width = 1920, KernelSet ks = KernelSet::reference);
/// filter2d(line_width=1920): filter2dLine(l0, l1, l2, out, n: i32, kernel: i16[3][3]); n % 32 == 0.
iron::Kernel filter2d(std::int64_t line_width = 1920, KernelSet ks = KernelSet::reference);
/// add_weighted(line_width=1920, dtype=uint8): addWeightedLine(a, b, out, n: i32, alpha: i16, beta: i16,
/// gamma: i8).
iron::Kernel add_weighted(std::int64_t line_width = 1920, DType dtype = DType::u8,
                          KernelSet ks = KernelSet::reference);

} // namespace npusim::harness::iron_kernels
