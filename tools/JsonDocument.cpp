#include "JsonDocument.hpp"

#ifndef NPUSIM_VERSION
#error "NPUSIM_VERSION is defined by tools/CMakeLists.txt"
#endif

namespace npusim::tools {

std::string_view npusim_version() { return NPUSIM_VERSION; }

nlohmann::json json_document(std::string_view kind, nlohmann::json body) {
    nlohmann::json j{{"document", kind}, {"schema_version", kJsonSchemaVersion}, {"npusim_version", npusim_version()}};
    j.update(body);
    return j;
}

} // namespace npusim::tools
