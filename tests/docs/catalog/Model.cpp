// Devices and timing files (model/).
#include "Designs.hpp"

#include "npusim/model/ComputePeak.hpp"
#include "npusim/model/TimingParams.hpp"

namespace npusim::errcat {

void add_model(Catalog& c) {
    c.component("Devices and timing files",
                "`--device` names and `--timing` files (`model/src/DeviceSpec.cpp`, `model/src/TimingParams.cpp`).");
    c.site("model/src/DeviceSpec.cpp");
    c.cli("model.unknown_device", kDesign, "unknown device 'npu9' (known devices: <...>)",
          {"run", "passthrough_kernel", "--device", "npu9"});
    c.site("model/src/TimingParams.cpp");
    c.cli("model.timing_not_json", kDesign,
          "timing file '$TMP/t.json': not valid JSON: [json.exception.parse_error.101] parse error at line 1, column "
          "15: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal",
          {"run", "passthrough_kernel", "--timing", "$TMP/t.json"}, "echo '{\"clock_mhz\": }' > $TMP/t.json",
          [](const Context& ctx) { write_file(ctx, "t.json", "{\"clock_mhz\": }\n"); });
    c.cli("model.timing_key_twice", kDesign, "timing file '$TMP/t.json': parameter 'clock_mhz' is given twice",
          {"run", "passthrough_kernel", "--timing", "$TMP/t.json"},
          "echo '{\"clock_mhz\": 1000, \"clock_mhz\": 900}' > $TMP/t.json",
          [](const Context& ctx) { write_file(ctx, "t.json", "{\"clock_mhz\": 1000, \"clock_mhz\": 900}\n"); });
    c.cli("model.timing_not_object", kDesign, "timing file '$TMP/t.json': expected a JSON object",
          {"run", "passthrough_kernel", "--timing", "$TMP/t.json"}, "echo '[1, 2]' > $TMP/t.json",
          [](const Context& ctx) { write_file(ctx, "t.json", "[1, 2]\n"); });
    c.cli("model.timing_unknown_parameter", kDesign,
          "timing file '$TMP/t.json': unknown parameter 'clock_ghz' (known: clock_mhz, <...>)",
          {"run", "passthrough_kernel", "--timing", "$TMP/t.json"}, "echo '{\"clock_ghz\": 1}' > $TMP/t.json",
          [](const Context& ctx) { write_file(ctx, "t.json", "{\"clock_ghz\": 1}\n"); });
    NPUSIM_ERROR(c, "model.timing_negative", kDesign,
                 "timing file 't.json': parameter 'bd_setup_cycles' must be a non-negative number",
                 model::TimingParams().apply_json(R"({"bd_setup_cycles": -4})", "'t.json'"));
    NPUSIM_ERROR(c, "model.timing_not_number", kDesign,
                 "timing file 't.json': parameter 'bd_setup_cycles' must be a non-negative number",
                 model::TimingParams().apply_json(R"({"bd_setup_cycles": "four"})", "'t.json'"));
    NPUSIM_ERROR(c, "model.timing_not_positive", kDesign,
                 "timing file 't.json': parameter 'clock_mhz' must be positive",
                 model::TimingParams().apply_json(R"({"clock_mhz": 0})", "'t.json'"));
    NPUSIM_ERROR(c, "model.timing_fraction", kDesign,
                 "timing file 't.json': parameter 'bd_setup_cycles' must be a whole number of cycles, got 4.5",
                 model::TimingParams().apply_json(R"({"bd_setup_cycles": 4.5})", "'t.json'"));
    NPUSIM_ERROR(
        c, "model.timing_too_large", kDesign,
        "timing file 't.json': parameter 'bd_setup_cycles' must be at most 4294967295 cycles (32 bits), got 5000000000",
        model::TimingParams().apply_json(R"({"bd_setup_cycles": 5e9})", "'t.json'"));
    c.internal("model.timing_not_finite", "timing file 't.json': parameter 'clock_mhz' must be a finite number",
               "JSON has no infinite or NaN numbers: a file with 1e999 is not valid JSON (model.timing_not_json).");
    c.cli("model.timing_directory", kDesign, "cannot read timing file '$TMP': it is a directory",
          {"run", "passthrough_kernel", "--timing", "$TMP"});
    c.cli("model.timing_missing", kDesign, "cannot open timing file '$TMP/none.json'",
          {"run", "passthrough_kernel", "--timing", "$TMP/none.json"});
    c.cli("model.timing_file_too_large", kDesign,
          "timing file '/dev/zero' is too large: it has more than the limit of 1 MiB (a timing file is a JSON "
          "object of a few dozen parameters)",
          {"run", "passthrough_kernel", "--timing", "/dev/zero"});
    c.cli("model.timing_read", kDesign, "cannot read timing file '/proc/self/mem': Input/output error",
          {"run", "passthrough_kernel", "--timing", "/proc/self/mem"});
    c.site("model/src/ComputePeak.cpp");
    NPUSIM_ERROR(c, "model.mac_peak", kDesign,
                 "no matrix-unit peak for f32 inputs on AIE2 (the mmul unit takes i8, i16 and bf16)",
                 model::matmul_mac_peak(model::Arch::AIE2, DType::f32));
}

} // namespace npusim::errcat
