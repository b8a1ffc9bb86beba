# `cmake --install`: headers, the layer libraries, the npusim CLI, npusimConfig.cmake (imported
# targets npusim::*) and npusim.pc. docs/using-npusim.md shows a user's project built against it.
include(CMakePackageConfigHelpers)

# Everything a design needs (the IRON API, resolve, the simulator, traces, the harness and the
# reference and AIE-API kernels); the built-in designs and the CLI are separate targets.
add_library(npusim_all INTERFACE)
target_link_libraries(npusim_all INTERFACE npusim_harness npusim_frontend npusim_sim npusim_traces npusim_kernels
                                           npusim_aie_api npusim_aie_kernels)
set_target_properties(npusim_all PROPERTIES EXPORT_NAME npusim)
add_library(npusim::npusim ALIAS npusim_all)

set_target_properties(npusim_sim_interface PROPERTIES EXPORT_NAME sim_interface)
set_target_properties(npusim_sim_internal PROPERTIES EXPORT_NAME sim_internal)
set_target_properties(npusim_cli PROPERTIES EXPORT_NAME cli)
foreach(layer kernels aie_api aie_kernels model frontend sim traces harness examples systemc hw xrt_none mpi_none)
  set_target_properties(npusim_${layer} PROPERTIES EXPORT_NAME ${layer})
endforeach()
# The optional components (find_package(npusim COMPONENTS xrt mpi)): installed when this build has them.
set(NPUSIM_COMPONENT_TARGETS "")
foreach(component xrt mpi)
  if(TARGET npusim_${component})
    set_target_properties(npusim_${component} PROPERTIES EXPORT_NAME ${component})
    list(APPEND NPUSIM_COMPONENT_TARGETS npusim_${component})
  endif()
endforeach()

set(NPUSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/npusim)
install(TARGETS npusim_all npusim_kernels npusim_aie_api npusim_aie_kernels npusim_model npusim_frontend
                npusim_sim_interface npusim_sim_internal npusim_sim npusim_traces npusim_harness npusim_examples
                npusim_cli npusim_systemc npusim_hw npusim_xrt_none npusim_mpi_none ${NPUSIM_COMPONENT_TARGETS}
        EXPORT npusimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/npusim/objects
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS npusim EXPORT npusimTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT npusimTargets NAMESPACE npusim:: DESTINATION ${NPUSIM_INSTALL_CMAKEDIR})

# Public headers, one tree per layer (their include/ folders hold only public headers).
foreach(dir kernels_ref/include kernels_ref/aie/include model/include frontend/include sim/include traces/include
            harness/include hw/include)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
# The AIE-API host layer (aie_api/aie.hpp, lut_based_ops.h) in npusim's own folder, not beside AMD's
# aie_api in a shared prefix; npusim::aie_api puts that folder on the include path, so a kernel
# source still writes #include <aie_api/aie.hpp> (pkg-config: npusim.pc's Cflags).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels_ref/aie_api/include/ DESTINATION ${NPUSIM_AIE_API_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/tools/Cli.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/npusim/cli)
install(FILES ${PROJECT_SOURCE_DIR}/tools/main.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/npusim RENAME cli_main.cpp)
# The shipped timing profiles (--timing npu1-public, npu2-public: harness/TimingProfiles).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/profiles/ DESTINATION ${CMAKE_INSTALL_DATADIR}/npusim/profiles FILES_MATCHING PATTERN "*.json")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/npusimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/npusimConfig.cmake INSTALL_DESTINATION ${NPUSIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/npusimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/npusimConfig.cmake ${PROJECT_BINARY_DIR}/npusimConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/npusimFunctions.cmake ${PROJECT_SOURCE_DIR}/cmake/NpusimExternalFunction.cmake
        DESTINATION ${NPUSIM_INSTALL_CMAKEDIR})

# pkg-config: the static libraries in link order, SystemC and fmt from their own .pc files.
# The prefix relative to the .pc file's folder (lib/pkgconfig -> ../..; Debian's multiarch libdir
# under /usr is one level deeper), so the installed tree can move.
file(RELATIVE_PATH NPUSIM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/npusim.pc.in ${PROJECT_BINARY_DIR}/npusim.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/npusim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
