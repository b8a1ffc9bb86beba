#pragma once
// What `npusim calibrate` does between reading its command line and printing: simulate each
// design the traces are of, with a candidate timing table, into mlir-aie's trace format
// (MlirAieTraceSink); compare the events with the hardware traces' (traces::TraceObservations);
// choose the parameters the runs are sensitive to; and fit them (harness::fit_least_squares).
//
// Which parameters: those given with --fit, else every fittable timing parameter (all but the
// clock) that moves an observation when set to double its value (or half, at its upper bound) -
// the perturbation `--what-if sensitivity` makes (sensitivity_value). A parameter nothing moves
// with cannot be fitted from these traces and keeps its value.
#include "RunArgs.hpp"

#include "npusim/harness/TimingFit.hpp"
#include "npusim/traces/TraceObservations.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace npusim::tools {

/// One design run the measurements are of: traces of it and, optionally, its NPU time per run.
struct CalibrationTarget {
    std::string design;
    harness::Params params;
    std::vector<std::string> trace_files;
    std::vector<double> npu_time_us; ///< measured NPU time per invocation (host latency included)
};

struct CalibratedParameter {
    std::string name, unit, source_tag;
    double before = 0, after = 0;
    bool fitted = false;
    std::string held; ///< why it was not fitted
    /// One combined degree of freedom with these parameters (the traces see a combination of them:
    /// harness::FitOutcome::held, FitOutcome::combined), " + " between names; empty otherwise.
    std::string combined_with;
    double condition = 0; ///< the combination's condition number; infinite when exactly collinear
};

struct CalibrationResidual {
    traces::ObservationKind kind{};
    std::size_t count = 0;
    double rms_before = 0, rms_after = 0; ///< in observation_kind_unit(kind)
};

struct CalibrationResult {
    std::string device;
    model::TimingParams start, fitted;
    std::vector<CalibratedParameter> parameters; ///< every fittable row, in table order
    std::vector<CalibrationResidual> residuals; ///< per kind that has observations
    int evaluations = 0; ///< simulated runs of each target
    /// Fitted parameters collinear at the fitted values (harness::FitOutcome::combined): the
    /// names of each group, in table order, and its condition number.
    struct Combination {
        std::vector<std::string> names;
        double condition = 0;
    };
    std::vector<Combination> combinations;
};

/// Calibrates from `targets` on `r.device` starting from `start`. `fit`: the parameters to fit
/// (empty: chosen by sensitivity). Throws DesignError for a trace that cannot be read, is not of
/// its design and device (another design, configuration or device), or when nothing can be fitted;
/// UsageError for an unknown or unfittable --fit name.
CalibrationResult calibrate(const RunArgs& r, const std::vector<CalibrationTarget>& targets,
                            const model::TimingParams& start, const std::vector<std::string>& fit, std::ostream& out,
                            std::ostream& err);

/// The timing profile: the parameters that differ from the generation's table or were fitted,
/// and a "calibration" object (generation, device, designs, traces, residuals) that --timing
/// checks and otherwise ignores (docs/calibration-from-trace.md).
nlohmann::json calibration_profile(const CalibrationResult& res, const std::vector<CalibrationTarget>& targets);

/// The value `--what-if sensitivity` tries for `row` at `factor` times `v` (whole cycles rounded
/// down for cycle counts).
double sensitivity_value(const model::TimingParamRow& row, double v, double factor);

} // namespace npusim::tools
