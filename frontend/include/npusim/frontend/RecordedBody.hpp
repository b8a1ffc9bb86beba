#pragma once
// A recorded worker body: the form a worker body written in another language (IRON's Python)
// takes once it has been traced, and a native interpreter that runs it as a Worker body.
//
// IRON itself traces a Python core body once to emit MLIR (python/iron/worker.py: the body is
// called with the fifo handles while an MLIR insertion point is active; range_ emits one scf.for).
// npusim's Python front door traces the body the same way, into this IR, and the simulator runs
// the recording natively: Python never runs inside a SystemC thread (CPython's interpreter state
// does not survive SystemC's coroutine switches). docs/python.md says why this form was chosen.
//
// The IR is a tree of statements over two register files: value registers (scalars: integers
// with an element type, or floats) and element registers (views of acquired objects or Buffers).
// Arguments are referred to by their index in the worker's argument lists (RecordedBodyArgs).
// Scalar work in the body costs what it costs a C++ body: each element load or store goes through
// Element::at, which charges core_element_access_cycles (TimingParams); the arithmetic between
// them issues in the same bundle and is not charged. E4's `c[i] = a[i] + b[i]` costs the same in
// its recording as in its C++ twin.
#include "npusim/frontend/Buffer.hpp"
#include "npusim/frontend/Kernel.hpp"
#include "npusim/frontend/Lock.hpp"
#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/Worker.hpp"
#include "npusim/frontend/WorkerRuntimeBarrier.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npusim::iron::recorded {

/// An operand: a value register or an immediate.
struct Operand {
    enum class Kind : std::uint8_t { Reg, Int, Float } kind = Kind::Int;
    int reg = -1;
    std::int64_t i = 0;
    double f = 0;
    static Operand r(int reg) { return {Kind::Reg, reg, 0, 0}; }
    static Operand imm(std::int64_t v) { return {Kind::Int, -1, v, 0}; }
    static Operand immf(double v) { return {Kind::Float, -1, 0, v}; }
};

enum class BinOp : std::uint8_t { Add, Sub, Mul, FloorDiv, Mod, TrueDiv, And, Or, Xor, Shl, Shr, Min, Max,
                                  Lt, Le, Gt, Ge, Eq, Ne };
/// "add", "sub", ... (the names the Python recorder uses); throws DesignError for an unknown name.
BinOp binop_from_name(const std::string& name);

/// One argument of a recorded kernel call.
struct KernelOperand {
    bool is_element = false;
    int elem = -1; ///< element register
    Operand scalar{};
};

struct Stmt {
    enum class Kind : std::uint8_t {
        Acquire, ///< elems[dst..dst+n) = fifos[arg].acquire(n)
        Release, ///< fifos[arg].release(n)
        Call, ///< kernels[arg](kargs...)
        Loop, ///< for regs[dst] in range(a, b, c): body (a, b, c integer operands)
        Load, ///< regs[dst] = elems[elem][a]
        Store, ///< elems[elem][a] = b
        Binary, ///< regs[dst] = a op b
        BufferView, ///< elems[dst] = buffers[arg].view()
        ElementView, ///< elems[dst] = view_types[arg] at byte n of elems[elem] (memref.view)
        BarrierWait, ///< barriers[arg].wait_for_value(n)
        BarrierRelease, ///< barriers[arg].release_with_value(n)
        Cycles, ///< add_cycles(n)
        If, ///< if a (nonzero): body, else: else_body (IRON's scf if_/else_; n is the block's id)
        LockAcquire, ///< locks[arg].acquire(n) (dst == 1: acquire_exact(n))
        LockRelease ///< locks[arg].release(n)
    } kind = Kind::Cycles;
    int arg = -1;
    int dst = -1;
    int elem = -1;
    std::int64_t n = 0;
    BinOp op = BinOp::Add;
    Operand a{}, b{}, c{};
    std::vector<KernelOperand> kargs;
    std::vector<Stmt> body; ///< Loop's body, If's then-block
    std::vector<Stmt> else_body; ///< If only
    bool has_else = false; ///< If only: an else_ block was recorded (it may be empty)
};

/// A whole recording: its statements and register counts.
struct RecordedBody {
    std::vector<Stmt> stmts;
    int value_regs = 0;
    int element_regs = 0;
    std::vector<TensorType> view_types; ///< the types of ElementView statements' views
    std::string name; ///< the body's name, for messages ("core_fn")
};

/// Builds a RecordedBody statement by statement, as a tracer meets the operations. Loops and
/// conditionals nest: loop_begin opens a loop whose body receives the statements up to the
/// matching loop_end; if_begin opens a then-block up to if_end; else_begin(id) reopens that If,
/// which must be the last statement recorded in the current block (IRON's `with else_(if_op)`
/// right after `with if_(...) as if_op`), for its else-block up to else_end.
class Builder {
public:
    explicit Builder(std::string name = {});
    int acquire(int fifo, int n); ///< returns the first of n element registers
    void release(int fifo, int n);
    void call(int kernel, std::vector<KernelOperand> args);
    int loop_begin(Operand start, Operand stop, Operand step); ///< returns the index register
    void loop_end();
    int if_begin(Operand cond); ///< returns the If's id, for else_begin
    void if_end();
    void else_begin(int if_id);
    void else_end();
    int load(int elem, Operand index);
    void store(int elem, Operand index, Operand value);
    int binary(BinOp op, Operand a, Operand b);
    int buffer_view(int buffer);
    /// A view of `type` at `byte_offset` into element register `elem` (the memref.view of IRON's
    /// Python helpers: a Buffer of weights sliced per layer); returns its element register. The
    /// view must lie inside the element (checked when the body runs).
    int element_view(int elem, std::int64_t byte_offset, TensorType type);
    void barrier_wait(int barrier, std::int64_t value);
    void barrier_release(int barrier, std::int64_t value);
    void cycles(std::int64_t n);
    void lock_acquire(int lock, std::int64_t value, bool exact);
    void lock_release(int lock, std::int64_t value);
    /// The recording; DesignError if a loop is still open.
    std::shared_ptr<const RecordedBody> finish();
    int depth() const { return static_cast<int>(open_.size()); }

private:
    std::vector<Stmt>& out();
    RecordedBody body_;
    std::vector<Stmt> open_; ///< loops and If blocks being recorded, outermost first
    std::vector<bool> open_else_; ///< per open_ entry: recording an If's else-block
    int ifs_ = 0; ///< If ids handed out
    void close(Stmt::Kind kind, bool else_block, const char* what);
};

/// What a recorded body's argument indices refer to.
struct RecordedBodyArgs {
    std::vector<ObjectFifoHandle> fifos;
    std::vector<Kernel> kernels;
    std::vector<Buffer> buffers;
    std::vector<WorkerRuntimeBarrier> barriers;
    std::vector<Lock> locks; ///< hand-written Locks (IRON Lock.acquire / release in a body)
};

/// Run `body` once (one iteration of a worker body) on `args`; used by make_worker and tests.
void run(const RecordedBody& body, const RecordedBodyArgs& args);

/// A Worker whose body interprets `body`. Its fifo handles, Buffers, barriers and Locks are registered as
/// a C++ Worker's fn_args would be (each kind in argument order).
Worker make_worker(std::shared_ptr<const RecordedBody> body, RecordedBodyArgs args, WorkerOptions opts = {});

} // namespace npusim::iron::recorded
