// model/Text.hpp: the number and string formats every layer's reports share.
#include "npusim/model/Text.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace npusim::model;

TEST_CASE("grouped puts a comma every three digits from the right", "[model][text]") {
    CHECK(grouped(0) == "0");
    CHECK(grouped(999) == "999");
    CHECK(grouped(1000) == "1,000");
    CHECK(grouped(1234567) == "1,234,567");
    CHECK(grouped(18446744073709551615ull) == "18,446,744,073,709,551,615");
}

TEST_CASE("plural counts with the noun's singular only for one", "[model][text]") {
    CHECK(plural(0, "object", "objects") == "0 objects");
    CHECK(plural(1, "object", "objects") == "1 object");
    CHECK(plural(2048, "BD", "BDs") == "2,048 BDs");
}

TEST_CASE("json_string writes a JSON literal that parses back to the text", "[model][text]") {
    CHECK(json_string("w0") == "\"w0\"");
    CHECK(json_string("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"");
    CHECK(json_string(std::string("\x01", 1)) == "\"\\u0001\"");
    for (std::string s : {"worker 'w' on (0,2)", "tab\there", "ünïcödé", "<script>&"})
        CHECK(nlohmann::json::parse(json_string(s)).get<std::string>() == s);
    // Invalid UTF-8 is replaced, never thrown.
    CHECK(nlohmann::json::parse(json_string("bad \xff byte")).get<std::string>() == "bad \xef\xbf\xbd byte");
}
