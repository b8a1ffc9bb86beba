# cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -DFUNCTION=<name> -P EmbedResource.cmake
# Writes a C++ source defining `std::string_view npusim::traces::html::<name>()`, which returns the
# bytes of INPUT (an array of hex bytes: any content embeds unchanged, no delimiter to escape).
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
# Sixteen bytes a line: a newline after every 32 hex digits, then each byte as 0xNN.
string(REPEAT "[0-9a-f]" 32 line_pattern)
string(REGEX REPLACE "(${line_pattern})" "\\1\n    " hex "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
get_filename_component(name "${INPUT}" NAME)
set(text "// Generated at build time from traces/resources/${name} by traces/cmake/EmbedResource.cmake.
#include <string_view>

namespace npusim::traces::html {
namespace {
// Named after the function: a unity batch may hold every embedded resource.
constexpr unsigned char k_${FUNCTION}_bytes[${size} + 1] = {
    ${bytes}0x00};
} // namespace

std::string_view ${FUNCTION}() { return {reinterpret_cast<const char*>(k_${FUNCTION}_bytes), ${size}}; }

} // namespace npusim::traces::html
")
file(WRITE "${OUTPUT}" "${text}")
