#pragma once
// A design built for one device and parameter set: its program, its runtime arguments, the
// seed-generated inputs and its golden reference — a plain C++ function (numpy-style, independent
// of the simulator) from the inputs to the expected outputs.
#include "npusim/frontend/Program.hpp"
#include "npusim/harness/OutputCheck.hpp"
#include "npusim/harness/Tensor.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <functional>
#include <string>
#include <vector>

namespace npusim::harness {

/// The expected contents of every output argument, computed from the inputs.
using ReferenceFn = std::function<Tensors(const Tensors& inputs)>;
/// The same for a design whose outputs change from one invocation to the next (state kept in the
/// array, e.g. a counter in a Buffer): `invocation` counts every run of the sequence since the
/// design was loaded, warm-up runs included, from 0.
using InvocationReferenceFn = std::function<Tensors(const Tensors& inputs, std::uint32_t invocation)>;

struct DesignInstance {
    iron::Program program;
    std::vector<ArgSpec> args; ///< one per runtime-sequence tensor argument, in order
    Tensors inputs; ///< seed-generated contents of every input argument
    ReferenceFn reference; ///< inputs -> expected contents of every output argument
    /// When set, used instead of `reference` for every invocation (see InvocationReferenceFn).
    InvocationReferenceFn reference_at;
    /// The host's ScratchpadParameter values for the run, by parameter name: the value's bits as
    /// the host library's ParameterScratchpad::write<T> takes them (T of at most 32 bits). A
    /// parameter the design declares but this map lacks is 0, as the library clears the scratchpad.
    std::map<std::string, std::uint32_t> scratchpad;

    /// scratchpad[name] = the bits of `value` (ParameterScratchpad::write).
    template <class T>
    void set_scratchpad(const std::string& name, T value) {
        static_assert(sizeof(T) <= 4, "a scratchpad parameter value has at most 32 bits");
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, sizeof(T));
        scratchpad[name] = bits;
    }
    /// SimOptions::scratchpad for `net`: one word per declared parameter, encoded as the host
    /// library writes it (a "core" parameter's bits shifted left by 2, an "addr" one raw). A name
    /// in `scratchpad` the design does not declare is a DesignError.
    std::vector<std::uint32_t> scratchpad_words(const model::Netlist& net) const;

    /// Checks that `args` agree with the program's runtime arguments (count, dtype, shape), that
    /// names are unique, and that `inputs` holds every input argument with its type; DesignError
    /// naming `design` otherwise.
    DesignInstance(iron::Program program, std::vector<ArgSpec> args, Tensors inputs, ReferenceFn reference,
                   const std::string& design);

    /// Index of the argument called `name`, or -1.
    int arg_index(const std::string& name) const;
    /// One byte vector per argument: the given inputs, zeros for outputs and unused arguments.
    std::vector<std::vector<std::uint8_t>> host_tensors(const Tensors& inputs) const;
    /// The same, moving each input's bytes out of `inputs` instead of copying them (a large run
    /// needs the memory of its inputs once, not twice; run_design).
    std::vector<std::vector<std::uint8_t>> host_tensors(Tensors&& inputs) const;
    /// The initial host tensors for `inputs` as built (host_tensors(inputs)): the simulator's input.
    /// Made on each call, not kept: the instance holds its inputs once.
    std::vector<std::vector<std::uint8_t>> host() const { return host_tensors(inputs); }
    /// The reference's outputs for `inputs` (at `invocation`: reference_at when the design has
    /// one), checked against the output arguments (DesignError).
    Tensors expected(const Tensors& inputs, std::uint32_t invocation = 0) const;
    /// Compare the output tensors of `host_after` (one byte vector per argument, as the simulator
    /// returns them) with reference(inputs) (check_outputs). Tolerances are the arguments' own.
    std::vector<OutputCheck> check(const Tensors& inputs,
                                   const std::vector<std::vector<std::uint8_t>>& host_after) const;
    /// check(this->inputs, host_after): for runs fed with `host`.
    std::vector<OutputCheck> check(const std::vector<std::vector<std::uint8_t>>& host_after) const;

private:
    std::string design_;
};

} // namespace npusim::harness
