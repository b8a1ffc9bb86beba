# Functions for a project that uses npusim (installed with npusimConfig.cmake, also used in-tree).
#
# npusim_add_designs(<target> <source>...)
#   An executable that is the npusim command line with the designs in <source>... registered beside
#   the built-in ones (each design file registers itself with NPUSIM_REGISTER_DESIGN).
#
# npusim_add_golden_test(<name> <design> <device> [PARAMS <k=v>...] [CLI <target>] [SEED <n>]
#                        [TIMEOUT <seconds>] [ARGS <extra run arguments>...])
#   A CTest test that runs `<cli> run <design> --device <device> --param k=v ...` and passes when the
#   run matches the design's golden reference (exit code 0; 1 is a mismatch, 2..5 errors, see
#   docs/errors.md). <cli> defaults to the last target made by npusim_add_designs, else the
#   installed npusim executable (npusim::npusim_exe).

function(npusim_add_designs target)
  if(NOT ARGN)
    message(FATAL_ERROR "npusim_add_designs(${target}): give the design source files")
  endif()
  if(NOT NPUSIM_CLI_MAIN)
    message(FATAL_ERROR "npusim_add_designs: NPUSIM_CLI_MAIN is not set (find_package(npusim) sets it)")
  endif()
  add_executable(${target} ${NPUSIM_CLI_MAIN} ${ARGN})
  target_link_libraries(${target} PRIVATE npusim::cli npusim::examples npusim::npusim)
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_property(GLOBAL PROPERTY NPUSIM_LAST_CLI ${target})
endfunction()

function(npusim_add_golden_test name design device)
  cmake_parse_arguments(G "" "CLI;SEED;TIMEOUT" "PARAMS;ARGS" ${ARGN})
  if(G_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "npusim_add_golden_test(${name}): unexpected arguments: ${G_UNPARSED_ARGUMENTS}")
  endif()
  set(cli ${G_CLI})
  if(NOT cli)
    get_property(cli GLOBAL PROPERTY NPUSIM_LAST_CLI)
  endif()
  if(NOT cli)
    set(cli npusim::npusim_exe)
  endif()
  if(NOT TARGET ${cli})
    message(FATAL_ERROR "npusim_add_golden_test(${name}): no CLI target '${cli}'")
  endif()
  set(cmd $<TARGET_FILE:${cli}> run ${design} --device ${device})
  foreach(p ${G_PARAMS})
    list(APPEND cmd --param ${p})
  endforeach()
  if(G_SEED)
    list(APPEND cmd --seed ${G_SEED})
  endif()
  add_test(NAME ${name} COMMAND ${cmd} ${G_ARGS})
  if(NOT G_TIMEOUT)
    set(G_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${G_TIMEOUT})
endfunction()
