#include "npusim/harness/DesignRunner.hpp"

#include "npusim/harness/NpyFile.hpp"

#include "RunMemory.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <new>
#include <optional>
#include <unistd.h>

namespace npusim::harness {

namespace {

std::string names_with_role(const std::vector<ArgSpec>& args, ArgRole role) {
    std::string s;
    for (const auto& a : args)
        if (a.role == role) s += (s.empty() ? "" : ", ") + a.name;
    return s.empty() ? "none" : s;
}

// The argument `name` must exist and have `role`; `what` is the option that named it.
const ArgSpec& argument(const DesignInstance& inst, const std::string& design, const std::string& name, ArgRole role,
                        const char* what) {
    const int i = inst.arg_index(name);
    if (i < 0)
        throw DesignError(fmt::format("{}: design '{}' has no argument '{}' ({}s: {})", what, design, name,
                                      role_name(role), names_with_role(inst.args, role)));
    const auto& a = inst.args[static_cast<std::size_t>(i)];
    // An inout argument is both: its initial contents may be given (--input) and its expected
    // contents (--expect).
    if (a.role != role && !(a.role == ArgRole::inout && role != ArgRole::unused))
        throw DesignError(fmt::format("{}: argument '{}' of design '{}' is {}, not an {} ({}s: {})", what, name, design,
                                      a.role == ArgRole::unused ? "unused" : fmt::format("an {}", role_name(a.role)),
                                      role_name(role), role_name(role), names_with_role(inst.args, role)));
    return a;
}

} // namespace

std::uint64_t available_host_memory() { return host_memory_limit().bytes; }

iron::ResolveOptions resolve_options(const DesignSpec& spec, const RunOptions& opts) {
    iron::ResolveOptions ro;
    ro.alloc_scheme = opts.alloc_scheme.value_or(spec.alloc_scheme);
    ro.werror = opts.werror;
    ro.depth_overrides = opts.depth_overrides;
    return ro;
}

Tensor load_tensor_for(const ArgSpec& arg, const std::string& path, const std::string& design) {
    // Checked from the header, before the data is read: a file of another shape costs nothing.
    return NpyFile::read(path, [&](DType dtype, const std::vector<std::int64_t>& shape) {
        if (dtype != arg.dtype)
            throw NpyError(fmt::format(
                "'{}': dtype {} ('{}') does not match {} '{}' of design '{}', which is {} ('{}'), shape {}", path,
                numpy_dtype_name(dtype), NpyFile::descr(dtype), role_name(arg.role), arg.name, design,
                numpy_dtype_name(arg.dtype), NpyFile::descr(arg.dtype), shape_str(arg.shape)));
        if (shape != arg.shape)
            throw NpyError(fmt::format("'{}': shape {} does not match {} '{}' of design '{}', which has shape {} ({})",
                                       path, shape_str(shape), role_name(arg.role), arg.name, design,
                                       shape_str(arg.shape), numpy_dtype_name(arg.dtype)));
    });
}

namespace {

// What a run is doing, for the error a std::bad_alloc becomes (run_design).
struct RunPhase {
    std::optional<detail::RunMemory> memory;
    std::string doing = "starting";
};

RunReport run_design_in(const DesignSpec& spec, const std::string& device, const Params& overrides,
                        const RunOptions& opts, RunPhase& phase) {
    const auto& dev = model::device_by_name(device);
    if (!spec.supports(dev.name))
        throw DesignError(fmt::format("design '{}' does not run on {} (devices: {})", spec.name, dev.name,
                                      fmt::join(spec.devices, ", ")));
    if (!spec.supports(opts.kernels)) {
        std::string with;
        for (const auto& d : all_designs())
            if (d.supports(opts.kernels)) with += (with.empty() ? "" : ", ") + d.name;
        throw DesignError(fmt::format("design '{}' has no {} kernel build{}; designs with one: {}", spec.name,
                                      opts.kernels == KernelSet::aie ? "AIE-API" : "reference",
                                      spec.kernels_note.empty() ? "" : " (" + spec.kernels_note + ")",
                                      with.empty() ? "none" : with));
    }
    if ((opts.rtol && *opts.rtol < 0) || (opts.atol && *opts.atol < 0))
        throw DesignError(fmt::format("tolerances must not be negative (rtol {}, atol {})", opts.rtol.value_or(0),
                                      opts.atol.value_or(0)));
    RunReport rep;
    rep.design = spec.name;
    rep.device = dev.name;
    rep.cold = opts.cold;
    rep.params = spec.resolve_params(overrides);
    rep.kernels = opts.kernels;
    rep.kernels_note = spec.kernels_note;
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    // Host memory: a design too large for this machine is a clear error, not std::bad_alloc. The
    // estimate is made from the runtime arguments' types as soon as the design's Runtime has them,
    // before its inputs are generated; then again with what more invocations keep.
    auto param_text = [&] { // a named parameter by its name (dtype_in=i16), as --param takes it
        const std::string t = spec.params_text(rep.params);
        return t.empty() ? std::string("its defaults") : t;
    };
    phase.memory.emplace(fmt::format("design '{}' ({}) on {}", spec.name, param_text(), dev.name),
                         opts.host_memory_bytes);
    const detail::RunMemory& memory = *phase.memory;
    std::optional<DesignInstance> built;
    {
        iron::RuntimeArgumentsCheck early([&](const std::vector<iron::TensorType>& tensors) {
            std::uint64_t bytes = 0;
            for (const auto& t : tensors) bytes += t.bytes();
            memory.check(bytes);
        });
        phase.doing = "building the design and generating its inputs";
        built.emplace(spec.build(dev, rep.params, BuildOptions(opts.seed, opts.kernels)));
    }
    DesignInstance& inst = *built;
    {
        // More than one invocation keeps the checked outputs of each measured one
        // (SimOptions::snapshot_tensors), and with more than one measured, a copy of the inputs
        // for their references.
        std::uint64_t bytes = 0, input_bytes = 0, checked_bytes = 0;
        for (const auto& a : inst.args) {
            bytes += a.bytes();
            if (a.takes_input()) input_bytes += a.bytes();
            if (a.is_checked()) checked_bytes += a.bytes();
        }
        const std::uint64_t invocations = std::uint64_t{opts.warmup} + opts.iters;
        const std::uint64_t extra =
            (invocations > 1 ? opts.iters * checked_bytes : 0) + (opts.iters > 1 ? input_bytes : 0);
        memory.check(bytes, extra, invocations);
    }
    rep.args = inst.args;
    if (!opts.save_dir.empty()) // each argument becomes a file in the folder, and nowhere else
        for (const auto& a : inst.args)
            if (a.role != ArgRole::unused && !is_plain_file_name(a.name))
                throw DesignError(fmt::format(
                    "--save-outputs: {} '{}' of design '{}' cannot be saved as '{}.npy': its name is not a plain file "
                    "name (it holds '/' or is '.', '..' or empty) and would be written outside '{}'",
                    role_name(a.role), a.name, spec.name, a.name, opts.save_dir));

    // Inputs: generated from the seed unless a file is given. Taken from the instance, not copied.
    Tensors inputs = std::move(inst.inputs);
    rep.arg_sources.assign(inst.args.size(), "-");
    for (std::size_t i = 0; i < inst.args.size(); ++i)
        if (inst.args[i].takes_input()) rep.arg_sources[i] = fmt::format("seed {}", opts.seed);
    phase.doing = "reading the --input and --expect files";
    for (const auto& [name, path] : opts.input_files) {
        const auto& a = argument(inst, spec.name, name, ArgRole::input, "--input");
        inputs.erase(name); // the generated tensor is freed before the file's is read
        inputs[name] = load_tensor_for(a, path, spec.name);
        rep.arg_sources[static_cast<std::size_t>(inst.arg_index(name))] = path;
    }
    // Expected outputs from files, checked before simulating.
    Tensors expected_from_files;
    for (const auto& [name, path] : opts.expected_files) {
        const auto& a = argument(inst, spec.name, name, ArgRole::output, "--expect");
        expected_from_files[name] = load_tensor_for(a, path, spec.name);
    }

    phase.doing = "resolving the design";
    const auto tr = clock::now();
    const model::Netlist net = inst.program.resolve(resolve_options(spec, opts));
    const auto t1 = clock::now();
    rep.tiles_used = net.tiles_used();
    rep.workers = net.cores.size();
    if (opts.iters < 1) throw DesignError(fmt::format("design '{}': --iters must be at least 1", spec.name));
    sim::SimOptions so = opts.sim;
    so.invocations = opts.warmup + opts.iters;
    so.scratchpad = inst.scratchpad_words(net);
    so.snapshot_from = opts.warmup; // warm-ups are not checked
    for (std::size_t i = 0; i < inst.args.size(); ++i)
        if (inst.args[i].is_checked()) so.snapshot_tensors.push_back(static_cast<int>(i));
    if (so.snapshot_tensors.empty()) so.snapshot_from = so.invocations; // nothing to check: keep nothing

    // Expected values: the reference on the actual inputs, except where a file gives them. Those
    // of the last invocation are computed before simulating, so the inputs can then move into the
    // simulator's host tensors (an inout argument's initial contents are overwritten there). The
    // inputs are kept only when still needed: for the reference of earlier checked invocations
    // and for --save-outputs (input arguments are saved as given).
    const bool need_reference = std::any_of(inst.args.begin(), inst.args.end(), [&](const ArgSpec& a) {
        return a.is_checked() && !expected_from_files.count(a.name);
    });
    const std::uint32_t last = so.invocations - 1;
    const bool many_checked = opts.iters > 1; // invocations other than the last are checked
    auto expected_at = [&](std::uint32_t inv, const Tensors& in) {
        const auto r0 = clock::now();
        Tensors w = need_reference ? inst.expected(in, inv) : Tensors{};
        rep.reference_seconds += std::chrono::duration<double>(clock::now() - r0).count();
        for (const auto& [name, t] : expected_from_files) w[name] = t;
        return w;
    };
    phase.doing = "computing the expected outputs";
    Tensors want;
    if (need_reference) {
        const auto r0 = clock::now();
        want = inst.expected(inputs, last);
        rep.reference_seconds += std::chrono::duration<double>(clock::now() - r0).count();
    }
    if (many_checked)
        for (const auto& [name, t] : expected_from_files) want[name] = t;
    else
        for (auto& [name, t] : expected_from_files) want[name] = std::move(t);
    Tensors kept_inputs; // what the inputs are still needed for after the simulation starts
    if (many_checked && need_reference) {
        kept_inputs = inputs;
    } else if (!opts.save_dir.empty()) {
        for (const auto& a : inst.args)
            if (a.role == ArgRole::input) kept_inputs.emplace(a.name, inputs.at(a.name));
    }
    // The host tensors (inputs moved in, outputs zeroed: the first touch of their pages) are part
    // of building the run, not of simulating it.
    phase.doing = "simulating";
    const auto th = clock::now();
    auto run_host = inst.host_tensors(std::move(inputs));
    const auto t2 = clock::now();
    rep.result = sim::simulate(net, std::move(run_host), so);
    rep.result.warnings.insert(rep.result.warnings.begin(), net.warnings.begin(), net.warnings.end());
    const auto t3 = clock::now();
    rep.build_seconds = std::chrono::duration<double>((tr - t0) + (t2 - th)).count();
    rep.resolve_seconds = std::chrono::duration<double>(t1 - tr).count();
    rep.simulate_seconds = std::chrono::duration<double>(t3 - t2).count();

    phase.doing = "saving the tensors (--save-outputs)";
    if (!opts.save_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(opts.save_dir, ec);
        if (ec) throw NpyError(fmt::format("cannot create directory '{}': {}", opts.save_dir, ec.message()));
        for (std::size_t i = 0; i < inst.args.size(); ++i) {
            const auto& a = inst.args[i];
            if (a.role == ArgRole::unused) continue;
            const auto path = (std::filesystem::path(opts.save_dir) / (a.name + ".npy")).string();
            if (a.role == ArgRole::input)
                NpyFile::write(path, kept_inputs.at(a.name));
            else
                NpyFile::write(path, a.dtype, a.shape, rep.result.host[i]);
            rep.saved_files.push_back(path);
            if (a.is_checked()) {
                const auto epath = (std::filesystem::path(opts.save_dir) / (a.name + ".expected.npy")).string();
                NpyFile::write(epath, want.at(a.name));
                rep.saved_files.push_back(epath);
            }
        }
    }

    auto check_host = [&](const std::vector<std::vector<std::uint8_t>>& host, const Tensors& w) {
        const auto c0 = clock::now();
        auto checks = check_outputs(spec.name, inst.args, host, w, {opts.rtol, opts.atol, opts.tolerance.value_or(spec.tolerance)});
        rep.check_seconds += std::chrono::duration<double>(clock::now() - c0).count();
        for (auto& c : checks)
            if (const auto it = opts.expected_files.find(c.arg); it != opts.expected_files.end())
                c.expected_from = it->second;
        return checks;
    };
    phase.doing = "checking the outputs";
    rep.checks = check_host(rep.result.host, want);
    want.clear(); // other invocations compute their own
    // Every invocation: warm-ups unchecked, the others against the reference at their index.
    for (std::uint32_t i = 0; i < rep.result.invocations.size(); ++i) {
        const auto& r = rep.result.invocations[i];
        InvocationReport ir;
        ir.index = i;
        ir.warmup = i < opts.warmup;
        ir.cycles = r.cycles();
        if (!ir.warmup) {
            ir.checks = i == last ? rep.checks : check_host(r.host, expected_at(i, kept_inputs));
            ir.all_match =
                std::all_of(ir.checks.begin(), ir.checks.end(), [](const OutputCheck& c) { return c.match; });
        }
        rep.invocations.push_back(std::move(ir));
    }
    const bool any_float =
        std::any_of(rep.checks.begin(), rep.checks.end(), [](const OutputCheck& c) { return c.is_float; });
    if ((opts.rtol || opts.atol) && !any_float)
        rep.notes.push_back(fmt::format(
            "design '{}' has no float outputs: rtol/atol do not apply, integer outputs are compared exactly",
            spec.name));
    rep.all_match = std::all_of(rep.checks.begin(), rep.checks.end(), [](const OutputCheck& c) { return c.match; }) &&
                    std::all_of(rep.invocations.begin(), rep.invocations.end(),
                                [](const InvocationReport& i) { return i.all_match; });
    return rep;
}

} // namespace

RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides,
                     const RunOptions& opts) {
    RunPhase phase;
    try {
        return run_design_in(spec, device, overrides, opts, phase);
    } catch (const std::bad_alloc&) {
        if (phase.memory) phase.memory->out_of_memory(phase.doing);
        throw DesignError(fmt::format("design '{}' on {}: out of host memory (std::bad_alloc) while {}", spec.name,
                                      device, phase.doing));
    }
}

RunReport run_design(const DesignSpec& spec, const std::string& device, const Params& overrides, std::uint64_t seed,
                     const sim::SimOptions& base) {
    RunOptions o;
    o.seed = seed;
    o.sim = base;
    return run_design(spec, device, overrides, o);
}

} // namespace npusim::harness
