// IRON's algorithm templates, re-expressed from mlir-aie python/iron/algorithms/_transform.py
// (_transform_gen, _transform_parallel_gen, _check_num_channels, _make_fake_tensor), for_each.py
// (for_each, _for_each_real) and reduce.py (_reduce_gen). Error texts are upstream's ValueErrors,
// prefixed with the template's name.
#include "npusim/algorithms/Transform.hpp"

#include "npusim/frontend/ObjectFifo.hpp"
#include "npusim/frontend/Runtime.hpp"
#include "npusim/frontend/TensorAccessPattern.hpp"
#include "npusim/frontend/Worker.hpp"

#include <fmt/format.h>
#include <optional>
#include <utility>

namespace npusim::iron::algorithms::detail {

std::string fmt_function_error(const std::string& who, DType dtype, int arity) {
    return fmt::format("{}: the function cannot be applied to {} elements ({} argument{})", who,
                       model::dtype_name(dtype), arity, arity == 1 ? "" : "s");
}

namespace {

using Handles = std::vector<ObjectFifoHandle>;
using SeqBody = std::function<void(const std::vector<RuntimeData>&, const Handles&)>;

template <std::size_t>
using AsRuntimeData = RuntimeData;

template <std::size_t... I>
Runtime runtime_with(std::index_sequence<I...>, const std::vector<TensorType>& types, Handles handles, SeqBody body) {
    return Runtime([body = std::move(body)](AsRuntimeData<I>... d, Handles h) { body({d...}, h); },
                   fn_args(types[I]..., std::move(handles)));
}

// A Runtime whose sequence takes types.size() tensors (the design's inputs, output and tensor
// params, in IRON's order) and then every fifo handle the sequence drives.
constexpr std::size_t kMaxRuntimeTensors = 8;
Runtime make_runtime(const std::string& who, const std::vector<TensorType>& types, Handles handles, SeqBody body) {
    std::optional<Runtime> rt;
    [&]<std::size_t... N>(std::index_sequence<N...>) {
        ((types.size() == N ? (rt.emplace(runtime_with(std::make_index_sequence<N>{}, types, handles, body)), 0) : 0),
         ...);
    }
    (std::make_index_sequence<kMaxRuntimeTensors + 1>{});
    if (!rt)
        throw DesignError(fmt::format("{}: {} runtime tensors (inputs, output and tensor params); npusim's template "
                                      "takes at most {}",
                                      who, types.size(), kMaxRuntimeTensors));
    return std::move(*rt);
}

// Which params are tensors (a fifo each) and which scalars, by the kernel's arg_types after the
// inputs and the output (_transform_gen: param_arg_types = arg_types[num_inputs + 1:]).
struct SortedParams {
    std::vector<TensorType> tensor_types; ///< in order; fifo param{i} with i = the param's index
    std::vector<std::size_t> tensor_index; ///< the param index of each tensor param
    std::vector<KernelArg> scalars; ///< per param: the scalar's argument (unused for tensors)
    std::vector<bool> is_tensor;
};

SortedParams sort_params(const std::string& who, const Func& func, int num_inputs, const std::vector<Param>& params,
                         bool size_arg) {
    SortedParams s;
    const auto* k = std::get_if<Kernel>(&func);
    if (!k) {
        if (!params.empty())
            throw DesignError(
                fmt::format("{}: extra params are for a kernel; a callable takes only the elements", who));
        return s;
    }
    const auto& types = k->arg_types();
    const std::size_t expected = static_cast<std::size_t>(num_inputs) + 1 + params.size() + (size_arg ? 1 : 0);
    if (types.size() != expected)
        throw DesignError(fmt::format("{}: kernel '{}' declares {} arguments; the template calls it with {} ({} "
                                      "input tile{}, the output tile, {} param{}{})",
                                      who, k->name(), types.size(), expected, num_inputs, num_inputs == 1 ? "" : "s",
                                      params.size(), params.size() == 1 ? "" : "s", size_arg ? ", the tile size" : ""));
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto& at = types[static_cast<std::size_t>(num_inputs) + 1 + i];
        const bool tensor = std::holds_alternative<TensorType>(params[i]);
        if (at.is_tensor != tensor)
            throw DesignError(fmt::format("{}: param {} of kernel '{}' is declared {} but given a {}", who, i,
                                          k->name(), at.str(), tensor ? "tensor type" : "scalar"));
        s.is_tensor.push_back(tensor);
        if (tensor) {
            s.tensor_types.push_back(std::get<TensorType>(params[i]));
            s.tensor_index.push_back(i);
            s.scalars.emplace_back();
        } else if (const auto* iv = std::get_if<std::int64_t>(&params[i])) {
            s.scalars.push_back(Kernel::arg(*iv));
        } else {
            s.scalars.push_back(Kernel::arg(std::get<double>(params[i])));
        }
    }
    return s;
}

// IRON ExternalFunction.tile_size(): the first dimension of the first argument.
void check_tile_size(const std::string& who, const Func& func, std::int64_t tile_size) {
    const auto* k = std::get_if<Kernel>(&func);
    if (!k) return;
    const auto& types = k->arg_types();
    if (types.empty() || !types[0].is_tensor || types[0].tensor.shape.empty())
        throw DesignError(fmt::format("{}: Argument 0 of kernel '{}' does not have a shape or is not an array type.",
                                      who, k->name()));
    if (types[0].tensor.shape[0] != tile_size)
        throw DesignError(fmt::format("{}: tile_size ({}) does not match ExternalFunction's input/output shape in "
                                      "arg_type",
                                      who, tile_size));
}

// The core body of _transform_gen / _transform_parallel_gen: acquire the tensor params once, then per
// tile acquire every input and the output, apply, release.
std::function<void(Handles)> tile_loop(Func func, int num_inputs, std::int64_t tiles, std::int64_t tile_size,
                                       SortedParams params, bool size_arg) {
    return [=](Handles h) {
        // h = [*inputs, *tensor params, output]
        const auto ni = static_cast<std::size_t>(num_inputs);
        const std::size_t np = params.tensor_types.size();
        std::vector<ElementGroup> held;
        for (std::size_t p = 0; p < np; ++p) held.push_back(h[ni + p].acquire(1));
        for (std::int64_t t = 0; t < tiles; ++t) {
            std::vector<ElementGroup> ins;
            for (std::size_t i = 0; i < ni; ++i) ins.push_back(h[i].acquire(1));
            auto out = h[ni + np].acquire(1);
            if (const auto* k = std::get_if<Kernel>(&func)) {
                std::vector<KernelArg> args;
                for (const auto& e : ins) args.push_back(Kernel::arg(e.single()));
                args.push_back(Kernel::arg(out.single()));
                std::size_t next_tensor = 0;
                for (std::size_t p = 0; p < params.is_tensor.size(); ++p)
                    args.push_back(params.is_tensor[p] ? Kernel::arg(held[next_tensor++].single()) : params.scalars[p]);
                if (size_arg) args.push_back(Kernel::arg(tile_size));
                k->call_args(args);
            } else {
                std::vector<Element> elems;
                for (const auto& e : ins) elems.push_back(e.single());
                std::get<TileFn>(func)(elems, out.single());
            }
            for (std::size_t i = 0; i < ni; ++i) h[i].release(1);
            h[ni + np].release(1);
        }
        for (std::size_t p = 0; p < np; ++p) h[ni + p].release(1);
    };
}

void check_tiles(const std::string& who, std::int64_t elements, std::int64_t tile_size) {
    if (tile_size < 1 || elements % tile_size != 0)
        throw DesignError(
            fmt::format("{}: Number of elements ({}) must be a multiple of tile size ({})", who, elements, tile_size));
}

} // namespace

Program transform_gen(const model::DeviceSpec& dev, const std::string& who, Func func, int num_inputs,
                      const TensorType& tensor_ty, std::vector<Param> params, const TransformOptions& o) {
    check_tile_size(who, func, o.tile_size);
    const std::int64_t elements = tensor_ty.elements();
    check_tiles(who, elements, o.tile_size);
    const auto flat = TensorType{tensor_ty.dtype, {elements}};
    const auto tile_ty = TensorType{tensor_ty.dtype, {o.tile_size}};
    auto sorted = sort_params(who, func, num_inputs, params, /*size_arg=*/true);
    std::vector<ObjectFifo> ins;
    for (int i = 0; i < num_inputs; ++i) ins.emplace_back(tile_ty, fmt::format("in{}", i));
    std::vector<ObjectFifo> pars;
    for (std::size_t p = 0; p < sorted.tensor_types.size(); ++p)
        pars.emplace_back(sorted.tensor_types[p], fmt::format("param{}", sorted.tensor_index[p]));
    ObjectFifo out(tile_ty, "out");
    Handles worker_handles, seq_handles;
    for (auto& f : ins) worker_handles.push_back(f.cons());
    for (auto& f : pars) worker_handles.push_back(f.cons());
    worker_handles.push_back(out.prod());
    Worker w(tile_loop(std::move(func), num_inputs, elements / o.tile_size, o.tile_size, sorted, true),
             fn_args(std::move(worker_handles)), {.trace = o.trace_size > 0});
    // Runtime types [*inputs, output, *tensor params]; handles [*input prods, output cons, *param prods]
    std::vector<TensorType> types(static_cast<std::size_t>(num_inputs) + 1, flat);
    for (const auto& t : sorted.tensor_types) types.push_back(t);
    for (auto& f : ins) seq_handles.push_back(f.prod());
    seq_handles.push_back(out.cons());
    for (auto& f : pars) seq_handles.push_back(f.prod());
    const auto ni = static_cast<std::size_t>(num_inputs);
    Runtime rt =
        make_runtime(who, types, std::move(seq_handles), [ni](const std::vector<RuntimeData>& d, const Handles& h) {
            for (std::size_t i = 0; i < ni; ++i) h[i].fill(d[i]);
            for (std::size_t p = ni + 1; p < d.size(); ++p) h[p].fill(d[p]);
            h[ni].drain(d[ni], {.wait = true});
        });
    Program prog(dev, rt, {w}, who);
    if (o.trace_size > 0) prog.enable_trace(o.trace_size);
    return prog;
}

Program transform_parallel_gen(const model::DeviceSpec& dev, const std::string& who, Func func, int num_inputs,
                               const TensorType& tensor_ty, std::vector<Param> params,
                               const TransformParallelOptions& o) {
    if (o.num_channels != 1 && o.num_channels != 2)
        throw DesignError(fmt::format("{}: num_channels must be 1 or 2 (shim DMA has 2 channels per direction per "
                                      "column on AIE2 / AIE2p); got {}",
                                      who, o.num_channels));
    if (o.num_channels > 1 && !params.empty())
        throw DesignError(fmt::format(
            "{}: num_channels=2 is not supported together with shared *params; use num_channels=1 instead.", who));
    check_tile_size(who, func, o.tile_size);
    const std::int64_t elements = tensor_ty.elements();
    const std::int64_t cols = dev.cols, chans = o.num_channels;
    const std::int64_t n = o.tile_size * cols * chans;
    if (o.tile_size < 1 || elements % n != 0)
        throw DesignError(fmt::format("{}: Number of elements ({}) must be a multiple of tile_size × num_columns × "
                                      "num_channels ({} × {} × {} = {}).",
                                      who, elements, o.tile_size, cols, chans, n));
    const auto flat = TensorType{tensor_ty.dtype, {elements}};
    const auto tile_ty = TensorType{tensor_ty.dtype, {o.tile_size}};
    auto sorted = sort_params(who, func, num_inputs, params, o.pass_size_to_kernel);
    const auto ni = static_cast<std::size_t>(num_inputs);
    const auto paths = static_cast<std::size_t>(cols * chans);
    // fifos per (input, path) and per path; "in0_3" with one channel, "in0_3_1" with two
    std::vector<std::vector<ObjectFifo>> ins(ni);
    std::vector<ObjectFifo> outs;
    for (std::int64_t c = 0; c < cols; ++c)
        for (std::int64_t ch = 0; ch < chans; ++ch) {
            const std::string sfx = chans == 1 ? fmt::format("{}", c) : fmt::format("{}_{}", c, ch);
            for (std::size_t i = 0; i < ni; ++i) ins[i].emplace_back(tile_ty, fmt::format("in{}_{}", i, sfx));
            outs.emplace_back(tile_ty, "out_" + sfx);
        }
    std::vector<ObjectFifo> pars;
    for (std::size_t p = 0; p < sorted.tensor_types.size(); ++p)
        pars.emplace_back(sorted.tensor_types[p], fmt::format("param{}", sorted.tensor_index[p]));
    const std::int64_t per_path = elements / static_cast<std::int64_t>(paths);
    std::vector<Worker> workers;
    for (std::size_t w = 0; w < paths; ++w) {
        Handles h;
        for (std::size_t i = 0; i < ni; ++i) h.push_back(ins[i][w].cons());
        for (auto& f : pars) h.push_back(f.cons()); // shared by every worker (a broadcast)
        h.push_back(outs[w].prod());
        workers.emplace_back(
            tile_loop(func, num_inputs, per_path / o.tile_size, o.tile_size, sorted, o.pass_size_to_kernel),
            fn_args(std::move(h)), WorkerOptions{.trace = o.trace_size > 0});
    }
    std::vector<TensorType> types(ni + 1, flat);
    for (const auto& t : sorted.tensor_types) types.push_back(t);
    // handles: [input i of path w at i * paths + w, ..., output of path w, *param prods]
    Handles seq_handles;
    for (std::size_t i = 0; i < ni; ++i)
        for (std::size_t w = 0; w < paths; ++w) seq_handles.push_back(ins[i][w].prod());
    for (auto& f : outs) seq_handles.push_back(f.cons());
    for (auto& f : pars) seq_handles.push_back(f.prod());
    Runtime rt = make_runtime(who, types, std::move(seq_handles),
                              [ni, paths, per_path, elements](const std::vector<RuntimeData>& d, const Handles& h) {
                                  auto tap = [&](std::size_t w) {
                                      return TensorAccessPattern({1, elements}, per_path * static_cast<std::int64_t>(w),
                                                                 {1, 1, 1, per_path}, {0, 0, 0, 1});
                                  };
                                  TaskGroup tg_in;
                                  for (std::size_t w = 0; w < paths; ++w)
                                      for (std::size_t i = 0; i < ni; ++i)
                                          h[i * paths + w].fill(d[i], {.tap = tap(w), .group = &tg_in});
                                  tg_in.finish();
                                  const std::size_t first_param = ni * paths + paths;
                                  for (std::size_t p = ni + 1; p < d.size(); ++p)
                                      h[first_param + (p - ni - 1)].fill(d[p]);
                                  TaskGroup tg_out;
                                  for (std::size_t w = 0; w < paths; ++w)
                                      h[ni * paths + w].drain(d[ni], {.tap = tap(w), .wait = true, .group = &tg_out});
                                  tg_out.finish();
                              });
    Program prog(dev, rt, workers, who);
    if (o.trace_size > 0) prog.enable_trace(o.trace_size);
    return prog;
}

Program for_each_gen(const model::DeviceSpec& dev, Func func, const TensorType& tensor_ty, std::vector<Param> params,
                     std::int64_t tile_size) {
    const std::string who = "for_each";
    const std::int64_t elements = tensor_ty.elements();
    check_tiles(who, elements, tile_size);
    check_tile_size(who, func, tile_size);
    const auto flat = TensorType{tensor_ty.dtype, {elements}};
    const auto tile_ty = TensorType{tensor_ty.dtype, {tile_size}};
    auto sorted = sort_params(who, func, 1, params, true);
    ObjectFifo in(tile_ty, "in"), out(tile_ty, "out");
    std::vector<ObjectFifo> pars;
    for (std::size_t p = 0; p < sorted.tensor_types.size(); ++p)
        pars.emplace_back(sorted.tensor_types[p], fmt::format("param{}", sorted.tensor_index[p]));
    Handles wh{in.cons()};
    for (auto& f : pars) wh.push_back(f.cons());
    wh.push_back(out.prod());
    Worker w(tile_loop(std::move(func), 1, elements / tile_size, tile_size, sorted, true), fn_args(std::move(wh)));
    // Runtime types [tensor, *tensor params]; handles [in prod, out cons, *param prods]
    std::vector<TensorType> types{flat};
    for (const auto& t : sorted.tensor_types) types.push_back(t);
    Handles sh{in.prod(), out.cons()};
    for (auto& f : pars) sh.push_back(f.prod());
    Runtime rt = make_runtime(who, types, std::move(sh), [](const std::vector<RuntimeData>& d, const Handles& h) {
        h[0].fill(d[0]);
        for (std::size_t p = 1; p < d.size(); ++p) h[p + 1].fill(d[p]);
        h[1].drain(d[0], {.wait = true});
    });
    return Program(dev, rt, {w}, who);
}

} // namespace npusim::iron::algorithms::detail

namespace npusim::iron::algorithms {

Program reduce(const model::DeviceSpec& dev, const Kernel& func, const TensorType& input_ty,
               const TensorType& output_ty, std::uint64_t trace_size) {
    const auto& types = func.arg_types();
    if (types.size() != 3)
        throw DesignError(fmt::format("reduce: kernel '{}' declares {} arguments; reduce calls it with 3 (input, "
                                      "output, input elements)",
                                      func.name(), types.size()));
    ObjectFifo in(input_ty, "in"), out(output_ty, "out");
    const std::int64_t n = input_ty.elements();
    Worker w(
        [func, n](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto eo = o.acquire(1);
            auto ei = i.acquire(1);
            func(ei, eo, n);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod()), {.trace = trace_size > 0});
    Runtime rt(
        [](RuntimeData a, RuntimeData c, ObjectFifoHandle ih, ObjectFifoHandle oh) {
            ih.fill(a);
            oh.drain(c, {.wait = true});
        },
        fn_args(input_ty, output_ty, in.prod(), out.cons()));
    Program prog(dev, rt, {w}, "reduce");
    if (trace_size > 0) prog.enable_trace(trace_size);
    return prog;
}

} // namespace npusim::iron::algorithms
