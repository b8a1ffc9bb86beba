#pragma once
// `npusim run --what-if LIST`: after the run, the same design, inputs and checks again with one
// part of the cost model switched off per ablation (free-kernels, unlimited-ddr, ideal-locks,
// zero-host-latency), each beside the baseline: as text after the run's summary, or as the run
// document's "what_if".
#include "RunArgs.hpp"

#include "npusim/harness/DesignRunner.hpp"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace npusim::tools {

/// --what-if's value - ablation names separated by commas, or `all` - added to `into`, each name
/// once, in the order given. UsageError for an unknown name.
void parse_what_if(const std::string& v, std::vector<std::string>& into);

/// Reruns `spec` on the baseline's device with each of r.what_if alone applied to `base` (the
/// options of RunKind::what_if), and reports them against `baseline`: into `*json` ("what_if")
/// when given, else as a table on `out`. A rerun that fails is a row with its error. Each rerun is
/// guarded as the baseline was (guarded_run: crash reporter, exit guard, its own --timeout
/// watchdog reporting on `out`/`err`).
void run_what_ifs(const RunArgs& r, const harness::DesignSpec& spec, const harness::RunOptions& base,
                  const harness::RunReport& baseline, std::ostream& out, std::ostream& err, nlohmann::json* json);

} // namespace npusim::tools
