#include "RandomDesign.hpp"

#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

namespace npusim::fuzz {

using namespace npusim::iron;

const char* fault_name(Fault f) {
    switch (f) {
    case Fault::None: return "none";
    case Fault::KernelThrows: return "kernel_throws";
    case Fault::KernelOverrun: return "kernel_overrun";
    case Fault::BodyOverAcquire: return "body_over_acquire";
    case Fault::BodyExtraRelease: return "body_extra_release";
    case Fault::BodyStopsEarly: return "body_stops_early";
    case Fault::FillFewer: return "fill_fewer";
    case Fault::DrainMore: return "drain_more";
    case Fault::NoDrainWait: return "no_drain_wait";
    case Fault::BadDepth: return "bad_depth";
    case Fault::RaggedTensor: return "ragged_tensor";
    }
    return "?";
}

std::vector<Fault> Plan::faults() const {
    std::vector<Fault> f;
    if (fault != Fault::None) f.push_back(fault);
    for (const auto& s : stages)
        if (s.fault != Fault::None) f.push_back(s.fault);
    return f;
}

std::int64_t Plan::tensor_elements() const { return n * k + (fault == Fault::RaggedTensor ? n / 2 : 0); }

std::string Plan::describe() const {
    std::string s =
        fmt::format("case {}: {} {} n={} k={} f0 depth {}", case_id, device, npusim::dtype_name(dtype), n, k, depth0);
    if (transpose_fill) s += fmt::format(", fill transposed [{}x{}]", rows, cols);
    if (transpose_drain) s += fmt::format(", drain transposed [{}x{}]", n, k);
    if (task_group) s += ", task group";
    if (broadcast) s += fmt::format(", broadcast +{}", broadcast_add);
    for (const auto& st : stages) {
        switch (st.kind) {
        case StagePlan::Kind::Worker:
            s += fmt::format(" | worker{}{} +{}", st.kernel ? " kernel" : " body", st.one_shot ? " one-shot" : "",
                             st.add.at(0));
            break;
        case StagePlan::Kind::Forward:
            s += st.transpose_objects ? " | mem-tile forward transposing" : " | mem-tile forward";
            break;
        case StagePlan::Kind::SplitJoin:
            s += fmt::format(" | split/join x{}{}", st.ways, st.kernel ? " kernels" : "");
            break;
        }
        s += fmt::format(" depth {}", st.depth);
        if (st.fault != Fault::None) s += fmt::format(" [fault {} {}]", fault_name(st.fault), st.fault_at);
    }
    if (fault != Fault::None) s += fmt::format(" [fault {}]", fault_name(fault));
    return s;
}

Plan make_plan(Entropy& e, std::uint64_t case_id) {
    static const std::vector<std::string> devices = {"npu1_1col", "npu1_2col", "npu1",
                                                     "npu2_1col", "npu2_4col", "npu2"};
    static const std::vector<DType> dtypes = {DType::u8, DType::i16, DType::i32};
    static const std::vector<std::int64_t> sizes = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
    Plan p;
    p.case_id = case_id;
    p.device = e.pick(devices);
    p.dtype = e.pick(dtypes);
    p.n = e.pick(sizes);
    const auto eb = static_cast<std::int64_t>(npusim::dtype_bytes(p.dtype));
    if (p.n * eb % 4 != 0) p.n *= 4; // whole 32-bit words per object
    p.k = e.range(1, 8);
    // Now and then a depth far above what fits (300): the toolchain's depth rule may shrink it to
    // what the workers acquire, so it may run, and then its data is checked like any other.
    p.depth0 = e.chance(5) ? 300 : static_cast<int>(e.range(1, 4));
    const int nstages = static_cast<int>(e.range(1, 3));
    for (int i = 0; i < nstages; ++i) {
        StagePlan s;
        const auto kind = e.below(10);
        s.kind = kind < 6 ? StagePlan::Kind::Worker : kind < 8 ? StagePlan::Kind::Forward : StagePlan::Kind::SplitJoin;
        if (s.kind == StagePlan::Kind::SplitJoin) {
            s.ways = static_cast<int>(e.range(2, 4));
            if (p.n % s.ways != 0 || (p.n / s.ways) * eb % 4 != 0) s.ways = 2;
            if (p.n % 2 != 0 || (p.n / 2) * eb % 4 != 0) s.kind = StagePlan::Kind::Worker, s.ways = 1;
        }
        if (s.kind != StagePlan::Kind::Forward)
            for (int w = 0; w < s.ways; ++w) s.add.push_back(static_cast<std::uint32_t>(e.next()));
        s.kernel = e.chance(50);
        s.one_shot = s.kind == StagePlan::Kind::Worker && e.chance(25);
        s.depth = static_cast<int>(e.range(1, 4));
        s.transpose_objects =
            s.kind == StagePlan::Kind::Forward && e.chance(40) && (p.dtype == DType::i32 || e.chance(10));
        p.stages.push_back(std::move(s));
    }
    const bool words = p.dtype == DType::i32; // a sub-word transpose is refused (innermost stride 1)
    if (e.chance(20) && (words || e.chance(20))) {
        p.transpose_fill = true;
        p.rows = p.k;
        p.cols = p.n;
    }
    p.transpose_drain = e.chance(15) && (words || e.chance(20));
    p.task_group = e.chance(25);
    if (e.chance(20)) {
        p.broadcast = true;
        p.broadcast_add = static_cast<std::uint32_t>(e.next());
    }
    if (e.chance(35)) {
        static const std::vector<Fault> faults = {
            Fault::KernelThrows,   Fault::KernelOverrun, Fault::BodyOverAcquire, Fault::BodyExtraRelease,
            Fault::BodyStopsEarly, Fault::FillFewer,     Fault::DrainMore,       Fault::NoDrainWait,
            Fault::BadDepth,       Fault::RaggedTensor};
        const Fault f = e.pick(faults);
        const bool stage_fault = f == Fault::KernelThrows || f == Fault::KernelOverrun || f == Fault::BodyOverAcquire ||
                                 f == Fault::BodyExtraRelease || f == Fault::BodyStopsEarly;
        std::vector<std::size_t> workers;
        for (std::size_t i = 0; i < p.stages.size(); ++i)
            if (p.stages[i].kind == StagePlan::Kind::Worker) workers.push_back(i);
        if (stage_fault && !workers.empty()) {
            auto& s = p.stages[e.pick(workers)];
            s.fault = f;
            if (f == Fault::KernelThrows || f == Fault::KernelOverrun) s.kernel = true;
            if (f == Fault::BodyStopsEarly) s.one_shot = true;
            s.fault_at =
                f == Fault::KernelThrows ? static_cast<int>(e.range(1, p.k)) : static_cast<int>(e.range(1, 64));
        } else if (!stage_fault) {
            p.fault = f;
        }
    }
    return p;
}

namespace {

// Element arithmetic on raw little-endian bytes, wrapping at the element's width.
void add_elements(const std::uint8_t* in, std::uint8_t* out, std::int64_t elements, std::size_t eb, std::uint32_t c) {
    for (std::int64_t i = 0; i < elements; ++i) {
        std::uint32_t v = 0;
        std::memcpy(&v, in + static_cast<std::size_t>(i) * eb, eb);
        v += c;
        std::memcpy(out + static_cast<std::size_t>(i) * eb, &v, eb);
    }
}

struct KernelFault {
    Fault fault = Fault::None;
    int at = 0;
};

// fuzz_add(in, out, n, c): out[i] = in[i] + c for n elements, with a fault when asked.
Kernel add_kernel(const TensorType& ty, KernelFault f) {
    auto calls = std::make_shared<int>(0);
    const auto eb = npusim::dtype_bytes(ty.dtype);
    auto invoke = [eb, f, calls](std::span<const KernelArg> a) {
        ++*calls;
        if (f.fault == Fault::KernelThrows && *calls == f.at)
            throw std::runtime_error(fmt::format("injected fault on call {}", *calls));
        const auto n = a[2].ivalue;
        const auto* in = reinterpret_cast<const std::uint8_t*>(a[0].data);
        auto* out = reinterpret_cast<std::uint8_t*>(a[1].data);
        add_elements(in, out, n, eb, static_cast<std::uint32_t>(a[3].ivalue));
        if (f.fault == Fault::KernelOverrun)
            for (int i = 0; i < f.at; ++i) out[static_cast<std::size_t>(n) * eb + static_cast<std::size_t>(i)] ^= 0x5a;
    };
    return Kernel("fuzz_add", invoke, {ty, ty, scalar<std::int32_t>(), scalar<std::int32_t>()},
                  [eb](std::span<const KernelArg> a) { return 16 + static_cast<std::uint64_t>(a[2].ivalue) * eb / 4; });
}

struct BodyPlan {
    TensorType ty;
    std::uint32_t add = 0;
    bool kernel = false;
    std::int64_t iterations = 1; ///< objects per body run
    int acquire = 1;
    int release = 1;
    KernelFault kfault;
};

Worker make_worker(const BodyPlan& b, ObjectFifoHandle in, ObjectFifoHandle out, bool one_shot,
                   const std::string& name) {
    std::optional<Kernel> kern;
    if (b.kernel) kern = add_kernel(b.ty, b.kfault);
    const auto eb = npusim::dtype_bytes(b.ty.dtype);
    auto body = [b, kern, eb](ObjectFifoHandle i, ObjectFifoHandle o) {
        for (std::int64_t t = 0; t < b.iterations; ++t) {
            auto ei = i.acquire(b.acquire);
            auto eo = o.acquire(1);
            const Element& src = ei[0];
            if (kern)
                (*kern)(src, eo, static_cast<std::int32_t>(b.ty.elements()), static_cast<std::int32_t>(b.add));
            else
                add_elements(reinterpret_cast<const std::uint8_t*>(src.data()),
                             reinterpret_cast<std::uint8_t*>(eo.data()), b.ty.elements(), eb, b.add);
            i.release(b.release);
            o.release(1);
        }
    };
    return Worker(body, fn_args(in, out), {.while_true = !one_shot, .name = name});
}

} // namespace

std::vector<std::vector<std::uint8_t>> expected_outputs(const Plan& p, const std::vector<std::uint8_t>& input) {
    const auto eb = npusim::dtype_bytes(p.dtype);
    const std::int64_t total = p.n * p.k;
    std::vector<std::uint8_t> s(static_cast<std::size_t>(total) * eb);
    if (p.transpose_fill) {
        for (std::int64_t r = 0; r < p.rows; ++r)
            for (std::int64_t c = 0; c < p.cols; ++c)
                std::memcpy(&s[static_cast<std::size_t>(c * p.rows + r) * eb],
                            &input[static_cast<std::size_t>(r * p.cols + c) * eb], eb);
    } else {
        std::memcpy(s.data(), input.data(), s.size());
    }
    std::vector<std::uint8_t> out2(s.size());
    if (p.broadcast) add_elements(s.data(), out2.data(), total, eb, p.broadcast_add);
    for (const auto& st : p.stages) {
        if (st.kind == StagePlan::Kind::Forward) {
            if (!st.transpose_objects) continue;
            // each object [2, n/2] read column by column: out[c*2 + r] = in[r*(n/2) + c]
            const std::int64_t b = p.n / 2;
            std::vector<std::uint8_t> t(s.size());
            for (std::int64_t o = 0; o < p.k; ++o)
                for (std::int64_t r = 0; r < 2; ++r)
                    for (std::int64_t c = 0; c < b; ++c)
                        std::memcpy(&t[static_cast<std::size_t>(o * p.n + c * 2 + r) * eb],
                                    &s[static_cast<std::size_t>(o * p.n + r * b + c) * eb], eb);
            s = std::move(t);
            continue;
        }
        const std::int64_t part = p.n / st.ways;
        for (std::int64_t i = 0; i < total; ++i) {
            const auto branch = static_cast<std::size_t>((i % p.n) / part);
            auto* x = &s[static_cast<std::size_t>(i) * eb];
            add_elements(x, x, 1, eb, st.add.at(branch));
        }
    }
    if (p.transpose_drain) {
        // stream element c*n + r lands at r*k + c
        std::vector<std::uint8_t> t(s.size());
        for (std::int64_t c = 0; c < p.k; ++c)
            for (std::int64_t r = 0; r < p.n; ++r)
                std::memcpy(&t[static_cast<std::size_t>(r * p.k + c) * eb],
                            &s[static_cast<std::size_t>(c * p.n + r) * eb], eb);
        s = std::move(t);
    }
    return {std::move(s), std::move(out2)};
}

BuiltDesign build_design(const Plan& p, std::uint64_t seed) {
    const auto eb = npusim::dtype_bytes(p.dtype);
    const TensorType obj_ty{p.dtype, {p.n}};
    const std::int64_t elems = p.tensor_elements();
    const TensorType in_ty{p.dtype, {elems}};
    const TensorType out_ty{p.dtype, {p.fault == Fault::DrainMore ? elems + p.n : elems}};
    const int depth0 = p.fault == Fault::BadDepth ? 0 : p.depth0;

    std::vector<Worker> workers;
    ObjectFifo f0(obj_ty, "f0", depth0);
    ObjectFifo cur = f0;
    for (std::size_t si = 0; si < p.stages.size(); ++si) {
        const auto& st = p.stages[si];
        const std::string next_name = fmt::format("f{}", si + 1);
        switch (st.kind) {
        case StagePlan::Kind::Forward: {
            ForwardOptions fo;
            fo.depth = st.depth;
            fo.name = next_name;
            if (st.transpose_objects) fo.dims_to_stream = {{p.n / 2, 1}, {2, p.n / 2}};
            cur = cur.cons().forward(fo);
            break;
        }
        case StagePlan::Kind::Worker: {
            ObjectFifo next(obj_ty, next_name, st.depth);
            BodyPlan b;
            b.ty = obj_ty;
            b.add = st.add.at(0);
            b.kernel = st.kernel;
            b.iterations = st.one_shot ? p.k - (st.fault == Fault::BodyStopsEarly ? 1 : 0) : 1;
            b.acquire = st.fault == Fault::BodyOverAcquire ? cur.depth() + 1 : 1;
            b.release = st.fault == Fault::BodyExtraRelease ? 2 : b.acquire;
            b.kfault = {st.fault, st.fault_at};
            workers.push_back(make_worker(b, cur.cons(), next.prod(), st.one_shot, fmt::format("w{}", si)));
            cur = next;
            break;
        }
        case StagePlan::Kind::SplitJoin: {
            const std::int64_t part = p.n / st.ways;
            const TensorType part_ty{p.dtype, {part}};
            std::vector<std::int64_t> offsets;
            std::vector<std::string> in_names, out_names;
            for (int w = 0; w < st.ways; ++w) {
                offsets.push_back(part * w);
                in_names.push_back(fmt::format("s{}_in{}", si, w));
                out_names.push_back(fmt::format("s{}_out{}", si, w));
            }
            const std::vector<int> depths(static_cast<std::size_t>(st.ways), st.depth);
            const std::vector<TensorType> types(static_cast<std::size_t>(st.ways), part_ty);
            auto parts_in = cur.cons().split(offsets, {.depths = depths, .obj_types = types, .names = in_names});
            ObjectFifo next(obj_ty, next_name, st.depth);
            auto parts_out = next.prod().join(offsets, {.depths = depths, .obj_types = types, .names = out_names});
            for (int w = 0; w < st.ways; ++w) {
                BodyPlan b;
                b.ty = part_ty;
                b.add = st.add.at(static_cast<std::size_t>(w));
                b.kernel = st.kernel;
                workers.push_back(make_worker(b, parts_in[static_cast<std::size_t>(w)].cons(),
                                              parts_out[static_cast<std::size_t>(w)].prod(), false,
                                              fmt::format("w{}_{}", si, w)));
            }
            cur = next;
            break;
        }
        }
    }
    std::optional<ObjectFifo> out2;
    if (p.broadcast) {
        out2.emplace(obj_ty, "bcast_out", 2);
        BodyPlan b;
        b.ty = obj_ty;
        b.add = p.broadcast_add;
        workers.push_back(make_worker(b, f0.cons(), out2->prod(), false, "bcast"));
    }
    const ObjectFifo last = cur;
    std::vector<ObjectFifoHandle> handles = {f0.prod(), last.cons()};
    if (out2) handles.push_back(out2->cons());
    const Plan plan = p;
    Runtime rt(
        [plan, elems](RuntimeData a, RuntimeData b, RuntimeData c, std::vector<ObjectFifoHandle> h) {
            std::optional<TaskGroup> tg;
            if (plan.task_group) tg.emplace();
            TransferOptions fill;
            fill.group = tg ? &*tg : nullptr;
            if (plan.fault == Fault::FillFewer)
                fill.tap = TensorAccessPattern({elems}, 0, {(plan.k - 1) * plan.n}, {1});
            else if (plan.transpose_fill)
                fill.tap = TensorAccessPattern({elems}, 0, {plan.cols, plan.rows}, {1, plan.cols});
            h[0].fill(a, fill);
            TransferOptions drain;
            drain.group = fill.group;
            drain.wait = plan.fault != Fault::NoDrainWait;
            if (plan.transpose_drain && plan.fault != Fault::DrainMore)
                drain.tap = TensorAccessPattern({elems}, 0, {plan.k, plan.n}, {1, plan.k});
            if (h.size() > 2) {
                TransferOptions d2 = drain;
                d2.tap.reset(); // the broadcast output is drained linearly
                h[2].drain(c, d2);
            }
            h[1].drain(b, drain);
            if (tg) tg->finish();
        },
        fn_args(in_ty, out_ty, TensorType{p.dtype, {elems}}, handles));

    BuiltDesign d;
    d.program.emplace(p.device, rt, workers, fmt::format("fuzz_{}", p.case_id));
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> input(in_ty.bytes());
    for (auto& x : input) x = static_cast<std::uint8_t>(rng());
    d.host = {input, std::vector<std::uint8_t>(out_ty.bytes()), std::vector<std::uint8_t>(in_ty.bytes())};
    d.expected.assign(3, std::nullopt);
    if (p.well_formed()) {
        auto outs = expected_outputs(p, input);
        d.expected[0] = input; // the input is left as it was
        d.expected[1] = std::move(outs[0]);
        d.expected[2] = std::move(outs[1]); // zeros without a broadcast: nothing may write it
    }
    (void)eb;
    return d;
}

} // namespace npusim::fuzz
