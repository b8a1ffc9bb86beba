// Recorded worker bodies (frontend/RecordedBody.hpp): the IR the Python front door records a body
// into, and its interpreter. A recording with an error in it is refused when it is built; what only
// the values show (a division by zero, a float index) is reported when the body runs, first in the
// resolve-time trace.
#include "Designs.hpp"

#include "npusim/frontend/RecordedBody.hpp"

namespace npusim::errcat {

namespace {
namespace rec = iron::recorded;
using rec::Operand;

/// Resolve shim -> recorded body -> shim (fifos 'in' and 'out', i32[256]); `make` records the body
/// between the acquires (elements 0: in, 1: out) and the releases.
void resolve_recorded(const std::function<void(rec::Builder&)>& make) {
    ObjectFifo in(i32(256), "in"), out(i32(256), "out");
    rec::Builder b("body");
    b.acquire(0, 1);
    b.acquire(1, 1);
    make(b);
    b.release(0, 1);
    b.release(1, 1);
    Worker w = rec::make_worker(b.finish(), {.fifos = {in.cons(), out.prod()}}, {.name = "w"});
    Runtime rt(fill_drain, fn_args(i32(1024), i32(1024), in.prod(), out.cons()));
    resolve(Program("npu1_1col", rt, {w}, "t"));
}
} // namespace

void add_recorded_body(Catalog& c) {
    c.component("RecordedBody", "Recorded worker bodies, the form a Python worker body is traced into and run "
                                "natively (`frontend/src/RecordedBody.cpp`, `RecordedBodyRun.cpp`; docs/python.md).");
    c.site("frontend/src/RecordedBody.cpp");
    NPUSIM_ERROR(c, "recorded.acquire_count", kDesign, "recorded body 'b': acquire(0) needs n >= 1",
                 rec::Builder("b").acquire(0, 0));
    NPUSIM_ERROR(c, "recorded.loop_end", kDesign, "recorded body 'b': loop_end without an open loop",
                 rec::Builder("b").loop_end());
    NPUSIM_ERROR(c, "recorded.open_loop", kDesign, "recorded body 'b': 1 loop(s) still open at the end of the body",
                 rec::Builder b("b");
                 b.loop_begin(Operand::imm(0), Operand::imm(4), Operand::imm(1)); (void)b.finish());
    NPUSIM_ERROR(c, "recorded.block_end", kDesign,
                 "recorded body 'b': the end of an if_ block does not close the innermost open block",
                 rec::Builder b("b");
                 b.loop_begin(Operand::imm(0), Operand::imm(4), Operand::imm(1)); b.if_end());
    NPUSIM_ERROR(c, "recorded.open_block", kDesign,
                 "recorded body 'b': 1 loop or if_/else_ block(s) still open at the end of the body",
                 rec::Builder b("b");
                 b.if_begin(Operand::imm(1)); (void)b.finish());
    NPUSIM_ERROR(c, "recorded.else_position", kDesign,
                 "recorded body 'b': else_ must directly follow its if_ block (nothing recorded in between), as the "
                 "else-block runs where the if_ is",
                 rec::Builder b("b");
                 const int id = b.if_begin(Operand::imm(1)); b.if_end(); b.cycles(1); b.else_begin(id));
    NPUSIM_ERROR(c, "recorded.else_twice", kDesign, "recorded body 'b': this if_ already has an else_ block",
                 rec::Builder b("b");
                 const int id = b.if_begin(Operand::imm(1)); b.if_end(); b.else_begin(id); b.else_end();
                 b.else_begin(id));
    NPUSIM_ERROR(c, "recorded.view_register", kDesign,
                 "recorded body 'b': element_view of element register 0, which the body has not made",
                 rec::Builder("b").element_view(0, 0, i32(4)));
    NPUSIM_ERROR(c, "recorded.view_negative", kDesign,
                 "recorded body 'b': a view at byte offset -4 (before its element)",
                 rec::Builder b("b");
                 const int e = b.acquire(0, 1); b.element_view(e, -4, i32(4)));
    NPUSIM_ERROR(c, "recorded.unknown_op", kDesign, "recorded body: unknown arithmetic operation 'pow'",
                 rec::binop_from_name("pow"));
    c.site("frontend/src/RecordedBodyRun.cpp");
    NPUSIM_ERROR(c, "recorded.division_by_zero", kDesign, "worker 'w': worker body 'body': integer division by zero",
                 resolve_recorded([](rec::Builder& b) {
                     b.binary(rec::BinOp::FloorDiv, Operand::imm(1), Operand::imm(0));
                 }));
    NPUSIM_ERROR(c, "recorded.float_index", kDesign,
                 "worker 'w': worker body 'body': an element index must be an integer, not a float",
                 resolve_recorded([](rec::Builder& b) { b.load(0, Operand::immf(1.5)); }));
    NPUSIM_ERROR(c, "recorded.float_range", kDesign, "worker 'w': worker body 'body': range_ bounds must be integers",
                 resolve_recorded([](rec::Builder& b) {
                     b.loop_begin(Operand::imm(0), Operand::immf(2.0), Operand::imm(1));
                     b.loop_end();
                 }));
    NPUSIM_ERROR(c, "recorded.view_past_end", kDesign,
                 "worker 'w': worker body 'body': a view of i32[200] at byte 400 of 'in' (i32[256]) ends past it",
                 resolve_recorded([](rec::Builder& b) { b.element_view(0, 400, i32(200)); }));
    NPUSIM_ERROR(c, "recorded.float_bitwise", kDesign, "worker 'w': worker body 'body': a bitwise operation on a float value",
                 resolve_recorded([](rec::Builder& b) {
                     b.binary(rec::BinOp::And, Operand::immf(1.0), Operand::imm(1));
                 }));
}

} // namespace npusim::errcat
