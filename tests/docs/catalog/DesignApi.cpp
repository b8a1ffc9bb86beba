// The design-building API: ObjectFifo, links, Worker, Kernel, Buffer, barriers, element views and the
// runtime sequence (fill, drain, TaskGroup, Task). Tensor access patterns, taplib's tilers, the
// algorithms and ExternalFunction are in DesignApiTiling.cpp.
#include "Designs.hpp"

#include <memory>
#include <optional>

namespace npusim::errcat {

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
                 "fifo 'f_split1': object of 6 elements but split offsets give segment [8,16) of 8 elements; the mem "
                 "tile moves the segment (AIEDialect.cpp getDistributeTransferLengths), so one must be a whole "
                 "multiple of the other",
                 ObjectFifo(i32(16), "f").cons().split({0, 8}, {.obj_types = {i32(8), i32(6)}}));
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
}

} // namespace npusim::errcat
