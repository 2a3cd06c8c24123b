# kernel_obj.cmake: `stubbench kernel --obj=FILE --prog=NAME`, a user's BPF
# object, and its tests on an object built from tests/data (a source
# outside the project's own programs). Part of STUBBENCH_KERNEL.
target_sources(stubbench PRIVATE bench/kernel_obj_command.c)

set(SB_USER_BPF_OBJ ${CMAKE_BINARY_DIR}/tests/user_prog.bpf.o)
sb_bpf_object(${CMAKE_SOURCE_DIR}/tests/data/user_prog.bpf.c ${SB_USER_BPF_OBJ})
add_custom_target(sb_user_bpf_obj ALL DEPENDS ${SB_USER_BPF_OBJ})

function(sb_kernel_obj_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_test(NAME kernel_obj COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/kernel_obj_cli.py
    $<TARGET_FILE:stubbench> ${SB_USER_BPF_OBJ})
  set_tests_properties(kernel_obj PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_kernel_obj_add_tests)
