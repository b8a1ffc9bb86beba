// npusim-fuzz: random designs through the public API, resolved and simulated.
//
//   npusim-fuzz [--seed S] [--cases N] [--first I] [--max-cycles C] [--case-timeout SECONDS]
//               [--verbose] [--netlist] [--show-errors K]
//
// Case i of seed S is generated from its own seeded stream, so `--seed S --first i --cases 1
// --verbose` reproduces it alone. Exit code 0 when no case found a bug (wrong data, a broken
// invariant, an exception of an unexpected type), 1 otherwise, 2 on a usage error.
#include "FuzzRunner.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <unistd.h>

using namespace npusim::fuzz;

namespace {

std::uint64_t case_seed(std::uint64_t seed, std::uint64_t i) {
    // splitmix64 of (seed, i): independent streams per case
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "npusim-fuzz: %s\nusage: npusim-fuzz [--seed S] [--cases N] [--first I] [--max-cycles C] "
                 "[--case-timeout SECONDS] [--verbose] [--netlist] [--show-errors K]\n",
                 why.c_str());
    std::exit(2);
}

std::uint64_t number(const std::string& opt, const char* v) {
    if (!v) usage(opt + " needs a value");
    char* end = nullptr;
    errno = 0;
    const auto x = std::strtoull(v, &end, 10);
    if (errno || !*v || *end || *v == '-') usage(fmt::format("{} takes a whole number, not '{}'", opt, v));
    return x;
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t seed = 1, cases = 1000, first = 0, show = 3;
    FuzzLimits limits;
    bool verbose = false, netlist = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--seed")
            seed = number(a, v), ++i;
        else if (a == "--cases")
            cases = number(a, v), ++i;
        else if (a == "--first")
            first = number(a, v), ++i;
        else if (a == "--max-cycles")
            limits.max_cycles = number(a, v), ++i;
        else if (a == "--case-timeout")
            limits.wall_seconds = static_cast<double>(number(a, v)), ++i;
        else if (a == "--show-errors")
            show = number(a, v), ++i;
        else if (a == "--verbose")
            verbose = true;
        else if (a == "--netlist")
            netlist = verbose = true;
        else if (a == "--help") {
            std::printf("npusim-fuzz: random designs through resolve and simulate; see docs/fuzzing.md\n");
            return 0;
        } else
            usage(fmt::format("unknown option '{}'", a));
    }
    const FuzzRunner runner(limits);
    FuzzRunner::Tally tally;
    std::map<Ending, std::vector<std::string>> examples;
    const bool tty = isatty(STDERR_FILENO);
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t c = first; c < first + cases; ++c) {
        SeededEntropy e(case_seed(seed, c));
        const Plan plan = make_plan(e, c);
        if (verbose) std::printf("%s\n", plan.describe().c_str()), std::fflush(stdout);
        if (netlist) try {
                std::printf("%s", build_design(plan, case_seed(seed, c) ^ 0x5eed).program->resolve().dump().c_str());
            } catch (const std::exception& ex) {
                std::printf("(no netlist: %s)\n", ex.what());
            }
        const auto r = runner.run(plan, case_seed(seed, c) ^ 0x5eed);
        runner.add(tally, plan, r);
        auto& ex = examples[r.ending];
        const bool interesting = is_bug(r.ending) || (r.well_formed && r.ending != Ending::Success);
        if (verbose && r.ending != Ending::Success)
            std::printf("  -> %s: %s\n", ending_name(r.ending), r.message.c_str());
        else if (interesting && ex.size() < show)
            ex.push_back(fmt::format("{}\n    {}", plan.describe(), r.message));
        if (tty && (c - first + 1) % 100 == 0)
            std::fprintf(stderr, "\r%llu / %llu cases", static_cast<unsigned long long>(c - first + 1),
                         static_cast<unsigned long long>(cases));
    }
    if (tty) std::fprintf(stderr, "\r%*s\r", 40, "");
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("npusim-fuzz: seed %llu, cases %llu..%llu, %.1f s (%.2f ms per case)\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(first + cases - 1), secs, 1e3 * secs / static_cast<double>(cases));
    std::printf("  %-28s %10s %12s\n", "ending", "cases", "well-formed");
    for (int i = 0; i < kEndings; ++i)
        std::printf("  %-28s %10llu %12llu\n", ending_name(static_cast<Ending>(i)),
                    static_cast<unsigned long long>(tally.count[static_cast<std::size_t>(i)]),
                    static_cast<unsigned long long>(tally.well_formed[static_cast<std::size_t>(i)]));
    std::printf("  planted faults:");
    for (const auto& [f, n] : tally.faults_seen) std::printf(" %s %llu", f.c_str(), static_cast<unsigned long long>(n));
    std::printf("\n");
    for (const auto& [ending, list] : examples)
        for (const auto& s : list)
            std::printf("%s %s\n    %s\n", is_bug(ending) ? "BUG" : "note: well-formed case ended in",
                        ending_name(ending), s.c_str());
    return tally.bugs() ? 1 : 0;
}
