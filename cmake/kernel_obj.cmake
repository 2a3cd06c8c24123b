# kernel_obj.cmake: `stubbench kernel --obj=FILE --prog=NAME`, a user's BPF
# object, and its tests on an object built from tests/data (a source
# outside the project's own programs). Part of STUBBENCH_KERNEL.
# The command (src/kernel_commands/kernel_obj*.c and kernel_obj_run.h),
# called from stubbench kernel's entry.
add_library(stubbench_kernel_obj STATIC
  src/kernel_commands/kernel_obj_run.c
  src/kernel_commands/kernel_obj_jit.c
  src/kernel_commands/kernel_obj_syscall.c
  src/kernel_commands/kernel_obj_spacer.c
  src/kernel_commands/kernel_obj_report.c
)
target_include_directories(stubbench_kernel_obj PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(stubbench_kernel_obj PUBLIC stubbench_kernel stubbench_session stubbench_report)
# Its auto-twins (the programs' JIT images run in user space) need the
# re-encoding part (Zydis); their parts are taken apart by stubbench
# annotate's functions (annotate.h, in stubbench_diff).
if(STUBBENCH_DEPRIVATIZE)
  target_sources(stubbench_kernel_obj PRIVATE
    src/kernel_commands/kernel_obj_private.c
    src/kernel_commands/kernel_obj_parts.c
    src/kernel_commands/kernel_obj_twins.c
  )
  target_compile_definitions(stubbench_kernel_obj PRIVATE SB_AUTO_TWINS=1)
  target_link_libraries(stubbench_kernel_obj PUBLIC stubbench_twins stubbench_diff)
endif()
target_link_libraries(stubbench PRIVATE stubbench_kernel_obj)

set(SB_USER_BPF_OBJ ${CMAKE_BINARY_DIR}/tests/user_prog.bpf.o)
sb_bpf_object(${CMAKE_SOURCE_DIR}/tests/data/user_prog.bpf.c ${SB_USER_BPF_OBJ})
# Objects --obj must refuse, saying why (tests/security/hostile_errors.sh): one per
# macro of tests/data/hostile_progs.bpf.c, as tests/hostile-NAME.bpf.o.
set(SB_HOSTILE_BPF_OBJS)
foreach(name REJECTED NOT_TEST_RUN BATCH_U8 BATCH_ARRAY BATCH_MUTABLE BATCH_NOT_VOLATILE LONG_RUN)
  string(TOLOWER ${name} lower)
  set(obj ${CMAKE_BINARY_DIR}/tests/hostile-${lower}.bpf.o)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/tests
    COMMAND ${SB_BPF_CLANG} -O2 -g -target bpf -Wall -Werror -D${name}
            -I/usr/include/${SB_MULTIARCH} -c ${CMAKE_SOURCE_DIR}/tests/data/hostile_progs.bpf.c -o ${obj}
    DEPENDS ${CMAKE_SOURCE_DIR}/tests/data/hostile_progs.bpf.c
    COMMENT "clang -target bpf: hostile-${lower}.bpf.o")
  list(APPEND SB_HOSTILE_BPF_OBJS ${obj})
endforeach()
add_custom_target(sb_user_bpf_obj ALL DEPENDS ${SB_USER_BPF_OBJ} ${SB_HOSTILE_BPF_OBJS})

function(sb_kernel_obj_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_test(NAME kernel_obj COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/kernel/kernel_obj.py
    $<TARGET_FILE:stubbench> ${SB_USER_BPF_OBJ})
  set_tests_properties(kernel_obj PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs
    ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_kernel_obj_add_tests)
