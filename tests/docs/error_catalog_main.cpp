// Prints the error catalog as the list part of docs/errors.md (tools/error-catalog.sh).
// `error_catalog --run [ID-PREFIX...]` runs those entries and prints each one that does not report
// what the catalog says (--show: every one, with what it reports).
#include "Cli.hpp"
#include "ErrorCatalog.hpp"

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace npusim::errcat;
    if (argc > 1 && std::strcmp(argv[1], "--cli") == 0) { // npusim ARGS here, as the catalog's cli() entries run
        catalog(); // registers the catalog_* designs
        return npusim::tools::run_cli(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
    }
    const bool show = argc > 1 && std::strcmp(argv[1], "--show") == 0;
    if (argc > 1 && (std::strcmp(argv[1], "--run") == 0 || show)) {
        int bad = 0;
        for (const auto& e : catalog().entries()) {
            bool want = argc == 2;
            for (int i = 2; i < argc; ++i) want |= e.id.starts_with(argv[i]);
            if (!want) continue;
            const Outcome o = run_entry(e);
            const bool ok = o.failed && o.kind == e.kind && o.exit_code == exit_code_of_kind(e.kind) &&
                            matches(e.message, o.message);
            bad += ok ? 0 : 1;
            std::cout << (ok ? "ok   " : "FAIL ") << e.id << "\n";
            if (!ok || show)
                std::cout << "  expected " << e.kind << ": " << e.message << "\n  got exit " << o.exit_code << " "
                          << o.kind << ": " << o.message << "\n";
        }
        return bad ? 1 : 0;
    }
    std::cout << markdown(catalog());
    return 0;
}
