#pragma once
// The tests' most common design: shim -> fifo 'in' -> one worker -> fifo 'out' -> shim, with the
// runtime sequence filling 'in' from the first host tensor and draining 'out' into the second.
// What the tests vary is a field of Passthrough; the defaults give the plain copy.
#include "npusim/iron.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::test {

using F = iron::ObjectFifoHandle;
/// A worker body on the consumer handle of 'in' and the producer handle of 'out'.
using PassBody = std::function<void(F, F)>;
/// A runtime sequence on the two host tensors and the producer of 'in' / consumer of 'out'.
using PassSequence = std::function<void(iron::RuntimeData, iron::RuntimeData, F, F)>;

/// A worker body: acquire one object of each fifo, copy the bytes both hold, release both.
void copy_one(F in, F out);
/// A worker body: acquire one object of each fifo and release both, moving no data (the
/// objects are held until the releases).
void acquire_release(F in, F out);
/// A worker body: acquire one object of each fifo, call `k(in_object, out_object)`, release both.
PassBody kernel_body(iron::Kernel k);
/// A runtime sequence: fill 'in' from a, drain 'out' into b and wait.
void fill_drain(iron::RuntimeData a, iron::RuntimeData b, F in, F out);

struct Passthrough {
    /// Passed to the worker after the two handles (its body reaches them through captures);
    /// with none the worker takes the two handles only.
    std::vector<iron::Buffer> buffers = {};
    iron::TensorType type = iron::tensor<std::int32_t>({256}); ///< object type of both fifos
    std::optional<iron::TensorType> out_type = {}; ///< object type of 'out' when it differs
    int depth = 2; ///< both fifos' depth
    PassBody body = copy_one;
    PassSequence seq = fill_drain;
    iron::FifoOptions in = {}; ///< options of fifo 'in'
    iron::FifoOptions out = {};
    /// Options of the four handles: the runtime's in.prod() and out.cons(), the worker's
    /// in.cons() and out.prod().
    iron::ProdOptions in_prod = {};
    iron::ConsOptions in_cons = {};
    iron::ProdOptions out_prod = {};
    iron::ConsOptions out_cons = {};
    /// Elements of each host tensor (of its fifo's dtype); 0: four objects.
    std::int64_t host_elements = 0;
    /// Elements of the second (drained) host tensor when it differs; 0: as the first.
    std::int64_t out_host_elements = 0;
    /// The device, when the design is built for a DeviceSpec (overrides `device`).
    const model::DeviceSpec* spec = nullptr;
    std::string_view device = "npu1_1col";
    std::string_view program = "design"; ///< the Program's name (Program's own default)
    std::string_view in_name = "in";
    std::string_view out_name = "out";
    // Last, and the names above are views: GCC 12 warns (-Wmaybe-uninitialized, falsely) about the
    // strings of members that come before a member whose initialisation may throw.
    iron::WorkerOptions worker = {.name = "w"};
};

iron::Program passthrough(const Passthrough& p = {});

} // namespace npusim::test
