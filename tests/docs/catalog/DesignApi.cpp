// The design-building API: ObjectFifo, links, Worker, Kernel, Buffer, Element views, the runtime
// sequence (fill, drain, TaskGroup, Task) and TensorAccessPattern.
#include "Designs.hpp"
#include "npusim/algorithms/Transform.hpp"
#include "npusim/frontend/ExternalFunction.hpp"
#include "npusim/harness/KernelCompiler.hpp"

#include <cstdlib>

#include <fstream>
#include <memory>
#include <optional>

namespace npusim::errcat {

namespace alg = npusim::iron::algorithms;

namespace {
// Fixtures of the algorithms entries (NPUSIM_ERROR's trigger lambdas capture nothing).
const model::DeviceSpec& alg_dev() { return model::device_by_name("npu1_1col"); }
constexpr auto inc = [](auto x) { return x + 1; };
Kernel alg_kernel() {
    return Kernel(
        "add_scalar", [](std::span<const KernelArg>) {},
        {i32(16), i32(16), scalar<std::int32_t>(), scalar<std::int32_t>()}, cost::fixed(1));
}
// A build of 'catalog_ext(int32_t* in, int32_t* out, int32_t n)' from catalog_ext.cc with -DN=4, as
// npusim_add_external_function registers one (the function does nothing).
void catalog_ext(std::int32_t*, std::int32_t*, std::int32_t) {}
const bool catalog_ext_registered = register_external_function(
    {"catalog_ext", "/catalog/catalog_ext.cc", {"-DN=4"}, {}, external_params(&catalog_ext), [] {
         return external_invoker(&catalog_ext);
     }});
void catalog_ext_none() {}
const bool catalog_ext_none_registered = register_external_function(
    {"catalog_ext_none", "/catalog/catalog_ext.cc", {"-DN=4"}, {}, external_params(&catalog_ext_none), [] {
         return external_invoker(&catalog_ext_none);
     }});
// Run `f` as a program without the run-time kernel compiler would (frontend only).
template <class F>
void without_runtime_compiler(F f) {
    const auto saved = set_external_compiler({});
    try {
        f();
    } catch (...) {
        set_external_compiler(saved);
        throw;
    }
    set_external_compiler(saved);
}
// Run `f` with the environment variable `name` set to `value`.
template <class F>
void with_env(const char* name, const std::string& value, F f) {
    const char* old = std::getenv(name);
    const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv(name, value.c_str(), 1);
    const auto restore = [&] { saved ? ::setenv(name, saved->c_str(), 1) : ::unsetenv(name); };
    try {
        f();
    } catch (...) {
        restore();
        throw;
    }
    restore();
}
std::vector<ArgType> ext_types() { return {i32(256), i32(256), scalar<std::int32_t>()}; }
ExternalFunctionOptions catalog_ext_build() { return {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=4"}}; }
// The catalog's passthrough with the body calling catalog_ext on i32[256] objects as `call` does.
void call_catalog_ext(std::vector<ArgType> types,
                      std::function<void(const ExternalFunction&, const ElementGroup&, const ElementGroup&)> call) {
    ExternalFunction f("catalog_ext", std::move(types), catalog_ext_build());
    resolve(passthrough({.body = [f, call](F in, F out) {
        auto a = in.acquire(1);
        auto b = out.acquire(1);
        call(f, a, b);
        in.release(1);
        out.release(1);
    }}));
}
} // namespace

void add_design_api(Catalog& c) {
    c.component("ObjectFifo", "Building a fifo and its handles (`frontend/src/ObjectFifo.cpp`).");
    c.site("frontend/src/ObjectFifo.cpp");
    NPUSIM_ERROR(c, "fifo.name_missing", kDesign,
                 "ObjectFifo: the name is empty; give a name or none (IRON then generates of0, of1, ...)",
                 ObjectFifo(i32(16), ""));
    NPUSIM_ERROR(c, "fifo.depth", kDesign, "fifo 'f': depth 0 must be >= 1", ObjectFifo(i32(16), "f", 0));
    NPUSIM_ERROR(c, "fifo.no_elements", kDesign, "fifo 'f': object type i32[0] has no elements",
                 ObjectFifo(tensor<std::int32_t>({0}), "f"));
    NPUSIM_ERROR(c, "fifo.dims_twice", kDesign, "fifo 'f': give dims_to_stream or to_stream, not both",
                 ObjectFifo(i32(16), "f", 2, {.dims_to_stream = {{16, 1}}, .to_stream = {{16, 1}}}));
    NPUSIM_ERROR(c, "fifo.repeat_count", kDesign, "fifo 'f': repeat_count 0 must be >= 1",
                 ObjectFifo(i32(16), "f", 2, {.repeat_count = 0}));
    NPUSIM_ERROR(c, "fifo.init_value_size", kDesign,
                 "fifo 'f': init_values[0] has 8 B, the object type i32[16] has 64 B",
                 ObjectFifo(i32(16), "f", 2, {.init_values = {std::vector<std::uint8_t>(8)}}));
    NPUSIM_ERROR(c, "fifo.consumer_obj_type", kDesign,
                 "fifo 'f': consumer_obj_type i32[5] must have the element type of i32[16] and divide its element "
                 "count",
                 ObjectFifo(i32(16), "f", 2, {.consumer_obj_type = i32(5)}));
    NPUSIM_ERROR(c, "fifo.iter_count", kDesign, "fifo 'f': set_iter_count(0) must be within 1..256",
                 ObjectFifo(i32(16), "f").set_iter_count(0));
    NPUSIM_ERROR(c, "fifo.producer_depth", kDesign, "fifo 'f': producer depth 0 must be >= 1",
                 ObjectFifo(i32(16), "f").prod(0));
    NPUSIM_ERROR(c, "fifo.producer_depth_twice", kDesign, "fifo 'f': producer depth already set to 2",
                 ObjectFifo f(i32(16), "f");
                 f.prod(2); f.prod(3));
    NPUSIM_ERROR(c, "fifo.producer_pinned_twice", kDesign, "fifo 'f': producer already pinned to Tile(0,0)",
                 ObjectFifo f(i32(16), "f");
                 f.prod({.tile = Tile(0, 0)}); f.prod({.tile = Tile(1, 0)}));
    NPUSIM_ERROR(c, "fifo.channel_negative", kDesign, "fifo 'f': consumer DMA channel -1 must be >= 0",
                 ObjectFifo(i32(16), "f").cons({.channel = -1}));
    NPUSIM_ERROR(c, "fifo.producer_channel_repin", kDesign,
                 "fifo 'f': producer already pinned to DMA channel 0, cannot re-pin to 1", ObjectFifo f(i32(16), "f");
                 f.prod({.channel = 0}); f.prod({.channel = 1}));
    NPUSIM_ERROR(c, "fifo.port_dma_and_channel", kDesign,
                 "fifo 'f': producer given channel 0 and Port::dma(1); give one",
                 ObjectFifo(i32(16), "f").prod({.channel = 0, .port = Port::dma(1)}));
    NPUSIM_ERROR(c, "fifo.stream_port_move", kDesign, "fifo 'f': producer already on stream port 0, cannot move to 1",
                 ObjectFifo f(i32(16), "f");
                 f.prod({.port = Port::stream(0)}); f.prod({.port = Port::stream(1)}));
    NPUSIM_ERROR(
        c, "fifo.stream_port_acquire", kDesign,
        "worker 'w': acquire(1) on fifo 'out' producer: 'aie.objectfifo.acquire' op cannot acquire from "
        "objectfifo stream port (this end is Port::stream(0); its kernel moves words with put_ms / get_ss)",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        Worker w([](F, F o) { o.acquire(1); }, fn_args(in.cons(), out.prod({.port = Port::stream(0)})), {.name = "w"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(
        c, "fifo.stream_port_release", kDesign,
        "worker 'w': release(1) on fifo 'in' consumer 0: 'aie.objectfifo.release' op cannot release from "
        "objectfifo stream port (this end is Port::stream(0); its kernel moves words with put_ms / get_ss)",
        ObjectFifo in(i32(16), "in"), out(i32(16), "out");
        Worker w([](F i, F) { i.release(1); }, fn_args(in.cons({.port = Port::stream(0)}), out.prod()), {.name = "w"});
        resolve(Program("npu1_1col", Runtime(fill_drain, fn_args(i32(16), i32(16), in.prod(), out.cons())), {w})));
    NPUSIM_ERROR(c, "fifo.consumer_depth", kDesign, "fifo 'f': consumer depth 0 must be >= 1",
                 ObjectFifo(i32(16), "f").cons(0));
    NPUSIM_ERROR(c, "fifo.endpoint_on_consumer", kDesign,
                 "fifo 'f' consumer 0: set_endpoint() on a consumer handle; a mem-tile endpoint produces the fifo's "
                 "init_values",
                 ObjectFifo(i32(16), "f").cons().set_endpoint(AnyMemTile));
    NPUSIM_ERROR(c, "fifo.endpoint_not_mem_tile", kDesign,
                 "fifo 'f' producer: set_endpoint(AnyComputeTile) needs a mem tile (AnyMemTile or a tile on the "
                 "mem-tile row)",
                 ObjectFifo(i32(16), "f").prod().set_endpoint(AnyComputeTile));
    NPUSIM_ERROR(c, "fifo.endpoint_handle_used", kDesign,
                 "fifo 'f' producer: set_endpoint() on a handle already used by a worker, the Runtime or a link",
                 ObjectFifo f(i32(16), "f");
                 Worker w([](F) {}, fn_args(f.prod())); f.prod().set_endpoint(AnyMemTile));
    NPUSIM_ERROR(c, "fifo.empty_handle", kDesign,
                 "ObjectFifoHandle::acquire() on an empty handle (default-constructed); get handles from a fifo's "
                 "prod() or cons()",
                 F().acquire(1));
    NPUSIM_ERROR(c, "fifo.acquire_outside_body", kDesign, "fifo 'f' consumer 0: acquire() called outside a worker body",
                 ObjectFifo(i32(16), "f").cons().acquire(1));
    NPUSIM_ERROR(c, "fifo.acquire_count", kDesign,
                 "worker 'w': acquire(0) on fifo 'in' consumer 0: the count must be >= 1",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(0); }})));
    NPUSIM_ERROR(c, "fifo.release_outside_body", kDesign, "fifo 'f' consumer 0: release() called outside a worker body",
                 ObjectFifo(i32(16), "f").cons().release(1));
    NPUSIM_ERROR(c, "fifo.release_count", kDesign,
                 "worker 'w': release(0) on fifo 'in' consumer 0: the count must be >= 1",
                 resolve(passthrough({.body = [](F in, F) { in.release(0); }})));

    c.component("Links: forward, split and join",
                "forward(), split() and join() of a fifo handle (`frontend/src/ObjectFifoLink.cpp`).");
    c.site("frontend/src/ObjectFifoLink.cpp");
    NPUSIM_ERROR(
        c, "link.forward_dims_twice", kDesign,
        "fifo 'f': forward() takes dims_to_stream or to_stream (and dims_from_stream or from_stream), not both",
        ObjectFifo(i32(16), "f").cons().forward({.dims_to_stream = {{16, 1}}, .to_stream = {{16, 1}}}));
    NPUSIM_ERROR(c, "link.handle_role", kDesign, "fifo 'f': split() is only available on consumer handles",
                 ObjectFifo(i32(16), "f").prod().split({0, 8}));
    NPUSIM_ERROR(c, "link.handle_used", kDesign,
                 "fifo 'f' consumer 0: this handle is already used elsewhere; split() needs a fresh handle",
                 ObjectFifo f(i32(16), "f");
                 auto h = f.cons(); Worker w([](F) {}, fn_args(h)); h.split({0, 8}));
    NPUSIM_ERROR(c, "link.shim_tile", kDesign, "fifo 'f': split() cannot use a shim tile as link tile",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.tile = AnyShimTile}));
    NPUSIM_ERROR(c, "link.dims_twice", kDesign,
                 "fifo 'f': split() takes dims_to_stream or to_stream (and dims_from_stream or from_stream), not both",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.dims_to_stream = {{}, {}}, .to_stream = {{}, {}}}));
    NPUSIM_ERROR(c, "link.no_offsets", kDesign, "fifo 'f': split() needs at least one offset",
                 ObjectFifo(i32(16), "f").cons().split({}));
    NPUSIM_ERROR(c, "link.list_length", kDesign, "fifo 'f': split() depths has 1 entries for 2 sub-fifos",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.depths = {2}}));
    NPUSIM_ERROR(c, "link.offset_outside", kDesign,
                 "fifo 'f': split() offset 16 of sub-fifo 1 is outside the parent object of 16 elements",
                 ObjectFifo(i32(16), "f").cons().split({0, 16}));
    NPUSIM_ERROR(c, "link.offsets_increase", kDesign,
                 "fifo 'f': split() offsets must increase: sub-fifos 0 and 1 overlap (offset 8 then 0)",
                 ObjectFifo(i32(16), "f").cons().split({8, 0}));
    NPUSIM_ERROR(c, "link.obj_type_dtype", kDesign,
                 "fifo 'f': split() obj_types[1] i16[8] has another element type than i32[16]",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.obj_types = {i32(8), tensor<std::int16_t>({8})}}));
    NPUSIM_ERROR(c, "link.obj_type_segment", kDesign,
                 "fifo 'f_split1': object of 4 elements but split offsets give segment [8,16) of 8 elements; the mem "
                 "tile moves the segment (AIEDialect.cpp getDistributeTransferLengths), so the sizes must agree",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.obj_types = {i32(8), i32(4)}}));
    NPUSIM_ERROR(c, "link.layout_out_of_bounds", kDesign,
                 "fifo 'f': split(): specified input stride(s) and size(s) result in out of bounds access in "
                 "distribute output, for index 15 in transfer of length 8.",
                 ObjectFifo(i32(16), "f").cons({.dims_from_stream = {{2, 8}, {8, 1}}}).split({0, 8}));
    NPUSIM_ERROR(c, "link.split_repeat_counts", kDesign,
                 "fifo 'f': split(): repeat counts of output object FIFOs must be equal",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.repeat_counts = {2, 3}}));
    NPUSIM_ERROR(c, "link.join_output_repeat", kDesign,
                 "fifo 'f': repeat_count 2 on the output of a join is not lowered by the toolchain "
                 "(AIEObjectFifoStatefulTransform createMemTileDMA indexes the join offsets by repeat); put "
                 "repeat_counts on the join's inputs instead",
                 ObjectFifo(i32(16), "f", 2, {.repeat_count = 2}).prod().join({0, 8}));

    c.component("Worker", "Building a Worker (`frontend/src/Worker.cpp`).");
    c.site("frontend/src/Worker.cpp");
    NPUSIM_ERROR(c, "worker.empty_handle", kDesign, "worker 'w': an empty ObjectFifoHandle was passed",
                 Worker([](F) {}, fn_args(F()), {.name = "w"}));
    NPUSIM_ERROR(c, "worker.handle_used", kDesign,
                 "worker 'two': fifo 'f' consumer 0 handle is already used by worker 'one'; call cons() again for "
                 "another consumer",
                 ObjectFifo f(i32(16), "f");
                 auto h = f.cons(); Worker one([](F) {}, fn_args(h), {.name = "one"});
                 Worker([](F) {}, fn_args(h), {.name = "two"}));
    NPUSIM_ERROR(c, "worker.tile_kind", kDesign, "worker 'm': tile must be a compute tile, got AnyMemTile",
                 Worker([] {}, {.tile = AnyMemTile, .name = "m"}));
    NPUSIM_ERROR(c, "worker.tile_row", kDesign,
                 "worker 'm': tile Tile(0,1) is not a compute tile (rows 0 and 1 are shim and mem tiles)",
                 Worker([] {}, {.tile = Tile(0, 1), .name = "m"}));
    NPUSIM_ERROR(c, "worker.stack_size", kDesign, "worker 'm': stack_size 6 must be a multiple of 4",
                 Worker([] {}, {.stack_size = 6, .name = "m"}));
    NPUSIM_ERROR(
        c, "worker.buffer_shared", kDesign,
        "buffer 'b' has no tile and is already used by worker 'one'; give it tile= to share it", Buffer b(i32(16), "b");
        Worker one([](Buffer) {}, fn_args(b), {.name = "one"}); Worker([](Buffer) {}, fn_args(b), {.name = "two"}));
    NPUSIM_ERROR(c, "worker.fifo_itself", kDesign,
                 "Worker: fifo 'f' was passed itself; pass a handle (prod() or cons())", ObjectFifo f(i32(16), "f");
                 Worker([](ObjectFifo) {}, fn_args(f)));
    NPUSIM_ERROR(c, "worker.add_cycles_outside_body", kDesign, "add_cycles() called outside a worker body",
                 add_cycles(1));

    c.component("Kernel", "Declaring and calling a Kernel (`frontend/src/Kernel.cpp`).");
    c.site("frontend/src/Kernel.cpp");
    NPUSIM_ERROR(c, "kernel.arg_count", kDesign,
                 "kernel 'k': the native function takes 2 arguments but 1 argument types are declared",
                 Kernel("k", +[](std::int32_t*, std::int32_t*) {}, {i32(8)}));
    NPUSIM_ERROR(c, "kernel.not_pointer", kDesign,
                 "kernel 'k': argument 0 is declared i32[8] but the native parameter is not a pointer",
                 Kernel("k", +[](std::int32_t) {}, {i32(8)}));
    NPUSIM_ERROR(c, "kernel.not_scalar", kDesign,
                 "kernel 'k': argument 0 is declared a scalar but the native parameter is a pointer",
                 Kernel("k", +[](std::int32_t*) {}, {scalar<std::int32_t>()}));
    NPUSIM_ERROR(c, "kernel.pointee_size", kDesign,
                 "kernel 'k': argument 0 is declared i32[8] (4 B elements) but the native pointer has 1 B elements",
                 Kernel("k", +[](std::uint8_t*) {}, {i32(8)}));
    NPUSIM_ERROR(c, "kernel.call_arg_count", kDesign, "worker 'w': kernel 'k' called with 1 arguments, expects 2",
                 Kernel k("k", +[](std::int32_t*, std::int32_t*) {}, {i32(256), i32(256)});
                 resolve(passthrough({.body = [k](F in, F) { k(in.acquire(1)); }})));
    NPUSIM_ERROR(c, "kernel.call_scalar_for_view", kDesign,
                 "worker 'w': kernel 'k' argument 0: expects a view of i32[256], got a scalar",
                 Kernel k("k", +[](std::int32_t*) {}, {i32(256)});
                 resolve(passthrough({.body = [k](F, F) { k(7); }})));
    NPUSIM_ERROR(c, "kernel.call_view_for_scalar", kDesign,
                 "worker 'w': kernel 'k' argument 0: expects a i32 scalar, got a view of 'in'",
                 Kernel k("k", +[](std::int32_t) {}, {scalar<std::int32_t>()});
                 resolve(passthrough({.body = [k](F in, F) { k(in.acquire(1)); }})));
    NPUSIM_ERROR(
        c, "kernel.call_view_type", kDesign,
        "worker 'w': kernel 'k' argument 0: expects i32[128] (128 elements), got a view of 'in' with 256 i32 elements",
        Kernel k("k", +[](std::int32_t*) {}, {i32(128)});
        resolve(passthrough({.body = [k](F in, F) { k(in.acquire(1)); }})));
    NPUSIM_ERROR(c, "kernel.call_outside_body", kDesign, "kernel 'k' called outside a worker body",
                 Kernel("k", +[](std::int32_t) {}, {scalar<std::int32_t>()})(7));

    c.component("Buffer", "Building, viewing and writing a Buffer (`frontend/src/Buffer.cpp`).");
    c.site("frontend/src/Buffer.cpp");
    NPUSIM_ERROR(c, "buffer.name_missing", kDesign, "Buffer: a name is required", Buffer(i32(16), ""));
    NPUSIM_ERROR(c, "buffer.no_elements", kDesign, "buffer 'b': type i32[0] has no elements",
                 Buffer(tensor<std::int32_t>({0}), "b"));
    NPUSIM_ERROR(c, "buffer.initial_size", kDesign, "buffer 'b': initial value has 3 B, the type i32[16] has 64 B",
                 Buffer(i32(16), "b", std::vector<std::uint8_t>(3)));
    NPUSIM_ERROR(c, "buffer.tile_kind", kDesign, "buffer 'b': tile Tile(0,0) is a shim tile, which has no data memory",
                 Buffer(i32(16), "b", {}, Tile(0, 0)));
    NPUSIM_ERROR(c, "buffer.view_outside_body", kDesign, "buffer 'b': view() called outside a worker body",
                 Buffer(i32(16), "b").view());
    NPUSIM_ERROR(c, "buffer.write_index", kDesign,
                 "buffer 'b' (i32[16]): write of a i32 value at index 16 does not fit",
                 Buffer(i32(16), "b").write(16, std::int32_t{1}));
    NPUSIM_ERROR(c, "buffer.write_outside_sequence", kDesign, "buffer 'b': write() called outside the runtime sequence",
                 Buffer(i32(16), "b").write(0, std::int32_t{1}));

    NPUSIM_ERROR(c, "buffer.splat_type", kDesign, "buffer 's': a f32 initial value cannot fill the type i32[4]",
                 Buffer::splat<float>(tensor<std::int32_t>({4}), "s", 1.0f));
    NPUSIM_ERROR(c, "buffer.rtp_index", kDesign, "buffer 'b' (i32[16]): rtp[16] is outside its 16 elements",
                 Buffer(i32(16), "b").use_write_rtp()[16] = 1);
    NPUSIM_ERROR(c, "buffer.rtp_value", kDesign, "buffer 'b' (i16[4]): rtp[0] = 40000 does not fit a i16 element",
                 Buffer(tensor<std::int16_t>({4}), "b").use_write_rtp()[0] = 40000);

    c.component("WorkerRuntimeBarrier",
                "A barrier between worker bodies and the runtime sequence (`frontend/src/WorkerRuntimeBarrier.cpp`).");
    c.site("frontend/src/WorkerRuntimeBarrier.cpp");
    NPUSIM_ERROR(c, "barrier.wait_outside_body", kDesign, "b: wait_for_value() called outside a worker body",
                 WorkerRuntimeBarrier(0, "b").wait_for_value(1));
    NPUSIM_ERROR(c, "barrier.release_outside_body", kDesign, "b: release_with_value() called outside a worker body",
                 WorkerRuntimeBarrier(0, "b").release_with_value(1));
    NPUSIM_ERROR(c, "barrier.set_outside_sequence", kDesign, "b: set() called outside the runtime sequence",
                 WorkerRuntimeBarrier(0, "b").set(1));

    c.component("Element views", "The objects acquire() returns (`frontend/src/Element.cpp`).");
    c.site("frontend/src/Element.cpp");
    NPUSIM_ERROR(c, "element.empty", kDesign, "use of an empty element view", Element().elements());
    NPUSIM_ERROR(c, "element.empty_group", kDesign, "use of an empty ElementGroup (nothing acquired): index 0",
                 ElementGroup()[0]);
    NPUSIM_ERROR(c, "element.empty_group_single", kDesign, "use of an empty ElementGroup (nothing acquired)",
                 ElementGroup().data());
    NPUSIM_ERROR(c, "element.dtype", kDesign, "worker 'w': 'in': element of type i32[256] accessed as f32",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(1).as<float>(); }})));
    NPUSIM_ERROR(c, "element.index", kDesign, "worker 'w': 'in': index 256 out of range for element of type i32[256]",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(1).at<std::int32_t>(256); }})));
    NPUSIM_ERROR(c, "element.nd_index", kDesign, "'x': index (1,9) is outside the shape (4,8) of element type i32[4,8]",
                 std::vector<std::int32_t> mem(32);
                 const auto t = tensor<std::int32_t>({4, 8}); const std::string o = "x";
                 Element(reinterpret_cast<std::byte*>(mem.data()), &t, &o).at<std::int32_t>(1, 9));
    NPUSIM_ERROR(c, "element.nd_rank", kDesign,
                 "'x': 3 indices (1,2,3) for an element of type i32[4,8] with 2 dimension(s)",
                 std::vector<std::int32_t> mem(32);
                 const auto t = tensor<std::int32_t>({4, 8}); const std::string o = "x";
                 Element(reinterpret_cast<std::byte*>(mem.data()), &t, &o).at<std::int32_t>(1, 2, 3));
    NPUSIM_ERROR(c, "element.group_index", kDesign, "worker 'w': 'in': index 2 out of range: 2 elements acquired",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(2)[2]; }})));
    NPUSIM_ERROR(c, "element.group_single", kDesign, "worker 'w': 'in': 2 elements were acquired; index them with [i]",
                 resolve(passthrough({.body = [](F in, F) { in.acquire(2).data(); }})));

    c.component("Runtime sequence",
                "fill(), drain(), TaskGroup and Task in the runtime sequence (`frontend/src/ObjectFifo.cpp`, "
                "`frontend/src/Runtime.cpp`).");
    c.site("frontend/src/ObjectFifo.cpp");
    NPUSIM_ERROR(c, "seq.fill_outside_sequence", kDesign, "fifo 'f': fill() called outside the runtime sequence",
                 ObjectFifo(i32(16), "f").prod().fill(RuntimeData{}));
    NPUSIM_ERROR(c, "seq.fill_consumer", kDesign,
                 "fifo 'out': fill() needs the producer handle (prod()), got a consumer handle",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F, F out) { out.fill(a); }})));
    NPUSIM_ERROR(c, "seq.drain_producer", kDesign,
                 "fifo 'in': drain() needs a consumer handle (cons()), got the producer handle",
                 resolve(passthrough({.seq = [](RuntimeData, RuntimeData b, F in, F) { in.drain(b); }})));
    NPUSIM_ERROR(c, "seq.handle_not_argument", kDesign,
                 "fifo 'x' producer: fill() on a handle that is not among the Runtime's fn_args",
                 ObjectFifo x(i32(256), "x");
                 F h = x.prod(); resolve(passthrough({.seq = [h](RuntimeData a, RuntimeData, F, F) { h.fill(a); }})));
    NPUSIM_ERROR(c, "seq.tensor_not_argument", kDesign,
                 "fifo 'in': fill() with a tensor that is not a runtime argument",
                 resolve(passthrough({.seq = [](RuntimeData, RuntimeData, F in, F) { in.fill(RuntimeData{}); }})));
    NPUSIM_ERROR(c, "seq.tap_and_sizes", kDesign,
                 "fifo 'in': fill() takes either tap= or sizes=/strides=/offset=/transfer_len=, not both",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     in.fill(a, {.tap = a.default_tap(), .offset = 0});
                 }})));
    NPUSIM_ERROR(c, "seq.unmanaged_group", kDesign, "fifo 'in': fill() with managed=false cannot also name a group",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     TaskGroup g;
                     in.fill(a, {.group = &g, .managed = false});
                 }})));
    NPUSIM_ERROR(c, "seq.transfer_len_and_sizes", kDesign, "fifo 'in': fill() transfer_len= excludes sizes=/strides=",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     in.fill(a, {.sizes = std::vector<std::int64_t>{1024}, .transfer_len = 1024});
                 }})));
    NPUSIM_ERROR(c, "seq.sizes_without_strides", kDesign, "fifo 'in': fill() needs both sizes= and strides=",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     in.fill(a, {.sizes = std::vector<std::int64_t>{1024}});
                 }})));
    NPUSIM_ERROR(c, "seq.pattern_outside_tensor", kDesign,
                 "fill of fifo 'in' with runtime argument 0 (i32[1024]): access pattern tap(offset=1, "
                 "sizes=[1,1,1,1024], strides=[0,0,0,1]) reaches elements 1..1024, outside the tensor's 1024 elements",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     in.fill(a, {.offset = 1, .transfer_len = 1024});
                 }})));
    NPUSIM_ERROR(c, "seq.group_finished", kDesign, "fifo 'in': fill() into a TaskGroup that is already finished",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) {
                     TaskGroup g;
                     g.finish();
                     in.fill(a, {.group = &g});
                 }})));
    c.site("frontend/src/Runtime.cpp");
    NPUSIM_ERROR(c, "seq.task_group_outside_sequence", kDesign,
                 "TaskGroup must be constructed inside the runtime sequence", TaskGroup());
    NPUSIM_ERROR(c, "seq.finish_outside_sequence", kDesign, "TaskGroup 1: finish() called outside the runtime sequence",
                 auto kept = std::make_shared<std::optional<TaskGroup>>();
                 resolve(passthrough({.seq =
                                          [kept](RuntimeData a, RuntimeData b, F in, F out) {
                                              kept->emplace();
                                              in.fill(a, {.group = &**kept});
                                              out.drain(b, {.wait = true, .group = &**kept});
                                              (*kept)->finish();
                                          }}));
                 (*kept)->finish());
    NPUSIM_ERROR(c, "seq.finish_twice", kDesign, "TaskGroup 1: finish() called twice",
                 resolve(passthrough({.seq = [](RuntimeData, RuntimeData, F, F) {
                     TaskGroup g;
                     g.finish();
                     g.finish();
                 }})));
    NPUSIM_ERROR(c, "seq.await_outside_sequence", kDesign, "Task.await_() called outside the runtime sequence",
                 Task().await_());
    NPUSIM_ERROR(c, "seq.await_managed", kDesign,
                 "fifo 'in': await_() on a managed task; its TaskGroup awaits it (use managed=false)",
                 resolve(passthrough(
                     {.seq = [](RuntimeData a, RuntimeData, F in, F) { in.fill(a, {.wait = true}).await_(); }})));
    NPUSIM_ERROR(c, "seq.await_without_wait", kDesign, "fifo 'in': only a wait=true transfer can be awaited",
                 resolve(passthrough(
                     {.seq = [](RuntimeData a, RuntimeData, F in, F) { in.fill(a, {.managed = false}).await_(); }})));
    NPUSIM_ERROR(c, "seq.free_outside_sequence", kDesign, "Task.free() called outside the runtime sequence",
                 Task().free());
    NPUSIM_ERROR(c, "seq.free_managed", kDesign, "fifo 'in': free() on a managed task; its TaskGroup frees it",
                 resolve(passthrough({.seq = [](RuntimeData a, RuntimeData, F in, F) { in.fill(a).free(); }})));
    NPUSIM_ERROR(c, "seq.fifo_itself", kDesign, "Runtime: fifo 'f' was passed itself; pass a handle (prod() or cons())",
                 ObjectFifo f(i32(16), "f");
                 Runtime([](ObjectFifo) {}, fn_args(f)));
    NPUSIM_ERROR(c, "seq.handle_used", kDesign,
                 "Runtime: fifo 'f' producer handle is already used by worker 'w'; a fifo has one producer",
                 ObjectFifo f(i32(16), "f");
                 F h = f.prod(); Worker w([](F) {}, fn_args(h), {.name = "w"});
                 Runtime([](RuntimeData, F) {}, fn_args(i32(16), h)));

    c.component("TensorAccessPattern", "Building a TensorAccessPattern (`frontend/src/TensorAccessPattern.cpp`).");
    c.site("frontend/src/TensorAccessPattern.cpp");
    NPUSIM_ERROR(c, "tap.lengths", kDesign,
                 "TensorAccessPattern: sizes and strides must have the same length, 1 to 4 (got 1 sizes, 2 strides)",
                 TensorAccessPattern({16}, 0, {16}, {1, 1}));
    NPUSIM_ERROR(c, "tap.size", kDesign, "TensorAccessPattern: size 0 must be >= 1",
                 TensorAccessPattern({16}, 0, {0}, {1}));
    NPUSIM_ERROR(c, "tap.offset", kDesign, "TensorAccessPattern: offset -1 must be >= 0",
                 TensorAccessPattern({16}, -1, {16}, {1}));

    c.component("TensorTiler2D", "taplib's tilers and TensorAccessSequence (`frontend/src/TensorTiler2D.cpp`, "
                                 "`frontend/src/TensorAccessSequence.cpp`); the texts are taplib's ValueErrors.");
    c.site("frontend/src/TensorTiler2D.cpp");
    using Dims = std::vector<std::int64_t>;
    NPUSIM_ERROR(c, "tiler.not_divisible", kDesign,
                 "TensorTiler2D.simple_tiler: Tensor dimension 0 (10) is not divisible by tile dim (3)",
                 TensorTiler2D::simple_tiler({10, 4}, Dims{3, 2}));
    NPUSIM_ERROR(c, "tiler.partial", kDesign,
                 "TensorTiler2D.group_tiler: allow_partial=False but tensor does not divide evenly into tile groups "
                 "in dimension 1",
                 TensorTiler2D::group_tiler({45, 24}, {3, 2}, Dims{5, 7}));
    NPUSIM_ERROR(c, "tiler.pattern_repeat", kDesign, "TensorTiler2D.step_tiler: Pattern repeat must be >= 1 but is 0",
                 TensorTiler2D::step_tiler({8, 8}, {2, 2}, {2, 2}, std::nullopt, {.pattern_repeat = 0}));
    NPUSIM_ERROR(c, "tiler.repeat_dims", kDesign,
                 "TensorTiler2D.group_tiler: Ran out of dimensions for repeat (sizes=[2, 2, 2, 2], strides=[16, 2, 8, "
                 "1])",
                 TensorTiler2D::group_tiler({8, 8}, {2, 2}, Dims{2, 2}, {.pattern_repeat = 2}));
    NPUSIM_ERROR(c, "tiler.dim_value", kDesign,
                 "TensorTiler2D.simple_tiler: Each tensor dimension must be >= 1 (dimensions=[8, 0])",
                 TensorTiler2D::simple_tiler({8, 0}));
    NPUSIM_ERROR(c, "tiler.dim_count", kDesign,
                 "TensorTiler2D.simple_tiler: Tensor dimension ([2, 2, 2]) does not match expected dimension (2)",
                 TensorTiler2D::simple_tiler({2, 2, 2}));
    NPUSIM_ERROR(c, "tiler.no_dims", kDesign,
                 "TensorTiler2D.simple_tiler: Number of tensor dimensions must be >= 1 (dimensions=[])",
                 TensorTiler2D::simple_tiler({}));
    c.site("frontend/src/TensorAccessSequence.cpp");
    NPUSIM_ERROR(c, "tas.index", kDesign, "TensorAccessSequence: index 1 is out of range (the sequence has 1 patterns)",
                 TensorTiler2D::simple_tiler({4, 4})[1]);
    NPUSIM_ERROR(c, "tas.empty", kDesign,
                 "TensorAccessSequence.from_taps: Received no TensorAccessPatterns; must have at least one "
                 "TensorAccessPatterns to create a TensorAccessSequence.",
                 TensorAccessSequence::from_taps({}));
    NPUSIM_ERROR(
        c, "tas.dims", kDesign,
        "TensorAccessSequence: TensorAccessPatterns have multiple tensor dimensions (found [4, 4] and [2, 8])",
        TensorAccessSequence::from_taps({TensorAccessPattern::linear({4, 4}), TensorAccessPattern::linear({2, 8})}));
    c.site("frontend/src/AccessHeatmap.cpp");
    NPUSIM_ERROR(c, "heatmap.shape", kDesign,
                 "access_heatmap_ppm: 2 x 2 cells of 8 px do not fit an access map of 3 elements",
                 access_heatmap_ppm(std::vector<std::int64_t>{0, 1, 2}, 2, 2));

    c.component("algorithms", "IRON's algorithm templates transform, transform_parallel, for_each, reduce "
                              "(`frontend/src/Transform.cpp`); the texts are upstream's ValueErrors where it has one.");
    c.site("frontend/src/Transform.cpp");
    NPUSIM_ERROR(c, "alg.tile_multiple", kDesign,
                 "transform: Number of elements (100) must be a multiple of tile size (16)",
                 alg::transform(alg_dev(), inc, i32(100)));
    NPUSIM_ERROR(c, "alg.num_channels", kDesign,
                 "transform_parallel: num_channels must be 1 or 2 (shim DMA has 2 channels per direction per column "
                 "on AIE2 / AIE2p); got 3",
                 alg::transform_parallel(alg_dev(), inc, i32(1024), {.num_channels = 3}));
    NPUSIM_ERROR(c, "alg.parallel_multiple", kDesign,
                 "transform_parallel: Number of elements (80) must be a multiple of tile_size × num_columns × "
                 "num_channels (16 × 1 × 2 = 32).",
                 alg::transform_parallel(alg_dev(), inc, i32(80), {.num_channels = 2}));
    NPUSIM_ERROR(c, "alg.tile_size", kDesign,
                 "transform: tile_size (32) does not match ExternalFunction's input/output shape in arg_type",
                 alg::transform(alg_dev(), alg_kernel(), i32(64), {.tile_size = 32}, {std::int64_t{1}}));
    NPUSIM_ERROR(c, "alg.kernel_shape", kDesign,
                 "transform: Argument 0 of kernel 'k' does not have a shape or is not an array type.",
                 alg::transform(alg_dev(),
                                Kernel(
                                    "k", [](std::span<const KernelArg>) {}, {scalar<std::int32_t>()}, cost::fixed(1)),
                                i32(64)));
    NPUSIM_ERROR(c, "alg.arg_count", kDesign,
                 "transform: kernel 'add_scalar' declares 4 arguments; the template calls it with 3 (1 input tile, "
                 "the output tile, 0 params, the tile size)",
                 alg::transform(alg_dev(), alg_kernel(), i32(64)));
    NPUSIM_ERROR(c, "alg.param_kind", kDesign,
                 "transform: param 0 of kernel 'add_scalar' is declared i32 scalar but given a tensor type",
                 alg::transform(alg_dev(), alg_kernel(), i32(64), {}, {i32(1)}));
    NPUSIM_ERROR(c, "alg.params_two_channels", kDesign,
                 "transform_parallel: num_channels=2 is not supported together with shared *params; use "
                 "num_channels=1 instead.",
                 alg::transform_parallel(alg_dev(), alg_kernel(), i32(64), {.num_channels = 2}, {std::int64_t{1}}));
    NPUSIM_ERROR(c, "alg.callable_params", kDesign,
                 "for_each: the function cannot be applied to i32 elements (1 argument)",
                 alg::for_each(
                     alg_dev(), [](std::int16_t* p) { return *p; }, i32(64)));
    NPUSIM_ERROR(c, "alg.params_for_callable", kDesign,
                 "transform: extra params are for a kernel; a callable takes only the elements",
                 alg::detail::transform_gen(alg_dev(), "transform",
                                            alg::detail::tile_fn<1>(inc, DType::i32, "transform"), 1, i32(64),
                                            std::vector<alg::Param>{std::int64_t{1}}, {}));
    NPUSIM_ERROR(
        c, "alg.runtime_tensors", kDesign,
        "transform: 9 runtime tensors (inputs, output and tensor params); npusim's template takes at most 8",
        std::vector<ArgType> types{i32(16), i32(16)};
        std::vector<alg::Param> params; for (int p = 0; p < 7; ++p) {
            types.push_back(i32(1));
            params.push_back(i32(1));
        } types.push_back(scalar<std::int32_t>());
        alg::transform(alg_dev(),
                       Kernel(
                           "many", [](std::span<const KernelArg>) {}, types, cost::fixed(1)),
                       i32(64), {}, params));
    NPUSIM_ERROR(c, "alg.reduce_args", kDesign,
                 "reduce: kernel 'add_scalar' declares 4 arguments; reduce calls it with 3 (input, output, input "
                 "elements)",
                 alg::reduce(alg_dev(), alg_kernel(), i32(16), i32(1)));

    c.internal("alg.unknown_dtype", "transform: unknown element type",
               "tile_fn's switch covers every DType; the throw after it only ends the function for the compiler.");

    c.component("ExternalFunction", "Binding a kernel by name to a build made by npusim_add_external_function or, "
                                    "without one, to a build the run-time kernel compiler makes "
                                    "(`harness/src/KernelCompiler.cpp`), and its calls "
                                    "(`frontend/src/ExternalFunction.cpp`); the texts are IRON kernel.py's where it "
                                    "has one. The entries use a build of catalog_ext.cc (-DN=4) that the catalog "
                                    "registers itself; the source_string, not_linked and no_matching_build entries "
                                    "are those of a program without the run-time compiler (one linking only the "
                                    "frontend).");
    c.site("frontend/src/ExternalFunction.cpp");
    NPUSIM_ERROR(c, "ext.name", kDesign, "ExternalFunction: Kernel name cannot be empty.",
                 ExternalFunction("", {i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.source_string", kDesign,
                 "ExternalFunction 'catalog_ext': source_string needs npusim's run-time kernel compiler, which this "
                 "program does not link: link npusim::harness and include npusim/harness/KernelCompiler.hpp (or "
                 "npusim/npusim.hpp)",
                 without_runtime_compiler(
                     [] { ExternalFunction("catalog_ext", {i32(4)}, {.source_string = "void catalog_ext() {}"}); }));
    NPUSIM_ERROR(c, "ext.no_source", kDesign,
                 "ExternalFunction 'catalog_ext': source_file or source_string must be provided.",
                 ExternalFunction("catalog_ext", {i32(4)}));
    NPUSIM_ERROR(c, "ext.not_linked", kDesign,
                 "ExternalFunction 'nope': no build of 'nope' is linked into this program; compile nope.cc with "
                 "npusim_add_external_function(... NAME nope) (cmake/NpusimExternalFunction.cmake)",
                 without_runtime_compiler([] { ExternalFunction("nope", {i32(4)}, {.source_file = "nope.cc"}); }));
    NPUSIM_ERROR(
        c, "ext.no_matching_build", kDesign,
        "ExternalFunction 'catalog_ext': no linked build of 'catalog_ext' has source catalog_ext.cc, compile "
        "flags [-DN=8] and 0 include dirs; the builds are: catalog_ext.cc [-DN=4]",
        without_runtime_compiler([] {
            ExternalFunction("catalog_ext", {i32(4)}, {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=8"}});
        }));
    NPUSIM_ERROR(c, "ext.arg_count", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types has 1 entry, the compiled 'catalog_ext' (catalog_ext.cc "
                 "[-DN=4]) takes 3 parameters",
                 ExternalFunction("catalog_ext", {i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.arg_kind", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types[2] is i32[4] but parameter 2 of the compiled function is a "
                 "scalar",
                 ExternalFunction("catalog_ext", {i32(4), i32(4), i32(4)}, catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.arg_element_size", kDesign,
                 "ExternalFunction 'catalog_ext': arg_types[0] is i16[4] (2 B elements) but parameter 0 of the "
                 "compiled function points to 4 B elements",
                 ExternalFunction("catalog_ext", {tensor<std::int16_t>({4}), i32(4), scalar<std::int32_t>()},
                                  catalog_ext_build()));
    NPUSIM_ERROR(c, "ext.tile_size_range", kDesign,
                 "ExternalFunction 'catalog_ext': Argument index 3 out of range (max: 2)",
                 ExternalFunction("catalog_ext", ext_types(), catalog_ext_build()).tile_size(3));
    NPUSIM_ERROR(c, "ext.tile_size_scalar", kDesign,
                 "ExternalFunction 'catalog_ext': Argument 2 does not have a shape or is not an array type.",
                 ExternalFunction("catalog_ext", ext_types(), catalog_ext_build()).tile_size(2));
    NPUSIM_ERROR(c, "ext.tile_size_no_types", kDesign,
                 "ExternalFunction 'catalog_ext_none': No argument types defined.",
                 ExternalFunction("catalog_ext_none", {}, {.source_file = "catalog_ext.cc", .compile_flags = {"-DN=4"}})
                     .tile_size());
    c.site("harness/src/KernelCompiler.cpp");
    NPUSIM_ERROR(c, "ext.source_missing", kDesign,
                 "ExternalFunction 'nope': source_file nope.cc does not exist (relative paths are taken from the "
                 "working directory, <...>)",
                 ExternalFunction("nope", {i32(4)}, {.source_file = "nope.cc"}));
    NPUSIM_ERROR(c, "ext.compile_error", kDesign,
                 "ExternalFunction 'catalog_bad': its source_string does not compile for the host: "
                 "source_string.cc:2:<N>: error: expected primary-expression before ';' token",
                 ExternalFunction("catalog_bad", {i32(4)},
                                  {.source_string = "#include <cstdint>\nextern \"C\" void catalog_bad(int32_t* p) "
                                                    "{ p[0] = +; }\n"}));
    NPUSIM_ERROR(c, "ext.missing_piece", kDesign,
                 "ExternalFunction 'catalog_piece': its source_string does not compile for the host: "
                 "source_string.cc:3:<N>: error: 'no_such_piece' is not a member of 'aie' (it needs "
                 "aie::no_such_piece, which npusim's AIE-API host layer does not provide)",
                 ExternalFunction("catalog_piece", {i32(16)},
                                  {.source_string = "#include <aie_api/aie.hpp>\n"
                                                    "extern \"C\" void catalog_piece(int32_t* p) {\n"
                                                    "    aie::store_v(p, aie::no_such_piece(aie::load_v<16>(p)));\n}\n"}));
    NPUSIM_ERROR(c, "ext.aie_not_included", kDesign,
                 "ExternalFunction 'catalog_z': its source_string does not compile for the host: "
                 "source_string.cc:1:<N>: error: 'aie' <...> (it uses aie:: without including <aie_api/aie.hpp>, "
                 "which fails under Peano too: a source like mlir-aie's zero.cc is meant to be included after "
                 "aie.hpp, as mm.cc includes it)",
                 ExternalFunction("catalog_z", {i32(16)},
                                  {.source_string = "extern \"C\" void catalog_z(int* p) { auto v = "
                                                    "aie::load_v<16>(p); (void)v; }\n"}));
    NPUSIM_ERROR(c, "ext.no_function", kDesign,
                 "ExternalFunction 'catalog_none': its source_string defines no function 'catalog_none'",
                 ExternalFunction("catalog_none", {i32(4)}, {.source_string = "extern \"C\" void other(int*) {}\n"}));
    NPUSIM_ERROR(c, "ext.no_compiler", kDesign,
                 "ExternalFunction 'catalog_cxx': cannot compile its source_string: cannot run the C++ compiler "
                 "'/no/such/c++' (cannot run /no/such/c++: No such file or directory); set CXX to a C++20 compiler",
                 with_env("CXX", "/no/such/c++", [] {
                     ExternalFunction("catalog_cxx", {i32(4)}, {.source_string = "extern \"C\" void catalog_cxx(int*) {}"});
                 }));
    NPUSIM_ERROR(c, "ext.cache_unwritable", kDesign,
                 "ExternalFunction 'catalog_cache': cannot compile its source_string: cannot create the kernel cache "
                 "<...>/not_a_folder/kernels: Not a directory",
                 const std::string file = ctx.tmp + "/not_a_folder"; std::ofstream(file) << "x\n";
                 with_env("NPUSIM_CACHE_DIR", file, [] {
                     ExternalFunction("catalog_cache", {i32(4)},
                                      {.source_string = "extern \"C\" void catalog_cache(int*) {}"});
                 }));
    c.internal("ext.cache_io", "cannot read <file>: <reason> / cannot write <file>: <reason>",
               "The cache files are read right after this process wrote them or checked they exist, in a folder it "
               "created; only their removal by another program meanwhile (or a full disk) reaches these.");
    c.internal("ext.entry_points", "the library built from <source> lacks npusim's entry points",
               "The wrapper unit the compiler builds into every library defines npusim_jit_enter, npusim_jit_leave "
               "and the function's params/invoke pair; a library that compiled without them cannot exist.");
    c.site("harness/src/WorkerLibraries.cpp");
    c.internal("ext.worker_library",
               "cannot copy the kernel library <file> for worker '<name>': <reason> / cannot load the kernel "
               "library <file> for worker '<name>': <reason>",
               "A second worker's own load of a library this process built and loaded: the copy goes next to the "
               "library in the cache folder this process just wrote; only a full disk, the folder's removal by "
               "another program meanwhile, or the loader running out of memory reach these.");
    c.site("frontend/src/ExternalFunction.cpp");
    NPUSIM_ERROR(c, "ext.call_count", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext' expects 3 argument(s), but 2 were provided.",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup& b) { f(a, b); }));
    NPUSIM_ERROR(c, "ext.call_scalar_for_view", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext': Argument 1: expected (256,)/i32, got a scalar",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup&) { f(a, 1, 2); }));
    NPUSIM_ERROR(c, "ext.call_view_for_scalar", kDesign,
                 "worker 'w': ExternalFunction 'catalog_ext': Argument 2: expected scalar, got a view of 'in'",
                 call_catalog_ext(ext_types(), [](const ExternalFunction& f, const ElementGroup& a,
                                                  const ElementGroup& b) { f(a, b, a); }));
    NPUSIM_ERROR(
        c, "ext.call_shape", kDesign,
        "worker 'w': ExternalFunction 'catalog_ext': Argument 0: expected (16, 16)/i32, got (256,)/i32 ('in')",
        call_catalog_ext({tensor<std::int32_t>({16, 16}), i32(256), scalar<std::int32_t>()},
                         [](const ExternalFunction& f, const ElementGroup& a, const ElementGroup& b) { f(a, b, 2); }));
}

} // namespace npusim::errcat
