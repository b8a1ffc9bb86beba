#include "npusim/harness/DesignInstance.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>
#include <type_traits>

namespace npusim::harness {

DesignInstance::DesignInstance(iron::Program prog, std::vector<ArgSpec> a, Tensors in, ReferenceFn ref,
                               const std::string& design)
    : program(std::move(prog)), args(std::move(a)), inputs(std::move(in)), reference(std::move(ref)), design_(design) {
    const auto& rt = program.runtime().state()->tensors;
    if (rt.size() != args.size())
        throw DesignError(fmt::format("design '{}' declares {} runtime arguments, its runtime sequence takes {}",
                                      design, args.size(), rt.size()));
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& s = args[i];
        if (s.name.empty()) throw DesignError(fmt::format("design '{}': runtime argument {} has no name", design, i));
        for (std::size_t j = 0; j < i; ++j)
            if (args[j].name == s.name)
                throw DesignError(fmt::format("design '{}': two runtime arguments are called '{}'", design, s.name));
        if (s.dtype != rt[i].dtype || s.shape != rt[i].shape)
            throw DesignError(
                fmt::format("design '{}': runtime argument {} '{}' is declared {} but the runtime sequence takes {}",
                            design, i, s.name, s.type_str(), rt[i].str()));
        if (!s.ignore.empty() && s.ignore.size() != static_cast<std::size_t>(s.elements()))
            throw DesignError(fmt::format("design '{}': the ignore mask of '{}' has {} entries for {} elements", design,
                                          s.name, s.ignore.size(), s.elements()));
        if (s.takes_input()) {
            const auto it = inputs.find(s.name);
            if (it == inputs.end())
                throw DesignError(fmt::format("design '{}': no generated data for input '{}'", design, s.name));
            if (!s.matches(it->second))
                throw DesignError(fmt::format("design '{}': generated data for input '{}' is {}, the argument is {}",
                                              design, s.name, it->second.type_str(), s.type_str()));
        }
        if (s.rtol < 0 || s.atol < 0)
            throw DesignError(fmt::format("design '{}': output '{}' has a negative tolerance", design, s.name));
    }
    for (const auto& [k, v] : inputs)
        if (arg_index(k) < 0 || !args[static_cast<std::size_t>(arg_index(k))].takes_input())
            throw DesignError(fmt::format("design '{}': generated data '{}' is not an input argument", design, k));
    if (!reference) throw DesignError(fmt::format("design '{}' has no reference function", design));
}

// test_lib/parameter_scratchpad.h: writeBits shifts a core parameter's bits left by 2 ("core
// parameters require shift-2 to survive masking of lowest bits by firmware op"); an addr
// parameter is written raw; an unknown name is "ParameterScratchpad: unknown parameter".
std::vector<std::uint32_t> DesignInstance::scratchpad_words(const model::Netlist& net) const {
    std::vector<std::uint32_t> words(net.scratchpad_params.size(), 0);
    for (const auto& [name, bits] : scratchpad) {
        std::size_t i = 0;
        while (i < net.scratchpad_params.size() && net.scratchpad_params[i].name != name) ++i;
        if (i == net.scratchpad_params.size()) {
            std::vector<std::string> known;
            for (const auto& p : net.scratchpad_params) known.push_back(p.name);
            throw DesignError(fmt::format("design '{}': scratchpad value for unknown parameter '{}' (the design "
                                          "declares: {})",
                                          design_, name,
                                          known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
        }
        words[i] = net.scratchpad_params[i].kind == model::ScratchpadParam::Kind::Core ? bits << 2 : bits;
    }
    return words;
}

int DesignInstance::arg_index(const std::string& name) const {
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

// host_tensors for a const or a movable `in`: every input is checked before any is taken.
template <class In>
std::vector<std::vector<std::uint8_t>> make_host(const std::vector<ArgSpec>& args, In& in, const std::string& design) {
    for (const auto& s : args) {
        if (!s.takes_input()) continue;
        const auto it = in.find(s.name);
        if (it == in.end() || !s.matches(it->second))
            throw DesignError(fmt::format("design '{}': input '{}' needs a {} tensor{}", design, s.name, s.type_str(),
                                          it == in.end() ? ", none given" : ", got " + it->second.type_str()));
    }
    std::vector<std::vector<std::uint8_t>> h;
    h.reserve(args.size());
    for (const auto& s : args) {
        if (!s.takes_input()) {
            h.emplace_back(s.bytes());
            continue;
        }
        auto& data = in.find(s.name)->second.data;
        if constexpr (std::is_const_v<In>)
            h.push_back(data);
        else
            h.push_back(std::move(data));
    }
    return h;
}

} // namespace

std::vector<std::vector<std::uint8_t>> DesignInstance::host_tensors(const Tensors& in) const {
    return make_host(args, in, design_);
}

std::vector<std::vector<std::uint8_t>> DesignInstance::host_tensors(Tensors&& in) const {
    auto h = make_host(args, in, design_);
    in.clear(); // their bytes are gone
    return h;
}

Tensors DesignInstance::expected(const Tensors& in, std::uint32_t invocation) const {
    Tensors want;
    try {
        want = reference_at ? reference_at(in, invocation) : reference(in);
    } catch (const std::invalid_argument& e) {
        throw DesignError(fmt::format("design '{}': reference: {}", design_, e.what()));
    }
    for (const auto& s : args) {
        if (!s.is_checked()) continue;
        const auto it = want.find(s.name);
        if (it == want.end())
            throw DesignError(fmt::format("design '{}': the reference computes no output '{}'", design_, s.name));
        if (!s.matches(it->second))
            throw DesignError(fmt::format("design '{}': the reference computes {} for output '{}', the argument is {}",
                                          design_, it->second.type_str(), s.name, s.type_str()));
    }
    return want;
}

std::vector<OutputCheck> DesignInstance::check(const Tensors& in,
                                               const std::vector<std::vector<std::uint8_t>>& host_after) const {
    require_host_per_argument(design_, args, host_after.size()); // before the reference runs
    return check_outputs(design_, args, host_after, expected(in));
}

std::vector<OutputCheck> DesignInstance::check(const std::vector<std::vector<std::uint8_t>>& host_after) const {
    return check(inputs, host_after);
}

} // namespace npusim::harness
