// The designs the MLIR export tests print: IRON lit tests (test/python/*.py @ 3ca0193c) and the
// designs of /work/shared/reference/iron-mlir-golden.md, written with npusim's IRON API.
#pragma once

#include "npusim/iron.hpp"

namespace npusim::test {

iron::Program barrier_design();                        // test/python/barrier.py
iron::Program buffer_design();                         // test/python/buffer.py
iron::Program task_group_design();                     // runtimesequence.py task_group_drain_sequence
iron::Program forward_design();                        // placer_tests.py compute_one_in_two_links
iron::Program vector_scalar_mul_design(bool use_range); // iron-mlir-golden.md 1.10
iron::Program rtp_load_design();                       // buffer_resolution.py test 1
iron::Program shared_buffer_design();                  // worker_buffer_sharing.py, unplaced

} // namespace npusim::test
