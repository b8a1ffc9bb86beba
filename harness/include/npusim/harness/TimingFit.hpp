#pragma once
// Fitting timing parameters to measurements: bounded, damped Gauss-Newton (Levenberg-Marquardt)
// least squares over a residual function that runs the simulator, with Eigen for the linear algebra.
//
// The residuals are measured minus simulated values of some observations (trace events, NPU time).
// Each iteration estimates the Jacobian by forward differences (a cycle parameter steps by whole
// cycles: the simulator rounds nothing, it takes integers), solves the damped normal equations
// with a weak prior pulling each parameter toward its table value (so a direction the data cannot
// see, e.g. two latencies that always add up, is split as the table splits it, not at random),
// clamps the step to the parameter's physical bounds and rounds cycle counts. Parameters the
// observations cannot tell apart from others (their effects point the same way:
// FitOptions::separable_fraction) are one combined degree of freedom with the more influential
// one: held at their start values and reported; fitted parameters that turn out collinear at the
// fitted values (FitOptions::max_condition) are reported as one too, and keep the table's split
// along what the observations cannot see. A step is kept when
// the cost falls; otherwise the damping grows and the step shrinks.
//
// Which parameters and which bounds: timing_fit_parameter (the bounds' reasons are there).
#include "npusim/model/TimingParams.hpp"

#include <functional>
#include <string>
#include <vector>

namespace npusim::harness {

struct FitParameter {
    std::string name;
    double start = 0; ///< first value tried
    double prior = 0; ///< the value the weak prior pulls toward (the table's)
    double scale = 1; ///< what counts as a large change (the prior's width)
    double lower = 0; ///< physical bounds, inclusive
    double upper = 0;
    bool integer = false; ///< a whole number of cycles
};

/// The fit parameter for a timing table row on a generation: start and prior its current value
/// in `timing`, scale max(value, 1 unit), and the physical bounds:
///   * a latency or overhead (cycles, us) is >= 0: nothing happens before its cause; with
///     kernel_call_overhead_cycles >= 0 no kernel call is shorter than its body at the
///     generation's peak (the kernel cost models give the body at peak: docs/timing-model.md);
///   * a rate is > 0 and at most the width of the path it times: a stream, tile DMA or shim DMA
///     port moves at most 4 B/cycle on AIE2 (AM020: 32-bit ports) and 8 B/cycle on AIE2P (AM027's
///     64-bit ports, the widest any source gives); a mem tile's memory at most its banks' width
///     (the table's value); host memory at most 4x the table's figure (no bound is published);
///   * cycle counts stay within 2^24 (a parameter beyond 16M cycles is not a latency any more).
/// The clock is not fitted: a trace is in cycles, and an NPU time in us moves with the host
/// latency as much as with the clock.
FitParameter timing_fit_parameter(const model::TimingParamRow& row, const model::TimingParams& timing);

/// Whether a row can be fitted at all (every row but the clock).
bool timing_row_fittable(const model::TimingParamRow& row);

struct FitOptions {
    int max_iterations = 12;
    /// Weight of the prior rows against the residuals: a change of one `scale` costs as much as
    /// a residual of sqrt(prior_weight) (cycles or us).
    double prior_weight = 1.0;
    /// A parameter is fitted only when its effect on the observations has at least this fraction
    /// of its size outside what the parameters that move them more already do (at the start);
    /// the others are held at their start values (FitOutcome::held).
    double separable_fraction = 0.05;
    /// After the fit, the fitted parameters' effects at the fitted values (Jacobian columns scaled
    /// to unit length) are checked for collinearity: each direction whose singular value is below
    /// the largest over this is one the observations do not see, and the parameters that make it
    /// up are one combined degree of freedom (FitOutcome::combined). 1000: a direction that moves
    /// the observations a thousandth of what the best-seen one does (a pair of columns whose
    /// cosine is above 0.999998) is not seen in practice; a fit of traces with a few cycles of
    /// noise does determine directions far weaker than the best (conditions of 10-30 are fitted
    /// back exactly). Their values lose the component along it (the table's split is kept there);
    /// only the combination the observations see is fitted. 0: no check.
    double max_condition = 1000;
};

/// FitOutcome::held: fitted, or held because nothing moved with it; other values are the index
/// of the fitted parameter it moves like.
inline constexpr int kFitted = -2;
inline constexpr int kNoEffect = -1;

struct FitOutcome {
    std::vector<double> values; ///< per parameter, within its bounds, integers where integer
    std::vector<double> residuals; ///< at `values`
    /// per parameter: kFitted, kNoEffect or the index of the fitted parameter it is one combined
    /// degree of freedom with (it moves the observations as that one does)
    std::vector<int> held;
    /// per parameter held with another: the condition number of the two (infinite when its effect
    /// lies in the span of the fitted ones'); 0 otherwise
    std::vector<double> condition;
    /// Groups of fitted parameters (indices) that are one combined degree of freedom at the fitted
    /// values (FitOptions::max_condition), with each group's condition number.
    std::vector<std::vector<int>> combined;
    std::vector<double> combined_condition;
    int iterations = 0;
    int evaluations = 0; ///< calls of the residual function
};

/// Residuals (measured - simulated) at the given parameter values; always the same length.
using ResidualFunction = std::function<std::vector<double>(const std::vector<double>& values)>;

/// Fits `params` to make the residuals small. Throws std::invalid_argument when `params` is empty
/// or a start lies outside its bounds; whatever the residual function throws passes through.
FitOutcome fit_least_squares(const std::vector<FitParameter>& params, const ResidualFunction& residuals,
                             const FitOptions& options = {});

} // namespace npusim::harness
