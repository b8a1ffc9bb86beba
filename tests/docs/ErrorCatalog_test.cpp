// Every entry of the error catalog (docs/errors.md) is triggered and reports exactly its message,
// kind and exit code; one test case per component of the catalog.
#include "ErrorCatalog.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

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
NPUSIM_CATALOG_TEST("WorkerRuntimeBarrier", barrier)
NPUSIM_CATALOG_TEST("Element views", element)
NPUSIM_CATALOG_TEST("Runtime sequence", runtime)
NPUSIM_CATALOG_TEST("TensorAccessPattern", tap)
NPUSIM_CATALOG_TEST("TensorTiler2D", tiler)
NPUSIM_CATALOG_TEST("algorithms", algorithms)
NPUSIM_CATALOG_TEST("ExternalFunction", external)
NPUSIM_CATALOG_TEST("Resolve: the Program and its fifo ends", collect)
NPUSIM_CATALOG_TEST("Resolve: body tracing", trace)
NPUSIM_CATALOG_TEST("Resolve: fifo rules", verify)
NPUSIM_CATALOG_TEST("Resolve: stream ports", stream)
NPUSIM_CATALOG_TEST("Resolve: placement", place)
NPUSIM_CATALOG_TEST("Resolve: DMA channels, locks and BDs", ledger)
NPUSIM_CATALOG_TEST("Resolve: memory allocation", alloc)
NPUSIM_CATALOG_TEST("Resolve: BD encoding", bd)
NPUSIM_CATALOG_TEST("Resolve: depth rule and depth overrides", depth)
NPUSIM_CATALOG_TEST("Resolve: runtime sequence lowering", seq)
NPUSIM_CATALOG_TEST("Resolve: symbols, routes and warnings", misc)
NPUSIM_CATALOG_TEST("Resolve: trace configuration", trace_config)
NPUSIM_CATALOG_TEST("Resolve: delegate tiles and unsynchronized fifos", shared_pool)
NPUSIM_CATALOG_TEST("ScratchpadParameter", scratchpad)
NPUSIM_CATALOG_TEST("Cascades", cascade)
NPUSIM_CATALOG_TEST("Low-level API", lowlevel)
NPUSIM_CATALOG_TEST("Register-level runtime sequence", raw_sequence)
NPUSIM_CATALOG_TEST("Hand-written switchboxes", switchbox)
NPUSIM_CATALOG_TEST("Padding and ObjectFifoLink", padding)
NPUSIM_CATALOG_TEST("Devices and timing files", model)
NPUSIM_CATALOG_TEST("Simulation", sim)
NPUSIM_CATALOG_TEST("Harness: designs and parameters", design)
NPUSIM_CATALOG_TEST("Harness: design instances", instance)
NPUSIM_CATALOG_TEST("Harness: .npy files", npy)
NPUSIM_CATALOG_TEST("Harness: runs", run)
NPUSIM_CATALOG_TEST("Harness: the built-in kernel library", kernel_library)
NPUSIM_CATALOG_TEST("Example designs", example)
NPUSIM_CATALOG_TEST("CLI: usage", usage)
NPUSIM_CATALOG_TEST("CLI: output files and the process", process)
NPUSIM_CATALOG_TEST("MLIR export", mlir_export)
NPUSIM_CATALOG_TEST("NPU instruction files", hw_insts)
NPUSIM_CATALOG_TEST("NPU runs", hw_runs)
NPUSIM_CATALOG_TEST("RecordedBody", recorded_body)
NPUSIM_CATALOG_TEST("Calibration from a trace", calibrate)
NPUSIM_CATALOG_TEST("Block floating point", block_float)

TEST_CASE("every component of the error catalog has its test case, ids and sites are well-formed", "[docs][errors]") {
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

namespace {
// The texts of a format string that are its own (between {} fields), at least 12 characters long.
std::vector<std::string> own_texts(const std::string& format) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char ch : format) {
        if (ch == '{') ++depth;
        if (depth == 0) cur += ch;
        if (ch == '}' && depth > 0) --depth;
        if (depth > 0 && !cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
    }
    out.push_back(cur);
    std::erase_if(out, [](const std::string& t) { return t.size() < 12; });
    return out;
}
} // namespace

TEST_CASE("every error reported in frontend, model, sim, harness, tools, examples and hw is in the catalog",
          "[docs][errors][sites]") {
    // A throw site: throw XError(...), or a helper that throws (fail, protocol, bad, a recorded
    // SimulationError). Its first string literal is its format; one of its own texts must be in
    // the message of a catalog entry or internal check. A format without text of its own ("{}: {}")
    // is a wrapper whose callers give the text.
    std::string messages;
    for (const auto& e : catalog().entries()) messages += e.message + "\n";
    for (const auto& i : catalog().internals()) messages += i.message + "\n";
    const std::regex site(
        R"((throw\s+[A-Za-z_:]*(Error|error|argument|range)\s*\(|\bfail\s*\(|\bprotocol\s*\(|\bbad\s*\(|record\(\s*SimulationError\())");
    const std::regex literal(R"re("((?:[^"\\]|\\.)*)")re");
    const std::filesystem::path root(NPUSIM_SOURCE_DIR);
    std::vector<std::string> missing;
    int sites = 0;
    for (const char* dir : {"frontend", "model", "sim", "harness", "tools", "examples", "hw"}) {
        for (const auto& f : std::filesystem::recursive_directory_iterator(root / dir)) {
            const auto rel = std::filesystem::relative(f.path(), root).generic_string();
            if (!f.is_regular_file() || rel.starts_with("tools/fuzz/")) continue; // the fuzzer's own harness
            const auto ext = f.path().extension();
            if (ext != ".cpp" && ext != ".hpp") continue;
            std::ifstream in(f.path());
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string src = ss.str();
            for (auto it = std::sregex_iterator(src.begin(), src.end(), site); it != std::sregex_iterator(); ++it) {
                const auto at = static_cast<std::size_t>(it->position());
                const std::string window = src.substr(at, 600);
                std::smatch m;
                if (!std::regex_search(window, m, literal)) continue;
                std::string format = m[1].str();
                format = std::regex_replace(format, std::regex(R"re(\\(["'\\]))re"), "$1");
                const auto texts = own_texts(format);
                if (texts.empty()) continue;
                ++sites;
                bool found = false;
                for (const auto& t : texts) found |= messages.find(t) != std::string::npos;
                if (!found)
                    missing.push_back(rel + ":" + std::to_string(std::count(src.begin(), src.begin() + at, '\n') + 1) +
                                      ": " + format);
            }
        }
    }
    INFO(sites << " sites; not in the catalog (add an entry, or an internal check with its reason, to "
                  "tests/docs/catalog/*.cpp, then bash tools/error-catalog.sh):\n"
               << [&] {
                      std::string s;
                      for (const auto& x : missing) s += "  " + x + "\n";
                      return s;
                  }());
    CHECK(missing.empty());
    CHECK(sites > 200);
}
