#pragma once
// A random design made through the public design API: a pipeline from the host through
// stages and back, on a random device, with random element type, object size, depths, fill access
// pattern and sequence, and sometimes a fault planted on purpose (a kernel that throws or writes
// past its output, a body that over-acquires, releases too much or stops early, a sequence that
// fills too little or drains too much, a depth of 0, a tensor that is not a whole number of
// objects). A design without a fault is well formed: it must run and give exactly the output
// computed here, independently of the simulator (expected()).
//
//   host --fill[tap]--> f0 --stage--> f1 --stage--> ... --> fN --drain--> host out
//                        \--(broadcast)--> copy worker (+c) --> host out2
//
// Stages: a worker adding a constant to every element (in its body, or through a Kernel), a
// mem-tile forward, or a mem-tile split into 2..4 workers (each adding its own constant) joined back
// through a mem tile.
#include "Entropy.hpp"
#include "npusim/iron.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npusim::fuzz {

enum class Fault {
    None,
    KernelThrows, ///< the stage's kernel throws on its n-th call
    KernelOverrun, ///< the stage's kernel writes a few bytes past its output view
    BodyOverAcquire, ///< the body acquires one object more than its input's depth
    BodyExtraRelease, ///< the body releases two objects after acquiring one
    BodyStopsEarly, ///< a while_true=false body that handles one object too few
    FillFewer, ///< the sequence fills one object less than it drains
    DrainMore, ///< the sequence drains one object more than it fills
    NoDrainWait, ///< the drain is not awaited (output not checked)
    BadDepth, ///< a fifo of depth 0
    RaggedTensor, ///< the tensors hold half an object more than a whole number of objects
};

const char* fault_name(Fault f);

struct StagePlan {
    enum class Kind { Worker, Forward, SplitJoin } kind = Kind::Worker;
    int ways = 1; ///< SplitJoin branches
    std::vector<std::uint32_t> add; ///< constant added per branch (Worker: one)
    bool kernel = false; ///< through a Kernel, else in the body
    bool one_shot = false; ///< while_true=false, all objects in one body run
    int depth = 2; ///< depth of the stage's output fifo (and of split/join parts)
    bool transpose_objects = false; ///< Forward: the mem tile sends each object as [2, n/2] transposed
    Fault fault = Fault::None;
    int fault_at = 0; ///< KernelThrows: the call that throws; KernelOverrun: bytes past the end
};

struct Plan {
    std::uint64_t case_id = 0;
    std::string device;
    DType dtype = DType::u8;
    std::int64_t n = 64; ///< elements per object
    std::int64_t k = 4; ///< objects per run
    int depth0 = 2; ///< depth of the input fifo f0
    bool transpose_fill = false; ///< the fill reads the input as [rows, cols] column by column
    std::int64_t rows = 1, cols = 1;
    bool transpose_drain = false; ///< the drain writes the stream as [n, k] column by column (4-byte types)
    bool task_group = false; ///< fill and drain in an explicit TaskGroup
    bool broadcast = false;
    std::uint32_t broadcast_add = 0;
    std::vector<StagePlan> stages;
    Fault fault = Fault::None; ///< sequence-level fault
    std::vector<Fault> faults() const; ///< every fault planted (empty: well formed)
    bool well_formed() const { return faults().empty(); }
    std::int64_t tensor_elements() const;
    std::string describe() const; ///< one line, enough to see what was built
};

Plan make_plan(Entropy& e, std::uint64_t case_id = 0);

/// The design built from a plan with the public API, its host tensors and, when the plan is well
/// formed, the output tensors it must produce.
struct BuiltDesign {
    std::optional<iron::Program> program;
    std::vector<std::vector<std::uint8_t>> host;
    /// Per host tensor: its contents after a correct run, or nothing when not checked.
    std::vector<std::optional<std::vector<std::uint8_t>>> expected;
};

/// Builds the design (the API may refuse it with a DesignError) and its input from `seed`.
BuiltDesign build_design(const Plan& p, std::uint64_t seed);

/// The outputs of a well-formed plan for `input`, computed without the simulator: the fill's
/// access pattern, each stage's per-element addition (per branch of a split), the broadcast copy.
std::vector<std::vector<std::uint8_t>> expected_outputs(const Plan& p, const std::vector<std::uint8_t>& input);

} // namespace npusim::fuzz
