// NPU instruction files (hw/).
#include "Designs.hpp"

#include "npusim/hw/InstructionStream.hpp"

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
}

} // namespace npusim::errcat
