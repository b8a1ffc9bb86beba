#pragma once
// The head every JSON document of the CLI starts with: which document it is, the version of its
// schema (docs/json-schema/<document>.schema.json) and of npusim. docs/json.md lists the documents.
#include <nlohmann/json.hpp>
#include <string_view>

namespace npusim::tools {

/// Bumped when a document's fields change incompatibly (a field removed or its meaning changed).
inline constexpr int kJsonSchemaVersion = 1;

/// npusim's version ("0.1.0", CMake's project version).
std::string_view npusim_version();

/// {"document": kind, "schema_version": kJsonSchemaVersion, "npusim_version": "..."} followed by
/// the fields of `body` (an object).
nlohmann::json json_document(std::string_view kind, nlohmann::json body = nlohmann::json::object());

} // namespace npusim::tools
