#include "npusim/examples/DesignRegistry.hpp"

#include "Designs.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <stdexcept>
#include <fmt/format.h>

namespace npusim::examples {

std::vector<std::string> every_device() {
    std::vector<std::string> v;
    for (const auto& d : model::all_devices()) v.push_back(d.name);
    return v;
}

void require_multiple(const std::string& design, const Params& p, const std::string& big, const std::string& small) {
    const auto b = p.at(big), s = p.at(small);
    if (s <= 0 || b <= 0 || b % s != 0)
        throw DesignError(fmt::format("design '{}': parameter {}={} must be a positive multiple of {}={}", design, big, b, small, s));
}

void require_one_of(const std::string& design, const Params& p, const std::string& name, std::vector<std::int64_t> allowed) {
    if (std::find(allowed.begin(), allowed.end(), p.at(name)) == allowed.end())
        throw DesignError(fmt::format("design '{}': parameter {}={} must be one of {}", design, name, p.at(name),
                                      fmt::join(allowed, ", ")));
}

void require_vector_multiple(const std::string& design, const Params& p, const std::string& param, std::int64_t lanes,
                             const std::string& kernel) {
    if (p.at(param) % lanes != 0)
        throw DesignError(fmt::format("design '{}': the AIE-API {} kernel works on whole 512-bit vectors of {} elements; parameter "
                                      "{}={} is not a multiple of {}",
                                      design, kernel, lanes, param, p.at(param), lanes));
}

bool DesignSpec::supports(const std::string& device) const {
    return std::find(devices.begin(), devices.end(), device) != devices.end();
}

bool DesignSpec::supports(KernelSet k) const { return std::find(kernel_sets.begin(), kernel_sets.end(), k) != kernel_sets.end(); }

std::string_view kernel_set_name(KernelSet k) { return k == KernelSet::aie ? "aie" : "ref"; }

KernelSet kernel_set_by_name(const std::string& name) {
    if (name == "ref" || name == "reference") return KernelSet::reference;
    if (name == "aie") return KernelSet::aie;
    throw DesignError(fmt::format("unknown kernel set '{}' (kernel sets: ref, aie)", name));
}

// ---- DesignInstance ----

DesignInstance::DesignInstance(iron::Program prog, std::vector<ArgSpec> a, Tensors in, ReferenceFn ref, const std::string& design)
    : program(std::move(prog)), args(std::move(a)), inputs(std::move(in)), reference(std::move(ref)), design_(design) {
    const auto& rt = program.runtime().state()->tensors;
    if (rt.size() != args.size())
        throw DesignError(fmt::format("design '{}' declares {} runtime arguments, its runtime sequence takes {}", design, args.size(),
                                      rt.size()));
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& s = args[i];
        if (s.name.empty()) throw DesignError(fmt::format("design '{}': runtime argument {} has no name", design, i));
        for (std::size_t j = 0; j < i; ++j)
            if (args[j].name == s.name)
                throw DesignError(fmt::format("design '{}': two runtime arguments are called '{}'", design, s.name));
        if (s.dtype != rt[i].dtype || s.shape != rt[i].shape)
            throw DesignError(fmt::format("design '{}': runtime argument {} '{}' is declared {} but the runtime sequence takes {}",
                                          design, i, s.name, s.type_str(), rt[i].str()));
        if (s.role == ArgRole::input) {
            const auto it = inputs.find(s.name);
            if (it == inputs.end()) throw DesignError(fmt::format("design '{}': no generated data for input '{}'", design, s.name));
            if (!s.matches(it->second))
                throw DesignError(fmt::format("design '{}': generated data for input '{}' is {}, the argument is {}", design, s.name,
                                              it->second.type_str(), s.type_str()));
        }
        if (s.rtol < 0 || s.atol < 0)
            throw DesignError(fmt::format("design '{}': output '{}' has a negative tolerance", design, s.name));
    }
    for (const auto& [k, v] : inputs)
        if (arg_index(k) < 0 || args[static_cast<std::size_t>(arg_index(k))].role != ArgRole::input)
            throw DesignError(fmt::format("design '{}': generated data '{}' is not an input argument", design, k));
    if (!reference) throw DesignError(fmt::format("design '{}' has no reference function", design));
    host = host_tensors(inputs);
}

int DesignInstance::arg_index(const std::string& name) const {
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i].name == name) return static_cast<int>(i);
    return -1;
}

std::vector<std::vector<std::uint8_t>> DesignInstance::host_tensors(const Tensors& in) const {
    std::vector<std::vector<std::uint8_t>> h;
    h.reserve(args.size());
    for (const auto& s : args) {
        const auto it = s.role == ArgRole::input ? in.find(s.name) : in.end();
        if (s.role == ArgRole::input && (it == in.end() || !s.matches(it->second)))
            throw DesignError(fmt::format("design '{}': input '{}' needs a {} tensor{}", design_, s.name, s.type_str(),
                                          it == in.end() ? ", none given" : ", got " + it->second.type_str()));
        h.push_back(it != in.end() ? it->second.data : std::vector<std::uint8_t>(s.bytes()));
    }
    return h;
}

Tensors DesignInstance::expected(const Tensors& in) const {
    Tensors want;
    try {
        want = reference(in);
    } catch (const std::invalid_argument& e) {
        throw DesignError(fmt::format("design '{}': reference: {}", design_, e.what()));
    }
    for (const auto& s : args) {
        if (s.role != ArgRole::output) continue;
        const auto it = want.find(s.name);
        if (it == want.end()) throw DesignError(fmt::format("design '{}': the reference computes no output '{}'", design_, s.name));
        if (!s.matches(it->second))
            throw DesignError(fmt::format("design '{}': the reference computes {} for output '{}', the argument is {}", design_,
                                          it->second.type_str(), s.name, s.type_str()));
    }
    return want;
}

std::vector<OutputCheck> DesignInstance::check(const Tensors& in, const std::vector<std::vector<std::uint8_t>>& host_after) const {
    if (host_after.size() != args.size())
        throw DesignError(fmt::format("design '{}': {} host tensors to check, the design has {} arguments", design_, host_after.size(),
                                      args.size()));
    const Tensors want = expected(in);
    std::vector<OutputCheck> checks;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& s = args[i];
        if (s.role != ArgRole::output) continue;
        if (host_after[i].size() != s.bytes()) {
            OutputCheck c = compare_output(s, static_cast<int>(i), Tensor(s.dtype, {static_cast<std::int64_t>(host_after[i].size() / dtype_bytes(s.dtype))}),
                                           want.at(s.name), s.rtol, s.atol);
            c.error = fmt::format("cannot compare: the output holds {} bytes, the argument {} has {}", host_after[i].size(), s.type_str(),
                                  s.bytes());
            c.first_mismatches = c.error;
            checks.push_back(std::move(c));
            continue;
        }
        checks.push_back(compare_output(s, static_cast<int>(i), Tensor(s.dtype, s.shape, host_after[i]), want.at(s.name), s.rtol, s.atol));
    }
    return checks;
}

std::vector<OutputCheck> DesignInstance::check(const std::vector<std::vector<std::uint8_t>>& host_after) const {
    return check(inputs, host_after);
}

Params DesignSpec::resolve_params(const Params& overrides) const {
    Params p;
    for (const auto& s : params) p[s.name] = s.default_value;
    for (const auto& [k, v] : overrides) {
        if (!p.count(k)) {
            std::string known;
            for (const auto& s : params) known += (known.empty() ? "" : ", ") + s.name;
            throw DesignError(fmt::format("design '{}' has no parameter '{}' (parameters: {})", name, k,
                                          known.empty() ? std::string("none") : known));
        }
        p[k] = v;
    }
    return p;
}

namespace {
std::vector<DesignSpec>& registry() {
    static std::vector<DesignSpec> designs = {
        make_passthrough_kernel(),
        make_passthrough_dmas(),
        make_vector_scalar_mul(),
        make_vector_vector_add(),
        make_matmul_single_core(),
        make_matmul_whole_array(),
        make_vector_reduce_max(),
        make_vector_reduce_max_memtile(),
        make_row_wise_bias_add(),
        make_transpose_dma(),
        make_memcpy(),
    };
    return designs;
}
} // namespace

const std::vector<DesignSpec>& all_designs() { return registry(); }

void register_design(DesignSpec spec) {
    if (spec.name.empty() || !spec.build) throw DesignError("register_design: a design needs a name and a build function");
    for (const auto& d : registry())
        if (d.name == spec.name) throw DesignError(fmt::format("register_design: a design named '{}' already exists", spec.name));
    registry().push_back(std::move(spec));
}

const DesignSpec& design_by_name(const std::string& name) {
    for (const auto& d : all_designs())
        if (d.name == name) return d;
    std::string known;
    for (const auto& d : all_designs()) known += (known.empty() ? "" : ", ") + d.name;
    throw DesignError(fmt::format("unknown design '{}' (designs: {}); see `npusim list`", name, known));
}

const std::string& default_design() {
    static const std::string d = "passthrough_kernel";
    return d;
}

} // namespace npusim::examples
