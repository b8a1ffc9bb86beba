#pragma once
// The page's style and script, traces/resources/report.css and report.js, embedded at build time
// (traces/cmake/EmbedResource.cmake writes the sources that define these).
#include <string_view>

namespace npusim::traces::html {

std::string_view report_css();
std::string_view report_js();

} // namespace npusim::traces::html
