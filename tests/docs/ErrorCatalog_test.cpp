// Every entry of the error catalog (docs/errors.md) is triggered and reports exactly its message,
// kind and exit code; one test case per component of the catalog.
#include "ErrorCatalog.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <set>

using namespace npusim::errcat;

namespace {
std::set<std::string>& tested() {
    static std::set<std::string> s;
    return s;
}
struct Tested {
    explicit Tested(const char* component) { tested().insert(component); }
};

void check_component(const std::string& component) {
    int n = 0;
    for (const auto& e : catalog().entries()) {
        if (e.component != component) continue;
        ++n;
#if defined(__SANITIZE_ADDRESS__)
        if (e.sanitizer_skip) continue;
#endif
        const Outcome o = run_entry(e);
        INFO("entry " << e.id << " (" << e.site << ")\ntrigger: " << e.trigger << "\nexpected " << e.kind << ": "
                      << e.message << "\ngot exit code " << o.exit_code << ", " << o.kind << ": " << o.message);
        REQUIRE(o.failed);
        CHECK(o.kind == e.kind);
        CHECK(o.exit_code == exit_code_of_kind(e.kind));
        CHECK(matches(e.message, o.message));
    }
    CHECK(n > 0);
}
} // namespace

#define NPUSIM_CATALOG_TEST(name, tag)                                                                                 \
    static const Tested tested_##tag(name);                                                                            \
    TEST_CASE("error catalog: " name, "[docs][errors]") { check_component(name); }

NPUSIM_CATALOG_TEST("ObjectFifo", fifo)
NPUSIM_CATALOG_TEST("Links: forward, split and join", link)
NPUSIM_CATALOG_TEST("Worker", worker)
NPUSIM_CATALOG_TEST("Kernel", kernel)
NPUSIM_CATALOG_TEST("Buffer", buffer)
NPUSIM_CATALOG_TEST("Element views", element)
NPUSIM_CATALOG_TEST("Runtime sequence", runtime)
NPUSIM_CATALOG_TEST("TensorAccessPattern", tap)
NPUSIM_CATALOG_TEST("Resolve: the Program and its fifo ends", collect)
NPUSIM_CATALOG_TEST("Resolve: body tracing", trace)
NPUSIM_CATALOG_TEST("Resolve: fifo rules", verify)
NPUSIM_CATALOG_TEST("Resolve: placement", place)
NPUSIM_CATALOG_TEST("Resolve: DMA channels, locks and BDs", ledger)
NPUSIM_CATALOG_TEST("Resolve: memory allocation", alloc)
NPUSIM_CATALOG_TEST("Resolve: BD encoding", bd)
NPUSIM_CATALOG_TEST("Resolve: depth rule and depth overrides", depth)
NPUSIM_CATALOG_TEST("Resolve: runtime sequence lowering", seq)
NPUSIM_CATALOG_TEST("Resolve: symbols, routes and warnings", misc)
NPUSIM_CATALOG_TEST("Devices and timing files", model)
NPUSIM_CATALOG_TEST("Simulation", sim)
NPUSIM_CATALOG_TEST("Harness: designs and parameters", design)
NPUSIM_CATALOG_TEST("Harness: design instances", instance)
NPUSIM_CATALOG_TEST("Harness: .npy files", npy)
NPUSIM_CATALOG_TEST("Harness: runs", run)
NPUSIM_CATALOG_TEST("Example designs", example)
NPUSIM_CATALOG_TEST("CLI: usage", usage)
NPUSIM_CATALOG_TEST("CLI: output files and the process", process)

TEST_CASE("every component of the error catalog has its test case; ids and sites are well-formed", "[docs][errors]") {
    std::set<std::string> components;
    for (const auto& c : catalog().components()) {
        components.insert(c.name);
        INFO(c.name);
        CHECK(tested().count(c.name) == 1);
    }
    for (const auto& t : tested()) {
        INFO(t);
        CHECK(components.count(t) == 1);
    }
    const std::regex id("[a-z0-9_]+(\\.[a-z0-9_]+)+");
    std::set<std::string> ids;
    auto check_site = [](const std::string& site) {
        INFO(site);
        CHECK(std::filesystem::is_regular_file(std::filesystem::path(NPUSIM_SOURCE_DIR) / site));
    };
    for (const auto& e : catalog().entries()) {
        INFO(e.id);
        CHECK(std::regex_match(e.id, id));
        CHECK(ids.insert(e.id).second);
        CHECK_FALSE(e.message.empty());
        CHECK_FALSE(e.trigger.empty());
        check_site(e.site);
    }
    for (const auto& i : catalog().internals()) {
        INFO(i.id);
        CHECK(std::regex_match(i.id, id));
        CHECK(ids.insert(i.id).second);
        CHECK_FALSE(i.reason.empty());
        check_site(i.site);
    }
}

TEST_CASE("catalog messages: <N> is a number, <...> any text", "[docs][errors]") {
    CHECK(matches("deadlock at cycle <N> in design", "deadlock at cycle 1,069 in design"));
    CHECK(matches("at cycle <N>.", "at cycle 12."));
    CHECK(matches("a <...> z", "a b\nc z"));
    CHECK(matches("x<...>", "x"));
    CHECK_FALSE(matches("at cycle <N>", "at cycle x"));
    CHECK_FALSE(matches("exact", "exact!"));
    CHECK_FALSE(matches("exact!", "exact"));
}
