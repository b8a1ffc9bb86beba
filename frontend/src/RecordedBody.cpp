// The recorded-body builder (RecordedBody.hpp): statements appended as a tracer meets them, loops
// and if_/else_ blocks nested through a stack of open statements.
#include "npusim/frontend/RecordedBody.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <array>
#include <utility>

namespace npusim::iron::recorded {

BinOp binop_from_name(const std::string& name) {
    static constexpr std::array<std::pair<const char*, BinOp>, 19> kNames{{
        {"add", BinOp::Add}, {"sub", BinOp::Sub}, {"mul", BinOp::Mul}, {"floordiv", BinOp::FloorDiv},
        {"mod", BinOp::Mod}, {"truediv", BinOp::TrueDiv}, {"and", BinOp::And}, {"or", BinOp::Or},
        {"xor", BinOp::Xor}, {"lshift", BinOp::Shl}, {"rshift", BinOp::Shr}, {"min", BinOp::Min},
        {"max", BinOp::Max}, {"lt", BinOp::Lt}, {"le", BinOp::Le}, {"gt", BinOp::Gt}, {"ge", BinOp::Ge},
        {"eq", BinOp::Eq}, {"ne", BinOp::Ne},
    }};
    for (const auto& [n, op] : kNames)
        if (name == n) return op;
    throw DesignError("recorded body: unknown arithmetic operation '" + name + "'");
}

Builder::Builder(std::string name) { body_.name = std::move(name); }

std::vector<Stmt>& Builder::out() {
    if (open_.empty()) return body_.stmts;
    return open_else_.back() ? open_.back().else_body : open_.back().body;
}

void Builder::close(Stmt::Kind kind, bool else_block, const char* what) {
    if (open_.empty())
        throw DesignError("recorded body '" + body_.name + "': " + what + " without an open " +
                          (kind == Stmt::Kind::Loop ? "loop" : "block"));
    if (open_.back().kind != kind || open_else_.back() != else_block)
        throw DesignError("recorded body '" + body_.name + "': " + what + " does not close the innermost open block");
    Stmt s = std::move(open_.back());
    open_.pop_back();
    open_else_.pop_back();
    out().push_back(std::move(s));
}

int Builder::acquire(int fifo, int n) {
    if (n < 1) throw DesignError("recorded body '" + body_.name + "': acquire(" + std::to_string(n) + ") needs n >= 1");
    Stmt s;
    s.kind = Stmt::Kind::Acquire;
    s.arg = fifo;
    s.n = n;
    s.dst = body_.element_regs;
    body_.element_regs += n;
    out().push_back(std::move(s));
    return out().back().dst;
}

void Builder::release(int fifo, int n) {
    Stmt s;
    s.kind = Stmt::Kind::Release;
    s.arg = fifo;
    s.n = n;
    out().push_back(std::move(s));
}

void Builder::call(int kernel, std::vector<KernelOperand> args) {
    Stmt s;
    s.kind = Stmt::Kind::Call;
    s.arg = kernel;
    s.kargs = std::move(args);
    out().push_back(std::move(s));
}

int Builder::loop_begin(Operand start, Operand stop, Operand step) {
    Stmt s;
    s.kind = Stmt::Kind::Loop;
    s.a = start;
    s.b = stop;
    s.c = step;
    s.dst = body_.value_regs++;
    open_.push_back(std::move(s));
    open_else_.push_back(false);
    return open_.back().dst;
}

void Builder::loop_end() { close(Stmt::Kind::Loop, false, "loop_end"); }

int Builder::if_begin(Operand cond) {
    Stmt s;
    s.kind = Stmt::Kind::If;
    s.a = cond;
    s.n = ifs_++;
    open_.push_back(std::move(s));
    open_else_.push_back(false);
    return static_cast<int>(open_.back().n);
}

void Builder::if_end() { close(Stmt::Kind::If, false, "the end of an if_ block"); }

void Builder::else_begin(int if_id) {
    auto& block = out();
    if (block.empty() || block.back().kind != Stmt::Kind::If || block.back().n != if_id)
        throw DesignError("recorded body '" + body_.name + "': else_ must directly follow its if_ block (nothing "
                          "recorded in between), as the else-block runs where the if_ is");
    if (block.back().has_else)
        throw DesignError("recorded body '" + body_.name + "': this if_ already has an else_ block");
    Stmt s = std::move(block.back());
    block.pop_back();
    s.has_else = true;
    open_.push_back(std::move(s));
    open_else_.push_back(true);
}

void Builder::else_end() { close(Stmt::Kind::If, true, "the end of an else_ block"); }

int Builder::load(int elem, Operand index) {
    Stmt s;
    s.kind = Stmt::Kind::Load;
    s.elem = elem;
    s.a = index;
    s.dst = body_.value_regs++;
    out().push_back(std::move(s));
    return out().back().dst;
}

void Builder::store(int elem, Operand index, Operand value) {
    Stmt s;
    s.kind = Stmt::Kind::Store;
    s.elem = elem;
    s.a = index;
    s.b = value;
    out().push_back(std::move(s));
}

int Builder::binary(BinOp op, Operand a, Operand b) {
    Stmt s;
    s.kind = Stmt::Kind::Binary;
    s.op = op;
    s.a = a;
    s.b = b;
    s.dst = body_.value_regs++;
    out().push_back(std::move(s));
    return out().back().dst;
}

int Builder::buffer_view(int buffer) {
    Stmt s;
    s.kind = Stmt::Kind::BufferView;
    s.arg = buffer;
    s.dst = body_.element_regs++;
    out().push_back(std::move(s));
    return out().back().dst;
}

int Builder::element_view(int elem, std::int64_t byte_offset, TensorType type) {
    if (elem < 0 || elem >= body_.element_regs)
        throw DesignError(fmt::format("recorded body '{}': element_view of element register {}, which the body "
                                      "has not made",
                                      body_.name, elem));
    if (byte_offset < 0)
        throw DesignError(fmt::format("recorded body '{}': a view at byte offset {} (before its element)", body_.name,
                                      byte_offset));
    Stmt s;
    s.kind = Stmt::Kind::ElementView;
    s.elem = elem;
    s.n = byte_offset;
    s.arg = static_cast<int>(body_.view_types.size());
    body_.view_types.push_back(std::move(type));
    s.dst = body_.element_regs++;
    out().push_back(std::move(s));
    return out().back().dst;
}

void Builder::barrier_wait(int barrier, std::int64_t value) {
    Stmt s;
    s.kind = Stmt::Kind::BarrierWait;
    s.arg = barrier;
    s.n = value;
    out().push_back(std::move(s));
}

void Builder::barrier_release(int barrier, std::int64_t value) {
    Stmt s;
    s.kind = Stmt::Kind::BarrierRelease;
    s.arg = barrier;
    s.n = value;
    out().push_back(std::move(s));
}

void Builder::cycles(std::int64_t n) {
    Stmt s;
    s.kind = Stmt::Kind::Cycles;
    s.n = n;
    out().push_back(std::move(s));
}

void Builder::lock_acquire(int lock, std::int64_t value, bool exact) {
    Stmt s;
    s.kind = Stmt::Kind::LockAcquire;
    s.arg = lock;
    s.n = value;
    s.dst = exact ? 1 : 0;
    out().push_back(std::move(s));
}

void Builder::lock_release(int lock, std::int64_t value) {
    Stmt s;
    s.kind = Stmt::Kind::LockRelease;
    s.arg = lock;
    s.n = value;
    out().push_back(std::move(s));
}

std::shared_ptr<const RecordedBody> Builder::finish() {
    if (!open_.empty()) {
        const bool loops_only = std::all_of(open_.begin(), open_.end(),
                                            [](const Stmt& s) { return s.kind == Stmt::Kind::Loop; });
        throw DesignError("recorded body '" + body_.name + "': " + std::to_string(open_.size()) +
                          (loops_only ? " loop(s)" : " loop or if_/else_ block(s)") + " still open at the end of the body");
    }
    return std::make_shared<const RecordedBody>(std::move(body_));
}

} // namespace npusim::iron::recorded
