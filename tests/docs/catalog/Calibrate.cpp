// `npusim calibrate` (tools/CalibrateCommand.cpp, tools/Calibration.cpp), the trace files it reads
// (traces/src/MlirAieTraceReader.cpp, traces/src/TraceObservations.cpp), the fitter
// (harness/src/TimingFit.cpp), shipped timing profiles (harness/src/TimingProfiles.cpp) and a
// profile's generation (model/src/TimingParams.cpp).
#include "Designs.hpp"

#include "npusim/harness/TimingFit.hpp"
#include "npusim/model/TimingParams.hpp"
#include "npusim/traces/MlirAieTraceReader.hpp"

namespace npusim::errcat {

namespace {
// A parse.py-format trace of one core unit on tile (col, row 2) with `calls` kernel calls.
std::string calib_trace(int col, int calls) {
    std::string s = R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,)" +
                    std::to_string(col) + R"("}},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "INSTR_EVENT_0"}})";
    for (int i = 0; i < calls; ++i)
        s += ",\n{\"name\": \"INSTR_EVENT_0\", \"ts\": " + std::to_string(100 * i) +
             ", \"ph\": \"B\", \"pid\": 0, \"tid\": 0, \"args\": {}},\n{\"name\": \"INSTR_EVENT_0\", \"ts\": " +
             std::to_string(100 * i + 1) + ", \"ph\": \"E\", \"pid\": 0, \"tid\": 0, \"args\": {}}";
    return s + "]\n";
}
} // namespace

void add_calibrate(Catalog& c) {
    c.component("Calibration from a trace",
                "`npusim calibrate` and the mlir-aie trace files it reads; shipped timing profiles and a "
                "profile's generation (docs/calibration-from-trace.md).");
    c.site("tools/CalibrateCommand.cpp");
    c.cli("calibrate.no_design", kUsage, "calibrate: which design? (see `npusim list`)", {"calibrate"});
    c.cli("calibrate.no_measurement", kUsage,
          "calibrate: give the measurements to fit: --trace FILE (mlir-aie trace JSON) and/or --npu-time-us US",
          {"calibrate", "vector_scalar_mul"});
    c.cli("calibrate.spec_empty", kUsage, "--trace 'vector_scalar_mul:' names no file or value after ':'",
          {"calibrate", "vector_scalar_mul", "--trace", "vector_scalar_mul:"});
    c.cli("calibrate.trace_empty", kUsage, "--trace needs a value", {"calibrate", "vector_scalar_mul", "--trace", ""});
    c.cli("calibrate.npu_time", kUsage, "--npu-time-us expects a positive number of microseconds, got 'fast'",
          {"calibrate", "vector_scalar_mul", "--npu-time-us", "fast"});
    c.cli("calibrate.fit_list", kUsage, "--fit expects NAME[,NAME...], got 'a,,b'",
          {"calibrate", "vector_scalar_mul", "--npu-time-us", "300", "--fit", "a,,b"});
    c.site("tools/Calibration.cpp");
    c.cli("calibrate.fit_clock", kUsage,
          "calibrate: --fit 'clock_mhz' is not fitted (a trace is in cycles; the clock converts them)",
          {"calibrate", "vector_scalar_mul", "--npu-time-us", "300", "--fit", "clock_mhz"});
    c.cli("calibrate.fit_unknown", kUsage,
          "calibrate: --fit 'clock_ghz' is not a timing parameter (`npusim timing` lists them)",
          {"calibrate", "vector_scalar_mul", "--npu-time-us", "300", "--fit", "clock_ghz"});
    c.cli("calibrate.other_device", kDesign,
          "trace file '$TMP/t.json' is of another device: it traces core_trace for tile2,3 (column 3, row 2), and "
          "npu1_1col has 1 column(s) of 6 rows; calibrate with the --device the trace was captured on",
          {"calibrate", "vector_scalar_mul", "--trace", "$TMP/t.json"},
          "a trace of a core in column 3 (npusim run ... --device npu1 --trace-format mlir-aie)",
          [](const Context& ctx) { write_file(ctx, "t.json", calib_trace(3, 4)); });
    c.cli("calibrate.no_events", kDesign,
          "trace file '$TMP/t.json' has no event calibrate can use (kernel calls, lock stalls, DMA activity)",
          {"calibrate", "vector_scalar_mul", "--trace", "$TMP/t.json"}, "a trace with one core and no event",
          [](const Context& ctx) { write_file(ctx, "t.json", calib_trace(0, 0)); });
    c.internal("calibrate.nothing_sensitive",
               "calibrate: no timing parameter moves any traced event or NPU time of these runs: nothing to fit "
               "(trace the kernel calls, locks and DMA ports, or give --npu-time-us)",
               "every observation calibrate keeps is a time or length on a core or DMA, which the stream rate, the "
               "kernel call overhead or a lock latency moves, and an NPU time moves with the host latency");
    c.internal("calibrate.scratch", "calibrate: cannot create a temporary folder for its traces",
               "std::filesystem::temp_directory_path() throws first when the folder does not exist; mkdtemp fails "
               "only for a folder that exists and cannot be written, which tests do not make");
    c.site("traces/src/TraceObservations.cpp");
    c.cli("calibrate.other_design", kDesign,
          "trace file '$TMP/t.json' is not a trace of design 'vector_scalar_mul' on npu1_1col: 'core tile2,0' has 1 "
          "INSTR_EVENT_0 event(s) in the trace and 4 in the simulated run (another design, other parameters, or a "
          "trace buffer that filled up)",
          {"calibrate", "vector_scalar_mul", "--trace", "$TMP/t.json"}, "a trace of a core with one kernel call",
          [](const Context& ctx) { write_file(ctx, "t.json", calib_trace(0, 1)); });
    c.site("traces/src/MlirAieTraceReader.cpp");
    NPUSIM_ERROR(c, "trace_file.not_json", kDesign,
                 "trace file 't.json': not valid JSON: [json.exception.parse_error.101] parse error at line 1, column "
                 "2: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal",
                 traces::parse_mlir_aie_trace("[", "'t.json'"));
    NPUSIM_ERROR(c, "trace_file.not_list", kDesign,
                 "trace file 't.json': expected a JSON list of trace events (mlir-aie parse.py's output), got a "
                 "JSON object",
                 traces::parse_mlir_aie_trace("{}", "'t.json'"));
    NPUSIM_ERROR(c, "trace_file.process_name", kDesign,
                 "trace file 't.json': event 0 names its process 'x', expected '<core|mem|shim|memtile>_trace for "
                 "tile<row>,<col>'",
                 traces::parse_mlir_aie_trace(
                     R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "x"}}])", "'t.json'"));
    NPUSIM_ERROR(
        c, "trace_file.unnamed_pid", kDesign,
        "trace file 't.json': event 0 belongs to process 4, which has no process_name",
        traces::parse_mlir_aie_trace(R"([{"name": "A", "ph": "B", "pid": 4, "tid": 0, "ts": 1}])", "'t.json'"));
    NPUSIM_ERROR(c, "trace_file.end_without_begin", kDesign,
                 "trace file 't.json': event 1 ends slot 0 of process 'core_trace for tile2,0', which never began",
                 traces::parse_mlir_aie_trace(
                     R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,0"}},
                         {"name": "A", "ph": "E", "pid": 0, "tid": 0, "ts": 1}])",
                     "'t.json'"));
    NPUSIM_ERROR(c, "trace_file.bad_ts", kDesign,
                 "trace file 't.json': event 1 has 'ts' 1.5, expected a whole number of cycles >= 0",
                 traces::parse_mlir_aie_trace(
                     R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,0"}},
                         {"name": "A", "ph": "B", "pid": 0, "tid": 0, "ts": 1.5}])",
                     "'t.json'"));
    NPUSIM_ERROR(c, "trace_file.bad_slot", kDesign,
                 "trace file 't.json': event 1 has tid 9, expected an event slot 0..7",
                 traces::parse_mlir_aie_trace(
                     R"([{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core_trace for tile2,0"}},
                         {"name": "A", "ph": "B", "pid": 0, "tid": 9, "ts": 1}])",
                     "'t.json'"));
    c.cli("trace_file.missing", kDesign, "cannot open trace file '$TMP/none.json'",
          {"calibrate", "vector_scalar_mul", "--trace", "$TMP/none.json"});
    c.site("harness/src/TimingProfiles.cpp");
    c.cli("timing.unknown_profile", kDesign,
          "--timing 'npu9-public' is neither a file nor a shipped timing profile (shipped, in <...>: npu1-public, "
          "npu2-public)",
          {"run", "passthrough_kernel", "--timing", "npu9-public"});
    c.site("model/src/TimingParams.cpp");
    NPUSIM_ERROR(c, "model.timing_other_generation", kDesign,
                 "timing file 't.json' was calibrated on AIE2 (npu1_1col), and this run's device is AIE2P: a profile "
                 "holds one generation's parameters",
                 model::TimingParams::for_arch(model::Arch::AIE2P)
                     .apply_json(R"({"calibration": {"generation": "AIE2", "device": "npu1_1col"}})", "'t.json'"));
    NPUSIM_ERROR(c, "model.timing_calibration_not_object", kDesign,
                 "timing file 't.json': 'calibration' must be an object",
                 model::TimingParams().apply_json(R"({"calibration": 3})", "'t.json'"));
    c.site("harness/src/TimingFit.cpp");
    c.internal("fit.no_parameter", "fit_least_squares: no parameter to fit",
               "calibrate fits only when a parameter was named or found sensitive (calibrate.nothing_sensitive)");
    c.internal("fit.start_outside", "fit_least_squares: 'x' starts at 9 outside [0, 1]",
               "timing_fit_parameter clamps every start into its bounds");
    c.internal("fit.length_changed", "fit_least_squares: the residual function changed its length",
               "calibrate's residuals are the measured observations, a fixed list, whatever the simulated run does");
}

} // namespace npusim::errcat
