// The recorded-body interpreter (RecordedBody.hpp): runs one iteration of a recorded worker body
// through the same calls a C++ body makes (ObjectFifoHandle::acquire, Kernel::call_args,
// Element::at, range_, add_cycles), so the simulator, the resolve-time trace and the MLIR export
// see a recording exactly as they see a native body.
#include "npusim/frontend/ControlFlow.hpp"
#include "npusim/frontend/RecordedBody.hpp"

#include "npusim/model/CoreServices.hpp"
#include "npusim/model/Error.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace npusim::iron::recorded {

namespace {

/// A scalar in a value register: an integer with an element type (untyped: a Python int or a loop
/// index, kept in 64 bits) or a float.
struct Value {
    bool is_float = false;
    bool typed = false;
    DType dtype = DType::i32;
    std::int64_t i = 0;
    double f = 0;
    /// Computed from a value read from memory (a fifo element, a Buffer): during the resolve-time
    /// trace and the export that memory is zeroed scratch, so such a value says nothing yet.
    bool from_data = false;
    double as_double() const { return is_float ? f : static_cast<double>(i); }
    std::int64_t as_int() const { return is_float ? static_cast<std::int64_t>(f) : i; }
};

/// `v` wrapped to the width of integer type `t`, as the core's integer registers hold it.
std::int64_t wrap(std::int64_t v, DType t) {
    switch (t) {
    case DType::i8: return static_cast<std::int8_t>(v);
    case DType::u8: return static_cast<std::uint8_t>(v);
    case DType::i16: return static_cast<std::int16_t>(v);
    case DType::u16: return static_cast<std::uint16_t>(v);
    case DType::i32: return static_cast<std::int32_t>(v);
    case DType::u32: return static_cast<std::uint32_t>(v);
    default: return v;
    }
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

class Interpreter {
public:
    Interpreter(const RecordedBody& body, const RecordedBodyArgs& args)
        : body_(body), args_(args), regs_(static_cast<std::size_t>(body.value_regs)),
          elems_(static_cast<std::size_t>(body.element_regs)) {}

    void run() {
        exec(body_.stmts);
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw DesignError("worker body '" + body_.name + "': " + what);
    }
    Value get(const Operand& o) const {
        Value v;
        switch (o.kind) {
        case Operand::Kind::Reg: return regs_.at(static_cast<std::size_t>(o.reg));
        case Operand::Kind::Int: v.i = o.i; return v;
        case Operand::Kind::Float: v.is_float = true; v.f = o.f; return v;
        }
        return v;
    }
    std::int64_t index(const Operand& o) const {
        const Value v = get(o);
        if (v.is_float) fail("an element index must be an integer, not a float");
        return v.i;
    }
    const Element& element(int reg) const {
        const Element& e = elems_.at(static_cast<std::size_t>(reg));
        return e;
    }

    // While a body is exported, each load and store is an at<T>(i) access the exporter records as
    // memref.load / memref.store, as it records a C++ body's (custom_dma's e.at<T>(i) = in.at<T>(i)):
    // the index register holds a plain integer there too, which the exporter's range_ tracing binds
    // to the loop's index (export/LoopIndex.hpp).
    template <class T>
    Value load_as(const Element& e, std::int64_t i) const {
        Value v;
        v.typed = true;
        v.dtype = dtype_of<T>();
        const T x = e.at<T>(i);
        if constexpr (std::is_same_v<T, bfloat16> || std::is_floating_point_v<T>) {
            v.is_float = true;
            v.f = static_cast<double>(static_cast<float>(x));
        } else {
            v.i = static_cast<std::int64_t>(x);
        }
        return v;
    }
    Value load(const Element& e, std::int64_t i) const {
        switch (e.type().dtype) {
        case DType::i8: return load_as<std::int8_t>(e, i);
        case DType::u8: return load_as<std::uint8_t>(e, i);
        case DType::i16: return load_as<std::int16_t>(e, i);
        case DType::u16: return load_as<std::uint16_t>(e, i);
        case DType::i32: return load_as<std::int32_t>(e, i);
        case DType::u32: return load_as<std::uint32_t>(e, i);
        case DType::f32: return load_as<float>(e, i);
        case DType::bf16: return load_as<bfloat16>(e, i);
        case DType::bfp16ebs8: no_scalar_blocks(e); break;
        }
        return {};
    }
    template <class T>
    void store_as(const Element& e, std::int64_t i, const Value& v) const {
        if constexpr (std::is_same_v<T, bfloat16>)
            e.at<T>(i) = bfloat16(static_cast<float>(v.as_double()));
        else if constexpr (std::is_floating_point_v<T>)
            e.at<T>(i) = static_cast<T>(v.as_double());
        else
            e.at<T>(i) = static_cast<T>(v.is_float ? static_cast<std::int64_t>(v.f) : v.i); // wraps
    }
    void store(const Element& e, std::int64_t i, const Value& v) const {
        switch (e.type().dtype) {
        case DType::i8: return store_as<std::int8_t>(e, i, v);
        case DType::u8: return store_as<std::uint8_t>(e, i, v);
        case DType::i16: return store_as<std::int16_t>(e, i, v);
        case DType::u16: return store_as<std::uint16_t>(e, i, v);
        case DType::i32: return store_as<std::int32_t>(e, i, v);
        case DType::u32: return store_as<std::uint32_t>(e, i, v);
        case DType::f32: return store_as<float>(e, i, v);
        case DType::bf16: return store_as<bfloat16>(e, i, v);
        case DType::bfp16ebs8: no_scalar_blocks(e); break;
        }
    }
    // A block floating-point element is 8 values sharing an exponent: no scalar load or store.
    [[noreturn]] void no_scalar_blocks(const Element& e) const {
        fail(fmt::format("element of type {} read or written as a scalar: a v8bfp16ebs8 block (8 values sharing "
                         "one exponent) has no scalar value; convert it in a kernel",
                         e.type().str()));
    }

    Value binary(BinOp op, const Value& a, const Value& b) const {
        Value r;
        const bool cmp = op >= BinOp::Lt;
        if (a.is_float || b.is_float || op == BinOp::TrueDiv) {
            const double x = a.as_double(), y = b.as_double();
            double z = 0;
            switch (op) {
            case BinOp::Add: z = x + y; break;
            case BinOp::Sub: z = x - y; break;
            case BinOp::Mul: z = x * y; break;
            case BinOp::TrueDiv: z = x / y; break;
            case BinOp::FloorDiv: z = std::floor(x / y); break;
            case BinOp::Mod: z = x - std::floor(x / y) * y; break;
            case BinOp::Min: z = std::min(x, y); break;
            case BinOp::Max: z = std::max(x, y); break;
            case BinOp::Lt: r.i = x < y; return r;
            case BinOp::Le: r.i = x <= y; return r;
            case BinOp::Gt: r.i = x > y; return r;
            case BinOp::Ge: r.i = x >= y; return r;
            case BinOp::Eq: r.i = x == y; return r;
            case BinOp::Ne: r.i = x != y; return r;
            default: fail("a bitwise operation on a float value");
            }
            r.is_float = true;
            r.typed = a.is_float ? a.typed : b.typed;
            r.dtype = a.is_float && a.typed ? a.dtype : (b.typed ? b.dtype : DType::f32);
            r.f = z;
            return r;
        }
        const std::int64_t x = a.i, y = b.i;
        // Two's-complement arithmetic in 64 bits (unsigned, so overflow is defined), then wrapped to
        // the operands' element type below.
        const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
        std::int64_t z = 0;
        switch (op) {
        case BinOp::Add: z = static_cast<std::int64_t>(ux + uy); break;
        case BinOp::Sub: z = static_cast<std::int64_t>(ux - uy); break;
        case BinOp::Mul: z = static_cast<std::int64_t>(ux * uy); break;
        case BinOp::FloorDiv:
        case BinOp::Mod:
            if (y == 0) {
                // The resolve-time trace and the MLIR export run the body on zeroed scratch memory,
                // so a divisor read from the data is 0 there: not the design's fault. A divisor 0 whatever
                // the data is (a constant) still fails here, as before the run.
                const auto* svc = model::CoreServices::current();
                if (b.from_data && svc && svc->tracing()) break;
                fail("integer division by zero");
            }
            z = op == BinOp::FloorDiv ? floor_div(x, y) : x - floor_div(x, y) * y;
            break;
        case BinOp::And: z = x & y; break;
        case BinOp::Or: z = x | y; break;
        case BinOp::Xor: z = x ^ y; break;
        case BinOp::Shl: z = (y < 0 || y > 63) ? 0 : static_cast<std::int64_t>(ux << y); break;
        case BinOp::Shr: z = (y < 0 || y > 63) ? (x < 0 ? -1 : 0) : (x >> y); break;
        case BinOp::Min: z = std::min(x, y); break;
        case BinOp::Max: z = std::max(x, y); break;
        case BinOp::Lt: z = x < y; break;
        case BinOp::Le: z = x <= y; break;
        case BinOp::Gt: z = x > y; break;
        case BinOp::Ge: z = x >= y; break;
        case BinOp::Eq: z = x == y; break;
        case BinOp::Ne: z = x != y; break;
        default: break;
        }
        if (!cmp && (a.typed || b.typed)) {
            r.typed = true;
            r.dtype = a.typed ? a.dtype : b.dtype;
            z = wrap(z, r.dtype);
        }
        r.i = z;
        return r;
    }

    void call(const Stmt& s) {
        std::vector<KernelArg> kargs;
        kargs.reserve(s.kargs.size());
        for (const auto& k : s.kargs) {
            if (k.is_element) {
                kargs.push_back(Kernel::arg(element(k.elem)));
            } else {
                const Value v = get(k.scalar);
                kargs.push_back(v.is_float ? Kernel::arg(v.f) : Kernel::arg(v.i));
            }
        }
        args_.kernels.at(static_cast<std::size_t>(s.arg)).call_args(kargs);
    }

    void exec(const std::vector<Stmt>& stmts) {
        for (const Stmt& s : stmts) exec(s);
    }
    void exec(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Acquire: {
            const ElementGroup g = args_.fifos.at(static_cast<std::size_t>(s.arg)).acquire(static_cast<int>(s.n));
            for (std::size_t k = 0; k < g.size(); ++k) elems_.at(static_cast<std::size_t>(s.dst) + k) = g[k];
            return;
        }
        case Stmt::Kind::Release:
            args_.fifos.at(static_cast<std::size_t>(s.arg)).release(static_cast<int>(s.n));
            return;
        case Stmt::Kind::Call: call(s); return;
        case Stmt::Kind::Loop: {
            const Value a = get(s.a), b = get(s.b), c = get(s.c);
            if (a.is_float || b.is_float || c.is_float) fail("range_ bounds must be integers");
            range_(a.i, b.i, c.i, [&](std::int64_t i) {
                Value v;
                v.i = i;
                regs_[static_cast<std::size_t>(s.dst)] = v;
                exec(s.body);
            });
            return;
        }
        case Stmt::Kind::Load: {
            Value v = load(element(s.elem), index(s.a));
            v.from_data = true;
            regs_.at(static_cast<std::size_t>(s.dst)) = v;
            return;
        }
        case Stmt::Kind::Store:
            store(element(s.elem), index(s.a), get(s.b));
            return;
        case Stmt::Kind::Binary: {
            const Value a = get(s.a), b = get(s.b);
            Value r = binary(s.op, a, b);
            r.from_data = a.from_data || b.from_data;
            regs_.at(static_cast<std::size_t>(s.dst)) = r;
            return;
        }
        case Stmt::Kind::BufferView:
            elems_.at(static_cast<std::size_t>(s.dst)) = args_.buffers.at(static_cast<std::size_t>(s.arg)).view();
            return;
        case Stmt::Kind::ElementView: {
            const Element& src = element(s.elem);
            const TensorType& t = body_.view_types.at(static_cast<std::size_t>(s.arg));
            if (static_cast<std::uint64_t>(s.n) + t.bytes() > src.bytes())
                fail(fmt::format("a view of {} at byte {} of '{}' ({}) ends past it", t.str(), s.n, src.owner(),
                                 src.type().str()));
            elems_.at(static_cast<std::size_t>(s.dst)) = Element(src.data() + s.n, &t, &src.owner());
            return;
        }
        case Stmt::Kind::BarrierWait:
            args_.barriers.at(static_cast<std::size_t>(s.arg)).wait_for_value(static_cast<int>(s.n));
            return;
        case Stmt::Kind::BarrierRelease:
            args_.barriers.at(static_cast<std::size_t>(s.arg)).release_with_value(static_cast<int>(s.n));
            return;
        case Stmt::Kind::Cycles:
            if (s.n > 0) add_cycles(static_cast<std::uint64_t>(s.n));
            return;
        case Stmt::Kind::LockAcquire: {
            const Lock& l = args_.locks.at(static_cast<std::size_t>(s.arg));
            if (s.dst == 1) l.acquire_exact(static_cast<int>(s.n));
            else l.acquire(static_cast<int>(s.n));
            return;
        }
        case Stmt::Kind::LockRelease:
            args_.locks.at(static_cast<std::size_t>(s.arg)).release(static_cast<int>(s.n));
            return;
        case Stmt::Kind::If: {
            const Value c = get(s.a);
            exec((c.is_float ? c.f != 0.0 : c.i != 0) ? s.body : s.else_body);
            return;
        }
        }
    }

    const RecordedBody& body_;
    const RecordedBodyArgs& args_;
    std::vector<Value> regs_;
    std::vector<Element> elems_;
};

} // namespace

void run(const RecordedBody& body, const RecordedBodyArgs& args) { Interpreter(body, args).run(); }

Worker make_worker(std::shared_ptr<const RecordedBody> body, RecordedBodyArgs args, WorkerOptions opts) {
    auto shared = std::make_shared<const RecordedBodyArgs>(args);
    // The fifo handles, Buffers, barriers and Locks go through Worker's fn_args so they are registered as
    // a C++ body's arguments are; the body itself reads them from the shared argument lists.
    return Worker(
        [body = std::move(body), shared](const std::vector<ObjectFifoHandle>&, const std::vector<Buffer>&,
                                         const std::vector<WorkerRuntimeBarrier>&,
                                         const std::vector<Lock>&) { run(*body, *shared); },
        fn_args(std::move(args.fifos), std::move(args.buffers), std::move(args.barriers), std::move(args.locks)),
        std::move(opts));
}

} // namespace npusim::iron::recorded
