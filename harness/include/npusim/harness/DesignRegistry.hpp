#pragma once
// The design registry. Every design registers itself from its own source file:
//
//     DesignSpec make_my_design() { ... }
//     NPUSIM_REGISTER_DESIGN(make_my_design, 120);
//
// 120 is the design's list position: all_designs() and `npusim list` are ordered by it (then by
// name), so the order never depends on link order. Tests and users' programs can also add
// designs at run time with register_design(). See docs/adding-a-design.md.
#include "npusim/harness/DesignSpec.hpp"

#include <string>
#include <vector>

namespace npusim::harness {

class DesignRegistry {
public:
    using Factory = DesignSpec (*)();

    /// Add `spec` at `list_position`. A design without a name or a build function, or with the
    /// name of a design already added, is a DesignError naming it.
    void add(DesignSpec spec, int list_position);
    /// add(factory(), list_position), run when the designs are first looked at: registrations run
    /// before main, where a factory must not run yet and its errors could not be reported.
    void add_deferred(Factory factory, int list_position);
    /// Every design in list order: ascending list position, then name. Runs the deferred
    /// registrations first; the error of one that fails is thrown here, once.
    const std::vector<DesignSpec>& designs();
    /// The list position after the last design (0 when there is none).
    int next_position();
    /// Throws DesignError listing the known names.
    const DesignSpec& by_name(const std::string& name);

private:
    struct Deferred {
        Factory factory;
        int list_position;
    };
    void run_deferred();

    std::vector<Deferred> deferred_;
    std::vector<DesignSpec> designs_; ///< in list order
    std::vector<int> positions_; ///< list position of each of designs_
};

/// The process's registry: the one NPUSIM_REGISTER_DESIGN and the functions below use.
DesignRegistry& design_registry();

const std::vector<DesignSpec>& all_designs();
/// Add a design (user designs, test designs) after every registered one; the name must be new.
void register_design(DesignSpec spec);
/// Throws DesignError listing the known names.
const DesignSpec& design_by_name(const std::string& name);
/// The design `npusim` runs without arguments.
const std::string& default_design();

/// What NPUSIM_REGISTER_DESIGN defines: a static object whose constructor registers the design.
struct DesignRegistration {
    DesignRegistration(DesignRegistry::Factory factory, int list_position);
};

} // namespace npusim::harness

#define NPUSIM_DESIGN_CONCAT_(a, b) a##b
#define NPUSIM_DESIGN_CONCAT(a, b) NPUSIM_DESIGN_CONCAT_(a, b)
/// Register the design `factory()` returns at `list_position` (see the top of this file). The
/// object is named by __COUNTER__, so two registrations in one translation unit (a unity batch of
/// design sources) never share a name.
#define NPUSIM_REGISTER_DESIGN(factory, list_position)                                                                 \
    static const ::npusim::harness::DesignRegistration NPUSIM_DESIGN_CONCAT(npusim_design_registration_, __COUNTER__) { \
        factory, list_position                                                                                         \
    }
