// MLIR export (frontend/src/export): the module printed for a design against mlir-aie's own IRON
// lit tests (test/python/*.py @ 3ca0193c, their FileCheck CHECK lines) and the full modules
// reconstructed from IRON's emitters in /work/shared/reference/iron-mlir-golden.md (§1.x (R)).
// The goldens below are copied verbatim from that document, trailing spaces included.
// The designs are in tests/support/ExportDesigns.cpp; the other export forms (channel pins, the
// generic form, scratchpad parameters, element copies) in MlirExportForms_test.cpp.
#include "support/ExportDesigns.hpp"
#include "support/FileCheck.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace npusim;
using namespace npusim::iron;
using npusim::test::file_check;

namespace {

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

} // namespace

using namespace npusim::test;

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
