// NPU instruction files (hw/).
#include "Designs.hpp"

#include "npusim/hw/BufferPlan.hpp"
#include "npusim/hw/InstructionStream.hpp"
#include "npusim/hw/XrtRunner.hpp"

#include <filesystem>

namespace npusim::errcat {

void add_hardware(Catalog& c) {
    c.component("NPU instruction files",
                "The instruction stream aiecc.py writes (`insts.bin`: little-endian 32-bit words; `insts.txt`: one "
                "hex word per line), read as mlir-aie's `test_utils::load_instr_binary` / `load_instr_sequence` "
                "read them (`hw/src/InstructionStream.cpp`).");
    c.site("hw/src/InstructionStream.cpp");
    using hw::InstructionStream;
    NPUSIM_ERROR(c, "hw.insts_missing", kDesign, "cannot open instruction file '$TMP/none.bin'",
                 InstructionStream::load(ctx.tmp + "/none.bin"));
    NPUSIM_ERROR(c, "hw.insts_directory", kDesign, "cannot read instruction file '$TMP': it is a directory",
                 InstructionStream::load(ctx.tmp));
    NPUSIM_ERROR(c, "hw.insts_too_large", kDesign,
                 "instruction file '/dev/zero' is too large: it has more than the limit of 64 MiB",
                 InstructionStream::load("/dev/zero"));
    NPUSIM_ERROR(c, "hw.insts_read", kDesign, "cannot read instruction file '/proc/self/mem': Input/output error",
                 InstructionStream::load("/proc/self/mem"));
    NPUSIM_ERROR(c, "hw.insts_empty", kDesign,
                 "instruction file '$TMP/insts.bin' is empty: the NPU needs at least one instruction word",
                 write_file(ctx, "insts.bin", ""), InstructionStream::load(ctx.tmp + "/insts.bin"));
    NPUSIM_ERROR(c, "hw.insts_partial_word", kDesign,
                 "instruction file '$TMP/insts.bin': 5 bytes is not a whole number of 32-bit words (mlir-aie: \"File "
                 "size is not a multiple of 4 bytes\")",
                 write_file(ctx, "insts.bin", "12345"), InstructionStream::load(ctx.tmp + "/insts.bin"));
    NPUSIM_ERROR(c, "hw.insts_bad_line", kDesign,
                 "instruction file '$TMP/insts.txt' line 2: '0604zz05' is not one 32-bit hex word (mlir-aie: "
                 "\"Unable to parse instruction file\")",
                 write_file(ctx, "insts.txt", "06030100\n0604zz05\n"), InstructionStream::load(ctx.tmp + "/insts.txt"));

    c.component("NPU runs",
                "`npusim hw` and `npusim compare` (docs/hardware.md): the buffer-object plan "
                "(`hw/src/BufferPlan.cpp`), the XRT backend (`hw/xrt/XrtRunner.cpp`, exit code 6 when it cannot "
                "run) and the commands (`tools/HwCommand.cpp`). The no-device entry holds on a machine without an "
                "NPU, such as the CI's.");
    c.site("hw/src/BufferPlan.cpp");
    NPUSIM_ERROR(c, "hw.empty_argument", kDesign,
                 "design 'd': runtime argument 1 ('b') has 0 bytes; XRT cannot allocate an empty buffer object",
                 hw::BufferPlan("d", 4, {{"a", hw::HostArg::Role::input, 16}, {"b", hw::HostArg::Role::output, 0}}));
    c.internal("hw.empty_instructions",
               "design '<...>': the instruction stream is empty (no buffer object to hand the MLIR_AIE kernel)",
               "The plan takes the word count of an InstructionStream, which refuses an empty file (hw.insts_empty).");
    c.site("hw/xrt/XrtRunner.cpp");
    auto insts = [](const Context& ctx) { write_file(ctx, "insts.bin", std::string("\x00\x00\x03\x06", 4)); };
    c.cli("hw.xclbin_missing", kDesign, "xclbin '$TMP/none.xclbin' cannot be read",
          {"hw", "passthrough_kernel", "--xclbin", "$TMP/none.xclbin", "--insts", "$TMP/insts.bin"},
          "printf '\\0\\0\\3\\6' > $TMP/insts.bin", insts);
    c.cli("hw.xclbin_empty", kDesign, "xclbin '$TMP/x.xclbin' is empty",
          {"hw", "passthrough_kernel", "--xclbin", "$TMP/x.xclbin", "--insts", "$TMP/insts.bin"},
          "touch $TMP/x.xclbin; printf '\\0\\0\\3\\6' > $TMP/insts.bin", [insts](const Context& ctx) {
              insts(ctx);
              write_file(ctx, "x.xclbin", "");
          });
    c.cli("hw.xclbin_not_regular", kDesign,
          "xclbin '/dev/zero' is not a regular file (XRT reads an xclbin whole, from a file)",
          {"hw", "passthrough_kernel", "--xclbin", "/dev/zero", "--insts", "$TMP/insts.bin"},
          "printf '\\0\\0\\3\\6' > $TMP/insts.bin", insts);
    c.cli("hw.xclbin_too_large", kDesign,
          "xclbin '$TMP/x.xclbin' is too large: it has 268435457 bytes, more than the limit of 256 MiB",
          {"hw", "passthrough_kernel", "--xclbin", "$TMP/x.xclbin", "--insts", "$TMP/insts.bin"},
          "truncate -s 268435457 $TMP/x.xclbin; printf '\\0\\0\\3\\6' > $TMP/insts.bin",
          [insts](const Context& ctx) {
              insts(ctx);
              write_file(ctx, "x.xclbin", "");
              std::filesystem::resize_file(ctx.tmp + "/x.xclbin", 268435457); // sparse
          });
    NPUSIM_ERROR(c, "hw.iters", kDesign, "XrtRequest: iters must be at least 1 (timed runs)",
                 write_file(ctx, "x.xclbin", "xclbin"); write_file(ctx, "i.bin", std::string(4, '\0'));
                 hw::XrtRequest req; req.xclbin = ctx.tmp + "/x.xclbin"; req.iters = 0;
                 (void)hw::XrtRunner::run(req, InstructionStream::load(ctx.tmp + "/i.bin"),
                                          hw::BufferPlan("d", 1, {}), {}));
    c.cli("hw.no_device", kNoDevice,
          "XRT <...> cannot open device 0 (<...>); a run on hardware needs an NPU and its driver (amdxdna), see "
          "docs/hardware.md",
          {"hw", "passthrough_kernel", "--xclbin", "$TMP/x.xclbin", "--insts", "$TMP/insts.bin"},
          "echo xclbin > $TMP/x.xclbin; printf '\\0\\0\\3\\6' > $TMP/insts.bin", [insts](const Context& ctx) {
              insts(ctx);
              write_file(ctx, "x.xclbin", "xclbin\n");
          });
    c.internal("hw.no_xrt",
               "this npusim was built without XRT (CMake found no xrt/xrt_device.h and libxrt_coreutil, or a project "
               "built against an installed npusim did not ask for it with find_package(npusim COMPONENTS xrt)): "
               "install libxrt-dev (tools/install-deps.sh) and rebuild to run designs on an NPU",
               "This build has XRT (Debian's libxrt-dev, installed by tools/install-deps.sh); a build without it, or "
               "a user's CLI built without the xrt component (the test install:external-project runs one), "
               "reports this, kind 'no XRT' (exit 6), for every hw and compare run.");
    c.internal("hw.no_kernel", "xclbin '<...>' has no kernel named <...>*",
               "Reached only on a machine with an NPU, after XRT opened the device.");
    c.internal("hw.run_state", "run <N> of kernel <...> ended in state <N>",
               "Reached only on a machine with an NPU.");
    c.internal("hw.xrt_failed", "XRT failed: <...>", "Reached only on a machine with an NPU.");
    c.site("tools/HwCommand.cpp");
    c.cli("hw.without_design", kUsage, "hw: which design? (see `npusim list`)", {"hw"});
    c.cli("hw.compare_without_design", kUsage, "compare: which design? (see `npusim list`)", {"compare"});
    c.cli("hw.xclbin_required", kUsage,
          "hw: --xclbin FILE is required (the xclbin aiecc builds: npusim export passthrough_kernel -o design.mlir "
          "--print-commands)",
          {"hw", "passthrough_kernel"});
    c.cli("hw.insts_required", kUsage,
          "compare: --insts FILE is required (the instruction stream aiecc writes with --npu-insts-name)",
          {"compare", "passthrough_kernel", "--xclbin", "x.xclbin"});
    c.cli("hw.compare_both", kUsage,
          "compare: give either --hw-outputs DIR (recorded outputs) or --xclbin and --insts (a run on the NPU), not "
          "both",
          {"compare", "passthrough_kernel", "--hw-outputs", "$TMP", "--xclbin", "x.xclbin"});
    c.cli("hw.times_without_outputs", kUsage,
          "compare: --hw-times goes with --hw-outputs (a run on the NPU measures its own times)",
          {"compare", "passthrough_kernel", "--xclbin", "x.xclbin", "--insts", "i.bin", "--hw-times", "t.txt"});
    c.cli("hw.times_missing", kDesign, "--hw-times '$TMP/none.txt' cannot be read",
          {"compare", "passthrough_kernel", "--hw-outputs", "$TMP", "--hw-times", "$TMP/none.txt"});
    c.cli("hw.times_bad", kDesign, "--hw-times '$TMP/t.txt' line 2: '12us' is not a time in microseconds",
          {"compare", "passthrough_kernel", "--hw-outputs", "$TMP", "--hw-times", "$TMP/t.txt"},
          "printf '10.5\\n12us\\n' > $TMP/t.txt", [](const Context& ctx) { write_file(ctx, "t.txt", "10.5\n12us\n"); });
    c.cli("hw.times_empty", kDesign, "--hw-times '$TMP/t.txt' holds no times",
          {"compare", "passthrough_kernel", "--hw-outputs", "$TMP", "--hw-times", "$TMP/t.txt"},
          "echo '# none' > $TMP/t.txt", [](const Context& ctx) { write_file(ctx, "t.txt", "# none\n"); });
    c.internal("hw.scratch_dir", "compare: cannot create a scratch directory",
               "The simulation's outputs go to a fresh directory under the system's temporary directory; only an "
               "unwritable TMPDIR, not a design, command line or file, makes mkdtemp fail.");
}

} // namespace npusim::errcat
