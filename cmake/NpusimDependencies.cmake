# Third-party dependencies, all from Debian 12 packages (see README.md / tools/install-deps.sh).
find_package(PkgConfig REQUIRED)
pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc)
# Debian's SystemC 2.3.4 is built for C++17; compiling with C++20 needs this define or linking
# fails with an undefined sc_api_version_2_3_4_cxx202002L.
add_library(npusim_systemc INTERFACE)
target_link_libraries(npusim_systemc INTERFACE PkgConfig::SYSTEMC)
target_compile_definitions(npusim_systemc INTERFACE SC_CPLUSPLUS=201703L SC_DISABLE_API_VERSION_CHECK)

# Graphviz's library (libgraphviz-dev): the HTML report lays out its graphs with the dot engine.
pkg_check_modules(GRAPHVIZ REQUIRED IMPORTED_TARGET libgvc libcgraph)

find_package(Boost 1.74 REQUIRED COMPONENTS graph)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# CLI11 (libcli11-dev, header-only) parses the npusim command line. Only tools/*.cpp include it: the
# installed npusim::cli library and its header Cli.hpp do not need it (cmake/NpusimInstall.cmake).
find_package(CLI11 2.1 REQUIRED CONFIG)
if(NPUSIM_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(NPUSIM_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
