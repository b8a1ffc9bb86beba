# Warning and sanitizer flags shared by every npusim target (applied via npusim_configure_target).
add_library(npusim_build_flags INTERFACE)
target_compile_options(npusim_build_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local
                       -Wno-missing-field-initializers)
if(NPUSIM_WERROR)
  target_compile_options(npusim_build_flags INTERFACE -Werror)
endif()
if(NPUSIM_SANITIZE)
  target_compile_options(npusim_build_flags INTERFACE -fsanitize=address,undefined
                         -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(npusim_build_flags INTERFACE -fsanitize=address,undefined)
endif()

function(npusim_configure_target tgt)
  target_link_libraries(${tgt} PRIVATE npusim_build_flags)
endfunction()
