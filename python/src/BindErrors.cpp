// npusim's errors as Python exceptions: NpusimError, DesignError, SimulationError and its kinds
// DeadlockError and LimitError, each with what `--json` carries (the kind, the diagnosed case, the
// causal chain, the wait-for graph as DOT and the diagnosis as JSON).
#include "Bindings.hpp"

#include "npusim/model/Error.hpp"
#include "npusim/sim/Diagnosis.hpp"

#include <nlohmann/json.hpp>

namespace npusim::python {

namespace {

const char* kind_name(SimulationError::Kind k) {
    switch (k) {
    case SimulationError::Kind::Deadlock: return "deadlock";
    case SimulationError::Kind::Protocol: return "protocol";
    case SimulationError::Kind::Limit: return "limit";
    case SimulationError::Kind::Kernel: return "kernel";
    case SimulationError::Kind::Mismatch: return "mismatch";
    case SimulationError::Kind::Internal: return "internal";
    }
    return "internal";
}

std::string diagnosis_json(const sim::Diagnosis& d) {
    nlohmann::json j;
    j["trigger"] = d.trigger == sim::Diagnosis::Trigger::Deadlock ? "deadlock" : "limit";
    j["cycle"] = d.cycle;
    j["case"] = d.case_id;
    j["case_title"] = d.case_title;
    j["explanation"] = d.case_explanation;
    j["chain"] = d.chain;
    auto& nodes = j["nodes"] = nlohmann::json::array();
    for (const auto& n : d.nodes)
        nodes.push_back({{"id", n.id}, {"label", n.label}, {"state", n.state_name()}, {"detail", n.detail},
                         {"in_cycle", n.in_cycle}, {"in_chain", n.in_chain}});
    auto& edges = j["edges"] = nlohmann::json::array();
    for (const auto& e : d.edges)
        edges.push_back({{"from", d.nodes[e.from].id}, {"to", d.nodes[e.to].id}, {"label", e.label}});
    j["warnings"] = d.warnings;
    return j.dump(2);
}

/// The exception classes, created once and kept for the translator.
struct Classes {
    py::object base, design, simulation, deadlock, limit;
};
Classes& classes() {
    static Classes* c = new Classes(); // leaked: the interpreter owns the classes until exit
    return *c;
}

py::object make_class(py::module_& m, const char* name, py::handle base, const char* doc) {
    py::object cls = py::reinterpret_steal<py::object>(
        PyErr_NewExceptionWithDoc((std::string("npusim._npusim.") + name).c_str(), doc, base.ptr(), nullptr));
    m.attr(name) = cls;
    return cls;
}

void raise_simulation_error(const SimulationError& e) {
    auto& c = classes();
    py::object cls = e.kind() == SimulationError::Kind::Deadlock ? c.deadlock
                     : e.kind() == SimulationError::Kind::Limit  ? c.limit
                                                                 : c.simulation;
    py::object exc = cls(e.what());
    exc.attr("kind") = kind_name(e.kind());
    exc.attr("exit_code") = static_cast<int>(exit_code_for(e.kind()));
    if (const auto* d = sim::diagnosis_of(e)) {
        exc.attr("case") = d->case_id;
        exc.attr("case_title") = d->case_title;
        exc.attr("chain") = d->chain;
        exc.attr("cycle") = d->cycle;
        exc.attr("dot") = d->to_dot();
        exc.attr("json") = diagnosis_json(*d);
    } else {
        exc.attr("case") = py::none();
        exc.attr("case_title") = py::none();
        exc.attr("chain") = py::list();
        exc.attr("cycle") = py::none();
        exc.attr("dot") = py::none();
        exc.attr("json") = py::none();
    }
    PyErr_SetObject(cls.ptr(), exc.ptr());
}

} // namespace

void bind_errors(py::module_& m) {
    auto& c = classes();
    c.base = make_class(m, "NpusimError", PyExc_RuntimeError, "Any error npusim reports.");
    c.design = make_class(m, "DesignError", c.base, "A design that cannot be built or resolved (exit code 2).");
    c.simulation = make_class(m, "SimulationError", c.base, "Something that went wrong while simulating.");
    c.deadlock = make_class(m, "DeadlockError", c.simulation,
                            "The run deadlocked: .case, .chain (the causal chain), .dot, .json (exit code 3).");
    c.limit = make_class(m, "LimitError", c.simulation, "A cycle, wall-clock or hardware limit was reached (exit code 4).");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const DesignError& e) {
            py::object exc = classes().design(e.what());
            exc.attr("exit_code") = 2;
            PyErr_SetObject(classes().design.ptr(), exc.ptr());
        } catch (const SimulationError& e) {
            raise_simulation_error(e);
        }
    });
}

} // namespace npusim::python
