// scratchpad_multiply and scratchpad_offset: the two uses of a ScratchpadParameter, after mlir-aie's
// test/python/npu-xrt/scratchpad_params/aie_design.py and scratchpad_addr_offset/aie_design.py
// (both REQUIRES ryzen_ai_npu2: scratchpad parameters need the full-ELF flow, npu2 only).
//
// scratchpad_multiply: a worker (while_true=false) reads the bf16 parameters foo and bar, which the
// host sets per run, and writes foo * bar into element 0 of its one output object (bf16[2]: DMAs
// move at least 4 bytes). The sequence calls sync_parameters() and drains the output. Golden:
// out = [bf16(foo * bar), 0] (the host test checks element 0; element 1 is the buffer's zero here).
//
// scratchpad_offset: the host tensor is 0..31 (i32); the fill of fifo `in` moves 8 elements whose
// start is the host's parameter input_offset (an "addr" parameter: elements, times 4 bytes, added
// to the BD address when the task is configured); a worker copies the 8 elements to `out`.
// Golden: out = in[offset : offset + 8]. An offset past 24 runs the transfer off the tensor's end,
// which the simulation reports.
//
// The parameters' values are design parameters here (--param foo=3), given to the run as the
// host's scratchpad values: the netlist does not depend on them, exactly as one xclbin serves
// every value on the NPU.
#include "Design.hpp"

#include <fmt/format.h>

namespace npusim::examples {

using namespace npusim::iron;

namespace {

std::vector<std::string> aie2p_devices() {
    std::vector<std::string> v;
    for (const auto& d : model::all_devices())
        if (d.arch == model::Arch::AIE2P) v.push_back(d.name);
    return v;
}

DesignInstance build_multiply(const model::DeviceSpec& dev, std::int64_t foo, std::int64_t bar) {
    const auto out_ty = tensor<bfloat16>({2});
    ScratchpadParameter p_foo("foo", DType::bf16), p_bar("bar", DType::bf16);
    ObjectFifo of_out(out_ty, "objfifo_out");
    Worker w(
        [](ObjectFifoHandle out, ScratchpadParameter f, ScratchpadParameter b) {
            const bfloat16 vf = f.read<bfloat16>();
            const bfloat16 vb = b.read<bfloat16>();
            auto e = out.acquire(1);
            // arith.mulf on bf16: the product rounded to bf16 (round to nearest even).
            e.at<bfloat16>(0) = bfloat16(static_cast<float>(vf) * static_cast<float>(vb));
            out.release(1);
        },
        fn_args(of_out.prod(), p_foo, p_bar), {.while_true = false, .name = "multiply"});
    Runtime rt(
        [](RuntimeData o, ObjectFifoHandle out) {
            sync_parameters();
            out.drain(o, {.wait = true});
        },
        fn_args(out_ty, of_out.cons()));
    const auto bf_foo = bfloat16(static_cast<float>(foo)), bf_bar = bfloat16(static_cast<float>(bar));
    // Golden: numpy's float(foo) * float(bar) as bf16 (ml_dtypes rounds to nearest even).
    auto reference = [bf_foo, bf_bar](const Tensors&) {
        const double prod = static_cast<double>(static_cast<float>(bf_foo)) * static_cast<float>(bf_bar);
        return tensors("out", Tensor::from<bfloat16>({2}, {bfloat16(static_cast<float>(prod)), bfloat16(0.0f)}));
    };
    DesignInstance inst(Program(dev, rt, {w}, "scratchpad_multiply"), {ArgSpec::output("out", out_ty)}, {}, reference,
                        "scratchpad_multiply");
    inst.set_scratchpad("foo", bf_foo);
    inst.set_scratchpad("bar", bf_bar);
    return inst;
}

DesignInstance build_offset(const model::DeviceSpec& dev, std::int64_t offset) {
    const auto in_ty = tensor<std::int32_t>({32});
    const auto tile_ty = tensor<std::int32_t>({8});
    ScratchpadParameter input_offset("input_offset", DType::i32);
    ObjectFifo of_in(tile_ty, "objfifo_in"), of_out(tile_ty, "objfifo_out");
    Worker w(
        [](ObjectFifoHandle in, ObjectFifoHandle out) {
            auto ei = in.acquire(1);
            auto eo = out.acquire(1);
            for (std::int64_t i = 0; i < 8; ++i) eo.at<std::int32_t>(i) = ei.at<std::int32_t>(i);
            in.release(1);
            out.release(1);
        },
        fn_args(of_in.cons(), of_out.prod()), {.while_true = false, .name = "passthrough"});
    Runtime rt(
        [input_offset](RuntimeData a, RuntimeData c, ObjectFifoHandle in, ObjectFifoHandle out) {
            in.fill(
                a, {.tap = TensorAccessPattern({32}, 0, {1, 1, 1, 8}, {0, 0, 0, 1}), .offset_parameter = input_offset});
            out.drain(c, {.wait = true});
        },
        fn_args(in_ty, tile_ty, of_in.prod(), of_out.cons()));
    std::vector<std::int32_t> a(32);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::int32_t>(i); // iron.arange(32)
    auto reference = [offset](const Tensors& in) { // golden: in[offset : offset + 8]
        const auto x = get(in, "in").values<std::int32_t>();
        std::vector<std::int32_t> c(8);
        for (std::size_t i = 0; i < c.size(); ++i)
            c[i] = x.at(static_cast<std::size_t>(offset) + i < x.size() ? static_cast<std::size_t>(offset) + i : 0);
        return tensors("out", Tensor::from<std::int32_t>({8}, c));
    };
    DesignInstance inst(Program(dev, rt, {w}, "scratchpad_offset"),
                        {ArgSpec::input("in", in_ty), ArgSpec::output("out", tile_ty)},
                        tensors("in", Tensor::from(in_ty.shape, a)), reference, "scratchpad_offset");
    inst.set_scratchpad("input_offset", static_cast<std::int32_t>(offset));
    return inst;
}

} // namespace

DesignSpec make_scratchpad_multiply() {
    DesignSpec s;
    s.name = "scratchpad_multiply";
    s.description = "ScratchpadParameter (core): out[0] = foo * bar in bf16, both set by the host per run (npu2)";
    s.params = {{"foo", 3, "the host's value of parameter foo (bf16)"},
                {"bar", 4, "the host's value of parameter bar (bf16)"}};
    s.devices = aie2p_devices();
    s.kernels_note = "no kernel: the worker body multiplies the two parameters itself";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        return build_multiply(dev, p.at("foo"), p.at("bar"));
    };
    return s;
}

DesignSpec make_scratchpad_offset() {
    DesignSpec s;
    s.name = "scratchpad_offset";
    s.description = "ScratchpadParameter (addr): the host's input_offset moves the fill's start (npu2)";
    s.params = {{"offset", 8, "the host's input_offset, in elements (0..24 stays within the tensor)"}};
    s.devices = aie2p_devices();
    s.kernels_note = "no kernel: the worker body copies the 8 elements itself";
    s.build = [](const model::DeviceSpec& dev, const Params& p, const BuildOptions&) {
        if (p.at("offset") < 0)
            throw DesignError(
                fmt::format("design 'scratchpad_offset': offset={} must not be negative", p.at("offset")));
        return build_offset(dev, p.at("offset"));
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_scratchpad_multiply, 226);
NPUSIM_REGISTER_DESIGN(make_scratchpad_offset, 227);

} // namespace npusim::examples
