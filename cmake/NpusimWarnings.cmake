# Warning and sanitizer flags shared by every npusim target, and the unity batches every library and
# program compiles in (both applied via npusim_configure_target).
add_library(npusim_build_flags INTERFACE)
target_compile_options(npusim_build_flags INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(npusim_build_flags INTERFACE -Wshadow=local)
endif()
# GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string operator+ (GCC bug 105329).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(npusim_build_flags INTERFACE -Wno-restrict)
endif()
if(NPUSIM_WERROR)
  target_compile_options(npusim_build_flags INTERFACE -Werror)
endif()
if(NPUSIM_SANITIZE)
  # ASan checks heap and global accesses; its stack instrumentation is off (asan-stack=0).
  # SystemC runs every process on its own QuickThreads coroutine stack. SystemC 2.3.4 announces
  # switches to ASan (__sanitizer_start_switch_fiber) except the one out of a process that ends, so
  # ASan can hold stale stack bounds (google/sanitizers#189): it then refuses to unpoison stacks
  # unwound by exceptions ("ignoring requested __asan_handle_no_return") and would report false
  # stack overflows. ScContextGuard::restore_thread_stack resets the bounds after every sc_start,
  # which LeakSanitizer needs at exit (it scans the stack ASan holds for the thread).
  target_compile_options(npusim_build_flags INTERFACE -fsanitize=address,undefined
                         -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(npusim_build_flags INTERFACE "SHELL:-mllvm -asan-stack=0") # clang's spelling
  else()
    target_compile_options(npusim_build_flags INTERFACE --param=asan-stack=0)
  endif()
  target_link_options(npusim_build_flags INTERFACE -fsanitize=address,undefined)
endif()

if(NPUSIM_FUZZER)
  # Coverage instrumentation for libFuzzer in every npusim library, so the fuzzer is guided by
  # the resolve and simulation code it reaches (the fuzz_designs target adds -fsanitize=fuzzer).
  target_compile_options(npusim_build_flags INTERFACE -fsanitize=fuzzer-no-link)
endif()

# Unity batches: the sources of a target compile NPUSIM_UNITY_BATCH at a time as one translation
# unit, so a batch parses the shared headers (fmt, nlohmann/json, CLI11, SystemC, npusim's own) once
# and instantiates their templates once. That is most of a source's compile time: eight example
# designs take 7.5 s of CPU in one batch against 20.6 s file by file under the sanitizers
# (docs/testing.md). The files of a target therefore share a translation unit: file-local helpers
# (anonymous namespaces included) need names no other file of the target uses, and a file-scope
# `using namespace` reaches the files after it in its batch. NPUSIM_UNITY_LIBS=OFF compiles file by
# file (the tests have their own switch, NPUSIM_UNITY_TESTS). Targets whose sources must stay alone
# turn UNITY_BUILD off after this call: the header checks (a header on its own is what they test)
# and the AIE kernel sources (written as kernels are, each a translation unit of its own).
option(NPUSIM_UNITY_LIBS "Compile each library and program in unity batches" ON)
set(NPUSIM_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")

# BUILD_INTERFACE: the flags are this build's own; installed libraries do not pass them on.
function(npusim_configure_target tgt)
  target_link_libraries(${tgt} PRIVATE $<BUILD_INTERFACE:npusim_build_flags>)
  if(NPUSIM_UNITY_LIBS)
    set_target_properties(${tgt} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${NPUSIM_UNITY_BATCH})
  endif()
endfunction()
