// MLIR export (frontend/src/export): the module printed for a design against mlir-aie's own IRON
// lit tests (test/python/*.py @ 3ca0193c, their FileCheck CHECK lines) and the full modules
// reconstructed from IRON's emitters in /work/shared/reference/iron-mlir-golden.md (§1.x (R)).
// The goldens below are copied verbatim from that document, trailing spaces included.
#include "npusim/iron.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace npusim;
using namespace npusim::iron;

namespace {

void noop_line(const std::uint8_t*, std::uint8_t*, std::int32_t) {}
void noop_scale(const std::int16_t*, std::int16_t*, const std::int32_t*, std::int32_t) {}

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
}

std::string squeeze(const std::string& s) { // FileCheck canonicalizes runs of horizontal whitespace
    std::string o;
    for (char c : s)
        if (!(c == ' ' && !o.empty() && o.back() == ' ')) o += c;
    return o;
}

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) o += '\\';
        o += c;
    }
    return o;
}

// A FileCheck subset: CHECK / CHECK-LABEL (in order, anywhere after the previous match), CHECK-NEXT
// (the line after the previous match), CHECK-DAG (anywhere), {{regex}}, [[VAR:regex]] and [[VAR]].
// Returns "" when every check matches, else the first check that does not.
std::string file_check(const std::string& output, const std::vector<std::string>& checks) {
    const auto lines = lines_of(output);
    std::map<std::string, std::string> vars;
    std::size_t next = 0; // first line a CHECK may match
    for (const auto& check : checks) {
        const auto colon = check.find(": ");
        const std::string kind = check.substr(0, colon), pat = squeeze(check.substr(colon + 2));
        std::string re;
        std::vector<std::string> captures;
        for (std::size_t i = 0; i < pat.size();) {
            if (pat.compare(i, 2, "{{") == 0) {
                const auto e = pat.find("}}", i);
                re += "(?:" + pat.substr(i + 2, e - i - 2) + ")";
                i = e + 2;
            } else if (pat.compare(i, 2, "[[") == 0) {
                const auto e = pat.find("]]", i);
                const std::string body = pat.substr(i + 2, e - i - 2);
                const auto c = body.find(':');
                if (c == std::string::npos) {
                    re += escape(vars.at(body));
                } else {
                    captures.push_back(body.substr(0, c));
                    re += "(" + body.substr(c + 1) + ")";
                }
                i = e + 2;
            } else {
                re += escape(std::string(1, pat[i]));
                ++i;
            }
        }
        const std::regex rx(re);
        const std::size_t from = kind == "CHECK-DAG" ? 0 : next;
        const std::size_t to = kind == "CHECK-NEXT" ? std::min(next + 1, lines.size()) : lines.size();
        bool found = false;
        for (std::size_t l = from; l < to && !found; ++l) {
            std::smatch m;
            const std::string line = squeeze(lines[l]);
            if (!std::regex_search(line, m, rx)) continue;
            for (std::size_t k = 0; k < captures.size(); ++k) vars[captures[k]] = m[k + 1].str();
            if (kind != "CHECK-DAG") next = l + 1;
            found = true;
        }
        if (!found) return check;
    }
    return "";
}

const char* const kBarrierGolden = R"MLIR(module {
  aie.device(npu2_1col) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %0 = aie.lock(%logical_core)
    %1 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %c1_i32 = arith.constant 1 : i32
        aie.use_lock(%0, Acquire, %c1_i32)
        %c1_i32_0 = arith.constant 1 : i32
        aie.use_lock(%0, Release, %c1_i32_0)
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<16xi32>) {
      aiex.set_lock(%0, 1)
    }
  }
}
)MLIR";
const char* const kBufferGolden = R"MLIR(module {
  aie.device(npu2_1col) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_0 = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @in(%logical_shim_noc, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<4096xui8>>  
    aie.objectfifo @out(%logical_core, {%logical_shim_noc_0}, 2 : i32) : !aie.objectfifo<memref<4096xui8>>  
    %uninit_local_buf = aie.buffer(%logical_core) {sym_name = "uninit_local_buf"} : memref<4096xui8> 
    %init_local_buf = aie.buffer(%logical_core) {sym_name = "init_local_buf"} : memref<4096xui8> = dense<0>
    func.func private @passThroughLine(memref<4096xui8>, memref<4096xui8>, i32) attributes {link_with = "passThrough.cc.o"}
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %1 = aie.objectfifo.acquire @out(Produce, 1) : !aie.objectfifosubview<memref<4096xui8>>
        %2 = aie.objectfifo.subview.access %1[0] : !aie.objectfifosubview<memref<4096xui8>> -> memref<4096xui8>
        %3 = aie.objectfifo.acquire @in(Consume, 1) : !aie.objectfifosubview<memref<4096xui8>>
        %4 = aie.objectfifo.subview.access %3[0] : !aie.objectfifosubview<memref<4096xui8>> -> memref<4096xui8>
        %c4096_i32 = arith.constant 4096 : i32
        func.call @passThroughLine(%4, %uninit_local_buf, %c4096_i32) : (memref<4096xui8>, memref<4096xui8>, i32) -> ()
        %c4096_i32_1 = arith.constant 4096 : i32
        func.call @passThroughLine(%uninit_local_buf, %init_local_buf, %c4096_i32_1) : (memref<4096xui8>, memref<4096xui8>, i32) -> ()
        %c4096_i32_2 = arith.constant 4096 : i32
        func.call @passThroughLine(%init_local_buf, %2, %c4096_i32_2) : (memref<4096xui8>, memref<4096xui8>, i32) -> ()
        aie.objectfifo.release @in(Consume, 1)
        aie.objectfifo.release @out(Produce, 1)
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<4096xui8>, %arg1: memref<4096xui8>, %arg2: memref<4096xui8>) {
      %1 = aiex.dma_configure_task_for @in {
        aie.dma_bd(%arg0 : memref<4096xui8> offset = 0 len = 4096 sizes = [1, 1, 1, 4096] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%1)
      %2 = aiex.dma_configure_task_for @out {
        aie.dma_bd(%arg1 : memref<4096xui8> offset = 0 len = 4096 sizes = [1, 1, 1, 4096] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%2)
      aiex.dma_await_task(%2)
      aiex.dma_free_task(%1)
      aiex.dma_free_task(%2)
    }
  }
}
)MLIR";
const char* const kTaskGroupGolden = R"MLIR(module {
  aie.device(npu2) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_0 = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_1 = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @iof2(%logical_core, {%logical_shim_noc}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo @of0(%logical_shim_noc_0, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo @of1(%logical_core, {%logical_shim_noc_1}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<1024xi32>, %arg1: memref<1024xi32>, %arg2: memref<1024xi32>) {
      %1 = aiex.dma_configure_task_for @of0 {
        aie.dma_bd(%arg0 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%1)
      %2 = aiex.dma_configure_task_for @of1 {
        aie.dma_bd(%arg1 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%2)
      %3 = aiex.dma_configure_task_for @iof2 {
        aie.dma_bd(%arg2 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%3)
      aiex.dma_await_task(%2)
      aiex.dma_await_task(%3)
      aiex.dma_free_task(%1)
      aiex.dma_free_task(%2)
      aiex.dma_free_task(%3)
    }
  }
}
)MLIR";
const char* const kForwardGolden = R"MLIR(module {
  aie.device(npu2) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_mem = aie.logical_tile<MemTile>(?, ?)
    %logical_shim_noc_0 = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_mem_1 = aie.logical_tile<MemTile>(?, ?)
    %logical_shim_noc_2 = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_3 = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_4 = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @in1(%logical_shim_noc, {%logical_mem}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo @out1(%logical_mem, {%logical_shim_noc_3}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo.link [@in1] -> [@out1]([] [0])
    aie.objectfifo @in2(%logical_shim_noc_0, {%logical_mem_1}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo @out_2(%logical_mem_1, {%logical_shim_noc_4}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    aie.objectfifo.link [@in2] -> [@out_2]([] [0])
    aie.objectfifo @of0(%logical_shim_noc_2, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<1024xi32>>  
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<1024xi32>, %arg1: memref<1024xi32>, %arg2: memref<1024xi32>, %arg3: memref<1024xi32>, %arg4: memref<1024xi32>) {
      %1 = aiex.dma_configure_task_for @of0 {
        aie.dma_bd(%arg0 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%1)
      %2 = aiex.dma_configure_task_for @in1 {
        aie.dma_bd(%arg1 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%2)
      %3 = aiex.dma_configure_task_for @in2 {
        aie.dma_bd(%arg2 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%3)
      %4 = aiex.dma_configure_task_for @out1 {
        aie.dma_bd(%arg3 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%4)
      %5 = aiex.dma_configure_task_for @out_2 {
        aie.dma_bd(%arg4 : memref<1024xi32> offset = 0 len = 1024 sizes = [1, 1, 1, 1024] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%5)
      aiex.dma_await_task(%4)
      aiex.dma_await_task(%5)
      aiex.dma_free_task(%1)
      aiex.dma_free_task(%2)
      aiex.dma_free_task(%3)
      aiex.dma_free_task(%4)
      aiex.dma_free_task(%5)
    }
  }
}
)MLIR";
const char* const kVectorScalarMulGolden = R"MLIR(module {
  aie.device(npu1_1col) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_0 = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_1 = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @in(%logical_shim_noc, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<1024xi16>>  
    aie.objectfifo @infactor(%logical_shim_noc_0, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<1xi32>>  
    aie.objectfifo @out(%logical_core, {%logical_shim_noc_1}, 2 : i32) : !aie.objectfifo<memref<1024xi16>>  
    func.func private @vector_scalar_mul_vector(memref<1024xi16>, memref<1024xi16>, memref<1xi32>, i32) attributes {link_with = "scale.o"}
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %1 = aie.objectfifo.acquire @infactor(Consume, 1) : !aie.objectfifosubview<memref<1xi32>>
        %2 = aie.objectfifo.subview.access %1[0] : !aie.objectfifosubview<memref<1xi32>> -> memref<1xi32>
        %c0_2 = arith.constant 0 : index
        %c4 = arith.constant 4 : index
        %c1_3 = arith.constant 1 : index
        scf.for %arg1 = %c0_2 to %c4 step %c1_3 {
          %3 = aie.objectfifo.acquire @in(Consume, 1) : !aie.objectfifosubview<memref<1024xi16>>
          %4 = aie.objectfifo.subview.access %3[0] : !aie.objectfifosubview<memref<1024xi16>> -> memref<1024xi16>
          %5 = aie.objectfifo.acquire @out(Produce, 1) : !aie.objectfifosubview<memref<1024xi16>>
          %6 = aie.objectfifo.subview.access %5[0] : !aie.objectfifosubview<memref<1024xi16>> -> memref<1024xi16>
          %c1024_i32 = arith.constant 1024 : i32
          func.call @vector_scalar_mul_vector(%4, %6, %2, %c1024_i32) : (memref<1024xi16>, memref<1024xi16>, memref<1xi32>, i32) -> ()
          aie.objectfifo.release @in(Consume, 1)
          aie.objectfifo.release @out(Produce, 1)
        }
        aie.objectfifo.release @infactor(Consume, 1)
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<4096xi16>, %arg1: memref<1xi32>, %arg2: memref<4096xi16>) {
      %1 = aiex.dma_configure_task_for @in {
        aie.dma_bd(%arg0 : memref<4096xi16> offset = 0 len = 4096 sizes = [1, 1, 1, 4096] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%1)
      %2 = aiex.dma_configure_task_for @infactor {
        aie.dma_bd(%arg1 : memref<1xi32> offset = 0 len = 1 sizes = [1, 1, 1, 1] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%2)
      %3 = aiex.dma_configure_task_for @out {
        aie.dma_bd(%arg2 : memref<4096xi16> offset = 0 len = 4096 sizes = [1, 1, 1, 4096] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%3)
      aiex.dma_await_task(%3)
      aiex.dma_free_task(%1)
      aiex.dma_free_task(%2)
      aiex.dma_free_task(%3)
    }
  }
}
)MLIR";

// test/python/barrier.py: a WorkerRuntimeBarrier is an aie.lock on the worker's tile, waits and
// releases are aie.use_lock with an i32 constant, set() is aiex.set_lock (python/iron/worker.py
// WorkerRuntimeBarrier.wait_for_value / release_with_value / set).
Program barrier_design() {
    WorkerRuntimeBarrier barrier;
    Worker w(
        [](WorkerRuntimeBarrier b) {
            b.wait_for_value(1);
            b.release_with_value(1);
        },
        fn_args(barrier));
    Runtime rt([barrier](RuntimeData) { barrier.set(1); }, fn_args(tensor<std::int32_t>({16})));
    return Program("npu2_1col", rt, {w});
}

// test/python/buffer.py: local Buffers are aie.buffer with sym_name (one initialised), the kernel a
// func.func private with link_with, each int argument a fresh arith.constant.
Program buffer_design() {
    const auto line = tensor<std::uint8_t>({4096});
    ObjectFifo in(line, "in"), out(line, "out");
    Buffer buf1(line, "uninit_local_buf");
    Buffer buf2 = Buffer::splat<std::uint8_t>(line, "init_local_buf", 0);
    Kernel k("passThroughLine", &noop_line, {line, line, scalar<std::int32_t>()});
    Worker w(
        [k](ObjectFifoHandle i, ObjectFifoHandle o, Buffer b1, Buffer b2) {
            auto eo = o.acquire(1);
            auto ei = i.acquire(1);
            k(ei, b1.view(), 4096);
            k(b1.view(), b2.view(), 4096);
            k(b2.view(), eo, 4096);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), buf1, buf2));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData, ObjectFifoHandle ih, ObjectFifoHandle oh) {
            ih.fill(a);
            oh.drain(b, {.wait = true});
        },
        fn_args(line, line, line, in.prod(), out.cons()));
    return Program("npu2_1col", rt, {w});
}

// test/python/runtimesequence.py task_group_drain_sequence: a TaskGroup closes with the awaits of
// its waited tasks, then frees of all of them (ActiveSequence.emit_transfer, #3387).
Program task_group_design() {
    const auto ty = tensor<std::int32_t>({1024});
    ObjectFifo of0(ty, "of0"), of1(ty, "of1"), iof2(ty, "iof2");
    Worker w([](ObjectFifoHandle, ObjectFifoHandle, ObjectFifoHandle) {}, fn_args(of0.cons(), of1.prod(), iof2.prod()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, ObjectFifoHandle in0, ObjectFifoHandle out1,
           ObjectFifoHandle out2) {
            TaskGroup tg;
            in0.fill(a, {.group = &tg});
            out1.drain(b, {.wait = true, .group = &tg});
            out2.drain(c, {.wait = true, .group = &tg});
            tg.finish();
        },
        fn_args(ty, ty, ty, of0.prod(), of1.cons(), iof2.cons()));
    return Program("npu2", rt, {w});
}

// test/python/placer_tests.py compute_one_in_two_links: each forward() gets its own MemTile, the
// link's fifos and aie.objectfifo.link print at the sort position of its first fifo.
Program forward_design() {
    const auto ty = tensor<std::int32_t>({1024});
    ObjectFifo of0(ty, "of0"), in1(ty, "in1"), in2(ty, "in2");
    ObjectFifo out1 = in1.cons().forward(AnyMemTile, ty, std::nullopt, "out1");
    ObjectFifo out2 = in2.cons().forward(AnyMemTile, ty, std::nullopt, "out_2");
    Worker w([](ObjectFifoHandle) {}, fn_args(of0.cons()));
    Runtime rt(
        [](RuntimeData a, RuntimeData b, RuntimeData c, RuntimeData d, RuntimeData e, ObjectFifoHandle h0,
           ObjectFifoHandle h1, ObjectFifoHandle h2, ObjectFifoHandle o1, ObjectFifoHandle o2) {
            h0.fill(a);
            h1.fill(b);
            h2.fill(c);
            o1.drain(d, {.wait = true});
            o2.drain(e, {.wait = true});
        },
        fn_args(ty, ty, ty, ty, ty, of0.prod(), in1.prod(), in2.prod(), out1.cons(), out2.cons()));
    return Program("npu2", rt, {w});
}

// iron-mlir-golden.md §1.10: the classic vector_scalar_mul, its inner loop written with range_.
Program vector_scalar_mul_design(bool use_range) {
    const auto tile_ty = tensor<std::int16_t>({1024}), tensor_ty = tensor<std::int16_t>({4096});
    const auto scalar_ty = tensor<std::int32_t>({1});
    ObjectFifo of_in(tile_ty, "in"), of_factor(scalar_ty, "infactor"), of_out(tile_ty, "out");
    Kernel scale("vector_scalar_mul_vector", &noop_scale, {tile_ty, tile_ty, scalar_ty, scalar<std::int32_t>()});
    Worker w(
        [use_range](ObjectFifoHandle i, ObjectFifoHandle f, ObjectFifoHandle o, Kernel k) {
            auto ef = f.acquire(1);
            auto step = [&](std::int64_t) {
                auto ei = i.acquire(1);
                auto eo = o.acquire(1);
                k(ei, eo, ef, 1024);
                i.release(1);
                o.release(1);
            };
            if (use_range)
                range_(4, step);
            else
                for (int n = 0; n < 4; ++n) step(n);
            f.release(1);
        },
        fn_args(of_in.cons(), of_factor.cons(), of_out.prod(), scale));
    Runtime rt(
        [](RuntimeData a, RuntimeData f, RuntimeData c, ObjectFifoHandle ih, ObjectFifoHandle fh, ObjectFifoHandle oh) {
            ih.fill(a);
            fh.fill(f);
            oh.drain(c, {.wait = true});
        },
        fn_args(tensor_ty, scalar_ty, tensor_ty, of_in.prod(), of_factor.prod(), of_out.cons()));
    return Program("npu1_1col", rt, {w});
}

// iron-mlir-golden.md §1.3 (R), test/python/buffer_resolution.py test 1: `scale = rtp[0]` in the body
// is an index constant and a memref.load (python/iron/buffer.py Buffer.__getitem__), kept although
// nothing uses it.
const char* const kRtpLoadGolden = R"MLIR(module {
  aie.device(npu1_1col) {
    %logical_core = aie.logical_tile<CoreTile>(?, ?)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    %logical_shim_noc_0 = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @in(%logical_shim_noc, {%logical_core}, 2 : i32) : !aie.objectfifo<memref<64xi32>>  
    aie.objectfifo @out(%logical_core, {%logical_shim_noc_0}, 2 : i32) : !aie.objectfifo<memref<64xi32>>  
    %my_rtp = aie.buffer(%logical_core) {sym_name = "my_rtp"} : memref<16xi32> 
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %c0_1 = arith.constant 0 : index
        %1 = memref.load %my_rtp[%c0_1] : memref<16xi32>
        %2 = aie.objectfifo.acquire @in(Consume, 1) : !aie.objectfifosubview<memref<64xi32>>
        %3 = aie.objectfifo.subview.access %2[0] : !aie.objectfifosubview<memref<64xi32>> -> memref<64xi32>
        %4 = aie.objectfifo.acquire @out(Produce, 1) : !aie.objectfifosubview<memref<64xi32>>
        %5 = aie.objectfifo.subview.access %4[0] : !aie.objectfifosubview<memref<64xi32>> -> memref<64xi32>
        aie.objectfifo.release @in(Consume, 1)
        aie.objectfifo.release @out(Produce, 1)
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<64xi32>, %arg1: memref<64xi32>) {
      %c7_i32 = arith.constant 7 : i32
      aiex.npu.rtp_write(@my_rtp, 0, %c7_i32) : i32
      %c3_i32 = arith.constant 3 : i32
      aiex.npu.rtp_write(@my_rtp, 1, %c3_i32) : i32
      %1 = aiex.dma_configure_task_for @in {
        aie.dma_bd(%arg0 : memref<64xi32> offset = 0 len = 64 sizes = [1, 1, 1, 64] strides = [0, 0, 0, 1])
        aie.end
      }
      aiex.dma_start_task(%1)
      %2 = aiex.dma_configure_task_for @out {
        aie.dma_bd(%arg1 : memref<64xi32> offset = 0 len = 64 sizes = [1, 1, 1, 64] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%2)
      aiex.dma_await_task(%2)
      aiex.dma_free_task(%1)
      aiex.dma_free_task(%2)
    }
  }
}
)MLIR";

Program rtp_load_design() {
    Buffer rtp = Buffer(tensor<std::int32_t>({16}), "my_rtp").use_write_rtp();
    return test::passthrough({.buffers = {rtp},
                              .type = tensor<std::int32_t>({64}),
                              .body =
                                  [rtp](ObjectFifoHandle i, ObjectFifoHandle o) {
                                      [[maybe_unused]] const std::int32_t scale = rtp.at<std::int32_t>(0);
                                      i.acquire(1);
                                      o.acquire(1);
                                      i.release(1);
                                      o.release(1);
                                  },
                              .seq =
                                  [rtp](RuntimeData a, RuntimeData b, ObjectFifoHandle ih, ObjectFifoHandle oh) {
                                      rtp[0] = 7;
                                      rtp[1] = 3;
                                      ih.fill(a);
                                      oh.drain(b, {.wait = true});
                                  },
                              .host_elements = 64,
                              .worker = {}});
}

// iron-mlir-golden.md §1.8 (R), test/python/worker_buffer_sharing.py, unplaced: `buf[0] = 1` is an
// index constant, the value constant and memref.store (Buffer.__setitem__); `x = buf[0]` a load.
const char* const kSharedBufferGolden = R"MLIR(module {
  aie.device(npu2_1col) {
    %logical_core = aie.logical_tile<CoreTile>(0, 2)
    %logical_core_0 = aie.logical_tile<CoreTile>(0, 3)
    %logical_shim_noc = aie.logical_tile<ShimNOCTile>(?, ?)
    aie.objectfifo @out(%logical_core_0, {%logical_shim_noc}, 2 : i32) : !aie.objectfifo<memref<64xi32>>  
    %shared_l1 = aie.buffer(%logical_core) {sym_name = "shared_l1"} : memref<64xi32> 
    %0 = aie.core(%logical_core) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %c0_1 = arith.constant 0 : index
        %c1_i32 = arith.constant 1 : i32
        memref.store %c1_i32, %shared_l1[%c0_1] : memref<64xi32>
      }
      aie.end
    }
    %1 = aie.core(%logical_core_0) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %arg0 = %c0 to %c9223372036854775807 step %c1 {
        %2 = aie.objectfifo.acquire @out(Produce, 1) : !aie.objectfifosubview<memref<64xi32>>
        %3 = aie.objectfifo.subview.access %2[0] : !aie.objectfifosubview<memref<64xi32>> -> memref<64xi32>
        %c0_1 = arith.constant 0 : index
        %4 = memref.load %shared_l1[%c0_1] : memref<64xi32>
        aie.objectfifo.release @out(Produce, 1)
      }
      aie.end
    }
    aie.runtime_sequence(%arg0: memref<64xi32>) {
      %2 = aiex.dma_configure_task_for @out {
        aie.dma_bd(%arg0 : memref<64xi32> offset = 0 len = 64 sizes = [1, 1, 1, 64] strides = [0, 0, 0, 1])
        aie.end
      } {issue_token = true}
      aiex.dma_start_task(%2)
      aiex.dma_await_task(%2)
      aiex.dma_free_task(%2)
    }
  }
}
)MLIR";

Program shared_buffer_design() {
    const auto ty = tensor<std::int32_t>({64});
    ObjectFifo out(ty, "out");
    Buffer shared(ty, "shared_l1", {}, Tile(0, 2));
    Worker prod([](Buffer b) { b.at<std::int32_t>(0) = 1; }, fn_args(shared), {.tile = Tile(0, 2)});
    Worker cons(
        [](ObjectFifoHandle o, Buffer b) {
            o.acquire(1);
            [[maybe_unused]] const std::int32_t x = b.at<std::int32_t>(0);
            o.release(1);
        },
        fn_args(out.prod(), shared), {.tile = Tile(0, 3)});
    Runtime rt([](RuntimeData c, ObjectFifoHandle oh) { oh.drain(c, {.wait = true}); }, fn_args(ty, out.cons()));
    return Program("npu2_1col", rt, {prod, cons});
}

} // namespace

TEST_CASE("export: barrier.py matches its CHECK lines and the reconstructed module", "[export]") {
    const std::string m = export_mlir(barrier_design());
    CHECK(file_check(m, {"CHECK: module {", "CHECK: aie.device(npu2_1col) {",
                         "CHECK: %[[TILE:.*]] = aie.logical_tile<CoreTile>(?, ?)",
                         "CHECK: %[[LOCK:.*]] = aie.lock(%[[TILE]])", "CHECK: %{{.*}} = aie.core(%[[TILE]]) {",
                         "CHECK: %{{.*}} = arith.constant 1 : i32", "CHECK: aie.use_lock(%[[LOCK]], Acquire, %{{.*}})",
                         "CHECK: %{{.*}} = arith.constant 1 : i32", "CHECK: aie.use_lock(%[[LOCK]], Release, %{{.*}})",
                         "CHECK: aie.runtime_sequence(%arg0: memref<16xi32>) {",
                         "CHECK: aiex.set_lock(%[[LOCK]], 1)"}) == "");
    CHECK(m == kBarrierGolden);
}

TEST_CASE("export: buffer.py matches its CHECK lines and the reconstructed module", "[export]") {
    ExportOptions o;
    o.link_with["passThroughLine"] = "passThrough.cc.o";
    const std::string m = export_mlir(buffer_design(), o);
    CHECK(file_check(m, {"CHECK: module {", "CHECK: aie.device(npu2_1col) {",
                         "CHECK: %[[TILE:.*]] = aie.logical_tile<CoreTile>(?, ?)",
                         "CHECK: %uninit_local_buf = aie.buffer(%[[TILE]]) {sym_name = \"uninit_local_buf\"} : "
                         "memref<4096xui8>",
                         "CHECK: %init_local_buf = aie.buffer(%[[TILE]]) {sym_name = \"init_local_buf\"} : "
                         "memref<4096xui8> = dense<0>"}) == "");
    CHECK(m == kBufferGolden);
}

TEST_CASE("export: runtimesequence.py task_group_drain_sequence matches its CHECK lines and the reconstructed module",
          "[export]") {
    const std::string m = export_mlir(task_group_design());
    CHECK(file_check(m, {"CHECK: aiex.dma_start_task([[T0:%.*]])", "CHECK: aiex.dma_start_task([[T1:%.*]])",
                         "CHECK: aiex.dma_start_task([[T2:%.*]])", "CHECK: aiex.dma_await_task([[T1]])",
                         "CHECK: aiex.dma_await_task([[T2]])", "CHECK: aiex.dma_free_task([[T0]])"}) == "");
    CHECK(m == kTaskGroupGolden);
}

TEST_CASE("export: placer_tests.py compute_one_in_two_links matches its CHECK lines and the reconstructed module",
          "[export]") {
    const std::string m = export_mlir(forward_design());
    CHECK(file_check(m, {"CHECK: aie.logical_tile<CoreTile>", "CHECK: aie.logical_tile<MemTile>",
                         "CHECK: aie.logical_tile<MemTile>"}) == "");
    CHECK(m == kForwardGolden);
}

TEST_CASE("export: vector_scalar_mul with range_ matches the reconstructed module, a C++ loop unrolls", "[export]") {
    ExportOptions o;
    o.link_with["vector_scalar_mul_vector"] = "scale.o";
    CHECK(export_mlir(vector_scalar_mul_design(true), o) == kVectorScalarMulGolden);
    // control_flow.py: range_ is an scf.for inside the worker's loop.
    CHECK(file_check(export_mlir(vector_scalar_mul_design(true), o),
                     {"CHECK: scf.for %arg1 = %c0_{{.*}} to %c4 step %c1_{{.*}} {"}) == "");
    const std::string unrolled = export_mlir(vector_scalar_mul_design(false), o);
    std::size_t calls = 0;
    for (std::size_t p = 0; (p = unrolled.find("func.call @vector_scalar_mul_vector", p)) != std::string::npos; ++p)
        ++calls;
    CHECK(calls == 4);
    CHECK(unrolled.find("scf.for %arg1") == std::string::npos);
}

TEST_CASE("export: buffer_resolution.py reads an RTP in the body as memref.load", "[export]") {
    const std::string m = export_mlir(rtp_load_design());
    CHECK(file_check(m, {"CHECK-LABEL: scf.for", "CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index",
                         "CHECK-NEXT: %{{.*}} = memref.load %my_rtp[%[[C0]]] : memref<16xi32>",
                         "CHECK: aiex.npu.rtp_write(@my_rtp, 0, %{{.*}}) : i32"}) == "");
    CHECK(m == kRtpLoadGolden);
}

TEST_CASE("export: worker_buffer_sharing.py stores and loads a shared Buffer", "[export]") {
    const std::string m = export_mlir(shared_buffer_design());
    // The test's CHECK lines for the unplaced module.
    CHECK(file_check(m, {"CHECK: %[[PTILE:.+]] = aie.logical_tile<CoreTile>(0, 2)",
                         "CHECK: %[[CTILE:.+]] = aie.logical_tile<CoreTile>(0, 3)",
                         "CHECK: %[[BUF:.+]] = aie.buffer(%[[PTILE]]) {sym_name = \"shared_l1\"}",
                         "CHECK: aie.core(%[[PTILE]])", "CHECK: memref.store {{.*}}, %[[BUF]]",
                         "CHECK: aie.core(%[[CTILE]])", "CHECK: memref.load %[[BUF]]"}) == "");
    CHECK(m == kSharedBufferGolden);
}

namespace {

// test/python/objFifo_iron_dma_channel_pin.py: a producer worker and `n_cons` consumer workers on
// one fifo, its ends pinned as given (std::nullopt: first-free assignment).
Program channel_pin_design(const std::string& name, std::optional<int> prod_channel,
                           const std::vector<std::optional<int>>& cons_channels) {
    const auto ty = tensor<std::int32_t>({16});
    ObjectFifo of(ty, name);
    auto body = [](ObjectFifoHandle h) {
        range_(4, [&](std::int64_t) {
            h.acquire(1);
            h.release(1);
        });
    };
    std::vector<Worker> workers{Worker(body, fn_args(of.prod({.channel = prod_channel})), {.tile = Tile(0, 2)})};
    for (std::size_t i = 0; i < cons_channels.size(); ++i)
        workers.emplace_back(body, fn_args(of.cons({.channel = cons_channels[i]})),
                             WorkerOptions{.tile = Tile(0, 3 + static_cast<int>(i))});
    Runtime rt([] {}, fn_args());
    return Program("npu1_1col", rt, workers);
}

} // namespace

TEST_CASE("export: objFifo_iron_dma_channel_pin.py prints channel pins as prod_dma_channel and cons_dma_channels",
          "[export]") {
    // ObjectFifo.resolve (python/iron/dataflow/objectfifo.py) stamps the pins onto the create op;
    // the test's CHECK-DAG lines, verbatim.
    CHECK(file_check(export_mlir(channel_pin_design("of_pin", 1, {1})),
                     {"CHECK-DAG: aie.objectfifo @of_pin({{.*}}) {cons_dma_channels = array<i32: 1>, "
                      "prod_dma_channel = 1 : i32} : !aie.objectfifo<memref<16xi32>>"}) == "");
    // An unpinned consumer next to a pinned one is -1; an unpinned producer prints no attribute. (The
    // lit test pins channel 2, which only resolve_program accepts: a compute tile has S2MM channels 0
    // and 1, and the export resolves first, as the stateful transform would refuse it
    // (test/objectFifo-stateful-transform/dma_channel_pinning/bad_channel_out_of_range.mlir).)
    const std::string partial = export_mlir(channel_pin_design("of_partial", std::nullopt, {std::nullopt, 1}));
    CHECK(file_check(partial, {"CHECK-DAG: aie.objectfifo @of_partial({{.*}}) {cons_dma_channels = array<i32: -1, "
                               "1>} : !aie.objectfifo<memref<16xi32>>"}) == "");
    CHECK_THROWS_WITH(export_mlir(channel_pin_design("of_partial", std::nullopt, {std::nullopt, 2})),
                      Catch::Contains("pinned S2MM DMA channel 2 is out of range"));
    CHECK(partial.find("prod_dma_channel") == std::string::npos);
    // Nothing pinned: neither attribute.
    const std::string none = export_mlir(channel_pin_design("of_free", std::nullopt, {std::nullopt}));
    CHECK(none.find("dma_channel") == std::string::npos);
    // Port::dma(n) is the same pin.
    const std::string ported = export_mlir(test::passthrough({.type = tensor<std::int32_t>({16}),
                                                              .body =
                                                                  [](ObjectFifoHandle i, ObjectFifoHandle o) {
                                                                      i.acquire(1);
                                                                      o.acquire(1);
                                                                      i.release(1);
                                                                      o.release(1);
                                                                  },
                                                              .in_cons = {.port = Port::dma(1)},
                                                              .out_prod = {.port = Port::dma(0)},
                                                              .host_elements = 16,
                                                              .program = "ported"}));
    CHECK(file_check(ported, {"CHECK-DAG: aie.objectfifo @in({{.*}}) {cons_dma_channels = array<i32: 1>} : "
                              "!aie.objectfifo<memref<16xi32>>",
                              "CHECK-DAG: aie.objectfifo @out({{.*}}) {prod_dma_channel = 0 : i32} : "
                              "!aie.objectfifo<memref<16xi32>>"}) == "");
}

TEST_CASE("export: the generic form spells each op with its ODS attribute names and explicit terminators",
          "[export][generic]") {
    ExportOptions o;
    o.generic = true;
    const std::string m = export_mlir(channel_pin_design("of_pin", 1, {1}), o);
    // builtin.module and aie.device (AIEDevice npu1_1col = 5, AIEAttrs.td), the device's implicit
    // aie.end (SingleBlockImplicitTerminator<"EndOp">) printed; logical tiles (AIETileType CoreTile =
    // 0); ObjectFifoCreateOp's arguments by name, sorted as MLIR sorts a dictionary; scf.for with
    // its block argument and the scf.yield its pretty form elides; acquire/release with
    // ObjectFifoPort Produce = 0, Consume = 1; aie.core's result.
    CHECK(
        file_check(
            m,
            {"CHECK: \"builtin.module\"() ({",
             "CHECK-NEXT: \"aie.device\"() ({",
             "CHECK-NEXT: %[[P:.*]] = \"aie.logical_tile\"() {col = 0 : i32, row = 2 : i32, tile_type = 0 : i32} "
             ": () -> index",
             "CHECK-NEXT: %[[C:.*]] = \"aie.logical_tile\"() {col = 0 : i32, row = 3 : i32, tile_type = 0 : i32} "
             ": () -> index",
             "CHECK-NEXT: \"aie.objectfifo\"(%[[P]], %[[C]]) {cons_dma_channels = array<i32: 1>, "
             "dimensionsFromStreamPerConsumer = #aie<bd_dim_layout_array_array{{\\[\\[\\]\\]}}>, dimensionsToStream = "
             "#aie<bd_dim_layout_array[]>, elemNumber = 2 : i32, elemType = !aie.objectfifo<memref<16xi32>>, "
             "prod_dma_channel = 1 : i32, sym_name = \"of_pin\"} : (index, index) -> ()",
             "CHECK-NEXT: %{{.*}} = \"aie.core\"(%[[P]]) ({",
             "CHECK-NEXT: %[[LO:.*]] = \"arith.constant\"() {value = 0 : index} : () -> index",
             "CHECK-NEXT: %[[HI:.*]] = \"arith.constant\"() {value = 9223372036854775807 : index} : () -> index",
             "CHECK-NEXT: %[[ST:.*]] = \"arith.constant\"() {value = 1 : index} : () -> index",
             "CHECK-NEXT: \"scf.for\"(%[[LO]], %[[HI]], %[[ST]]) ({",
             "CHECK-NEXT: ^bb0(%arg0: index):",
             "CHECK: \"scf.for\"(",
             "CHECK-NEXT: ^bb0(%arg1: index):",
             "CHECK-NEXT: %{{.*}} = \"aie.objectfifo.acquire\"() {objFifo_name = @of_pin, port = 0 : i32, size = "
             "1 : i32} : () -> !aie.objectfifosubview<memref<16xi32>>",
             "CHECK-NEXT: %{{.*}} = \"aie.objectfifo.subview.access\"(%{{.*}}) {index = 0 : i32} : "
             "(!aie.objectfifosubview<memref<16xi32>>) -> memref<16xi32>",
             "CHECK-NEXT: \"aie.objectfifo.release\"() {objFifo_name = @of_pin, port = 0 : i32, size = 1 : i32} "
             ": () -> ()",
             "CHECK-NEXT: \"scf.yield\"() : () -> ()",
             "CHECK-NEXT: }) : (index, index, index) -> ()",
             "CHECK-NEXT: \"scf.yield\"() : () -> ()",
             "CHECK-NEXT: }) : (index, index, index) -> ()",
             "CHECK-NEXT: \"aie.end\"() : () -> ()",
             "CHECK-NEXT: }) : (index) -> index",
             "CHECK: \"aie.objectfifo.release\"() {objFifo_name = @of_pin, port = 1 : i32, size = 1 : i32}",
             "CHECK: \"aie.runtime_sequence\"() ({",
             "CHECK-NEXT: }) : () -> ()",
             "CHECK-NEXT: \"aie.end\"() : () -> ()",
             "CHECK-NEXT: }) {device = 5 : i32} : () -> ()",
             "CHECK-NEXT: }) : () -> ()"}) == "");
    // The pretty form of the same design is unchanged by the option.
    CHECK(export_mlir(channel_pin_design("of_pin", 1, {1})).starts_with("module {\n  aie.device(npu1_1col) {\n"));
}

TEST_CASE("export: the generic form of the runtime sequence, buffers, barriers and kernel declarations",
          "[export][generic]") {
    ExportOptions o;
    o.generic = true;
    o.link_with["passThroughLine"] = "passThrough.cc.o";
    const std::string b = export_mlir(barrier_design(), o);
    // LockAction Acquire = 0 / Release = 1; aiex.set_lock's I32Attr value; the sequence's block
    // arguments typed on its ^bb0 label.
    CHECK(file_check(b, {"CHECK: %[[LOCK:.*]] = \"aie.lock\"(%{{.*}}) : (index) -> index",
                         "CHECK: \"aie.use_lock\"(%[[LOCK]], %{{.*}}) {action = 0 : i32} : (index, i32) -> ()",
                         "CHECK: \"aie.use_lock\"(%[[LOCK]], %{{.*}}) {action = 1 : i32} : (index, i32) -> ()",
                         "CHECK: \"aie.runtime_sequence\"() ({", "CHECK-NEXT: ^bb0(%arg0: memref<16xi32>):",
                         "CHECK: \"aiex.set_lock\"(%[[LOCK]]) {value = 1 : i32} : (index) -> ()"}) == "");
    const std::string f = export_mlir(buffer_design(), o);
    // BufferOp's initial_value is an ElementsAttr of the buffer's type; a func.func declaration has
    // an empty body region, its signature is function_type, private is sym_visibility.
    CHECK(file_check(f, {"CHECK: %init_local_buf = \"aie.buffer\"(%{{.*}}) {initial_value = dense<0> : "
                         "memref<4096xui8>, sym_name = \"init_local_buf\"} : (index) -> memref<4096xui8>",
                         "CHECK: \"func.func\"() ({",
                         "CHECK-NEXT: }) {function_type = ({{.*}}) -> (), link_with = \"passThrough.cc.o\", "
                         "sym_name = \"passThroughLine\", sym_visibility = \"private\"} : () -> ()"}) == "");
    const std::string t = export_mlir(task_group_design(), o);
    // DMABDOp: its five operand groups (AttrSizedOperandSegments) and the static_* attributes;
    // dma_configure_task_for's alloc symbol and its index result.
    CHECK(file_check(t, {"CHECK: %[[T:.*]] = \"aiex.dma_configure_task_for\"() ({",
                         "CHECK-NEXT: \"aie.dma_bd\"(%arg{{.}}) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, "
                         "static_len = {{[0-9]+}} : i32, static_offset = 0 : i32, static_sizes = array<i64: "
                         "{{.*}}>, static_strides = array<i64: {{.*}}>} : (memref<{{.*}}>) -> ()",
                         "CHECK-NEXT: \"aie.end\"() : () -> ()", "CHECK-NEXT: }) {alloc = @{{.*}}} : () -> index",
                         "CHECK-NEXT: \"aiex.dma_start_task\"(%[[T]]) : (index) -> ()"}) == "");
}

namespace {

void scale_by(const std::int32_t*, std::int32_t*, std::int16_t) {}

// A worker passing ScratchpadParameter `scale` (i32, narrowed to the kernel's i16) to a kernel; the
// sequence syncs the parameters and fills with offset_parameter `off` (declared by use only).
Program scratchpad_export_design() {
    const auto ty = tensor<std::int32_t>({8});
    ScratchpadParameter scale("scale", DType::i32), off("off", DType::i32);
    ObjectFifo in(ty, "in"), out(ty, "out");
    Kernel k("scale_by", &scale_by, {ty, ty, scalar<std::int16_t>()});
    Worker w(
        [](ObjectFifoHandle i, ObjectFifoHandle o, ScratchpadParameter p, Kernel kern) {
            const auto v = static_cast<std::int16_t>(p.read<std::int32_t>());
            auto a = i.acquire(1);
            auto b = o.acquire(1);
            kern(a, b, v);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), out.prod(), scale, k), {.name = "w"});
    Runtime rt(
        [off](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
            sync_parameters();
            i.fill(a, {.tap = TensorAccessPattern({32}, 0, {1, 1, 1, 8}, {0, 0, 0, 1}), .offset_parameter = off});
            o.drain(b, {.wait = true});
        },
        fn_args(tensor<std::int32_t>({32}), ty, in.prod(), out.cons()));
    return Program("npu2_1col", rt, {w}, "spad");
}

} // namespace

// python/iron/program.py resolve_program: fn_args parameters at module scope before aie.device,
// offset_parameter-only ones after it; scratchpad_parameter.py read() -> aiex.read_scratchpad_parameter;
// runtime.py sync_parameters() -> aiex.sync_scratchpad_parameters_from_host; dmatask.py
// offset_parameter= -> the dma_bd's offset_parameter attribute. Forms as mlir-aie's
// test/npu-xrt/scratchpad_params/aie.mlir and scratchpad_addr_offset/aie.mlir write them; generic
// attribute names from AIEX.td (ScratchpadParameterOp sym_name/type, ReadScratchpadParameterOp
// parameter) and AIEOps.td (DMABDOp offset_parameter).
TEST_CASE("export: ScratchpadParameter declarations, reads, the sync and offset_parameter", "[export][scratchpad]") {
    const std::string m = export_mlir(scratchpad_export_design());
    const auto l = lines_of(m);
    REQUIRE(l.size() > 3);
    CHECK(l[0] == "module {");
    CHECK(l[1] == "  aiex.scratchpad_parameter @scale : i32");
    CHECK(l[2] == "  aie.device(npu2_1col) {");
    CHECK(l[l.size() - 2] == "  aiex.scratchpad_parameter @off : i32");
    CHECK(file_check(m, {"CHECK: %[[V:.+]] = aiex.read_scratchpad_parameter @scale : i32",
                         "CHECK: %[[N:.+]] = arith.trunci %[[V]] : i32 to i16",
                         "CHECK: func.call @scale_by(%{{.*}}, %{{.*}}, %[[N]]) : (memref<8xi32>, memref<8xi32>, i16)",
                         "CHECK: aie.runtime_sequence(", "CHECK-NEXT: aiex.sync_scratchpad_parameters_from_host",
                         "CHECK: aie.dma_bd(%arg0 : memref<32xi32> offset = 0 len = 8 sizes = [1, 1, 1, 8] strides = "
                         "[0, 0, 0, 1]) {offset_parameter = @off}"}) == "");
    const std::string g = export_mlir(scratchpad_export_design(), {.generic = true});
    CHECK(g.find("\"aiex.scratchpad_parameter\"() {sym_name = \"scale\", type = i32} : () -> ()") !=
          std::string::npos);
    CHECK(g.find("= \"aiex.read_scratchpad_parameter\"() {parameter = @scale} : () -> i32") != std::string::npos);
    CHECK(g.find("\"aiex.sync_scratchpad_parameters_from_host\"() : () -> ()") != std::string::npos);
    CHECK(g.find("offset_parameter = @off") != std::string::npos);
}

// The body copies elements (out_elem[i] = in_elem[i], as scratchpad_addr_offset/aie_design.py):
// memref.load then memref.store of the loaded value. Under fills where both slots held the same
// value the copy changed nothing, and an earlier export dropped the stores.
TEST_CASE("export: an element copied in the body is memref.load then memref.store of the load", "[export]") {
    const auto ty = tensor<std::int32_t>({8});
    auto design = [&](bool add_one) {
        return test::passthrough({.type = ty,
                                  .body =
                                      [add_one](ObjectFifoHandle i, ObjectFifoHandle o) {
                                          auto a = i.acquire(1);
                                          auto b = o.acquire(1);
                                          for (std::int64_t n = 0; n < 2; ++n)
                                              b.at<std::int32_t>(n) = a.at<std::int32_t>(n) + (add_one ? 1 : 0);
                                          i.release(1);
                                          o.release(1);
                                      },
                                  .host_elements = ty.elements(),
                                  .program = "t",
                                  .worker = {.name = "copy"}});
    };
    const std::string m = export_mlir(design(false));
    CHECK(file_check(m, {"CHECK: %[[IN:.+]] = aie.objectfifo.subview.access %{{.*}}[0] : "
                         "!aie.objectfifosubview<memref<8xi32>> -> memref<8xi32>",
                         "CHECK: %[[OUT:.+]] = aie.objectfifo.subview.access",
                         "CHECK-NEXT: %[[I0:.+]] = arith.constant 0 : index",
                         "CHECK-NEXT: %[[V0:.+]] = memref.load %[[IN]][%[[I0]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[J0:.+]] = arith.constant 0 : index",
                         "CHECK-NEXT: memref.store %[[V0]], %[[OUT]][%[[J0]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[I1:.+]] = arith.constant 1 : index",
                         "CHECK-NEXT: %[[V1:.+]] = memref.load %[[IN]][%[[I1]]] : memref<8xi32>",
                         "CHECK-NEXT: %[[J1:.+]] = arith.constant 1 : index",
                         "CHECK-NEXT: memref.store %[[V1]], %[[OUT]][%[[J1]]] : memref<8xi32>",
                         "CHECK-NEXT: aie.objectfifo.release @in(Consume, 1)"}) == "");
    // in[n] + 1 (refused before element arithmetic was exported): IRON's `x + 1` makes the integer an
    // arith.constant of x's type, then arith.addi, then the store's index constant and memref.store.
    CHECK(file_check(export_mlir(design(true)),
                     {"CHECK: %[[IN:.+]] = aie.objectfifo.subview.access",
                      "CHECK: %[[OUT:.+]] = aie.objectfifo.subview.access",
                      "CHECK-NEXT: %[[I0:.+]] = arith.constant 0 : index",
                      "CHECK-NEXT: %[[V0:.+]] = memref.load %[[IN]][%[[I0]]] : memref<8xi32>",
                      "CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32",
                      "CHECK-NEXT: %[[S0:.+]] = arith.addi %[[V0]], %[[C1]] : i32",
                      "CHECK-NEXT: %[[J0:.+]] = arith.constant 0 : index",
                      "CHECK-NEXT: memref.store %[[S0]], %[[OUT]][%[[J0]]] : memref<8xi32>"}) == "");
}
