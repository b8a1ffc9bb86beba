// The table of deadlock cases: one row per case of docs/deadlocks.md ("| `id` | ..." rows of its
// table of cases), unique ids, and "unknown" last, matching any run.
#include "DeadlockCases.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace npusim::sim;

TEST_CASE("the table of deadlock cases has one row per case of docs/deadlocks.md, and 'unknown' last",
          "[sim][deadlock][analyzer]") {
    const auto cases = deadlock_cases();
    REQUIRE(!cases.empty());
    CHECK(std::string(cases.back().id) == "unknown");
    std::set<std::string> ids;
    for (const auto& c : cases) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(std::string(c.title) != "");
        CHECK(c.matches != nullptr);
        CHECK(c.explain != nullptr);
    }
    ids.erase("unknown");

    std::ifstream in(std::string(NPUSIM_SOURCE_DIR) + "/docs/deadlocks.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    // The rows of the table under "## The cases", up to the next heading.
    const auto begin = doc.find("## The cases");
    REQUIRE(begin != std::string::npos);
    const auto end = doc.find("\n## ", begin + 1);
    const std::string table = doc.substr(begin, end - begin);
    std::set<std::string> documented;
    const std::regex row(R"(\n\| `([a-z_]+)` \|)");
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it)
        documented.insert((*it)[1].str());
    CHECK(documented == ids);
}
