#pragma once
// How a finished `npusim run` reports: the summary text, the run document's fields (--json), and
// the diagnosis of a deadlock or limit as the error document's `deadlock` / `limit` object.
#include "npusim/harness/DesignRunner.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace npusim::tools {

/// The run's summary: design, device, parameters, kernels, inputs, tiles, cycles (their time at
/// `timing`'s clock and as a host would see it), invocations, data moved, wall time, workers, the
/// breakdown, warnings, notes, each output's check, saved files, and "result: PASS" or FAIL.
void print_run_summary(std::ostream& out, const harness::RunReport& rep, const model::TimingParams& timing);
/// The run document's fields (docs/json-schema/run.schema.json) without its head (json_document)
/// and the command's own (netlist, files, what_if); also each device's entry of run_devices.
nlohmann::json run_report_json(const harness::RunReport& rep, const model::TimingParams& timing);
/// An output check's first differing elements as the documents' `first` array (run, compare, hw):
/// index, got and want as numbers (null for NaN or infinity) and as text, float errors.
nlohmann::json first_mismatches_json(const harness::OutputCheck& c);
/// The structured diagnosis of a deadlock or limit: its case, wait-for graph, cycles, causal chain
/// and each process's progress.
nlohmann::json diagnosis_json(const sim::Diagnosis& d);

} // namespace npusim::tools
