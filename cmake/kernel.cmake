# kernel.cmake: the kernel-side confirmation run: the BPF programs (clang
# -target bpf, embedded with a bpftool skeleton), their loader and JIT
# reader/comparator (libbpf, capstone), `stubbench kernel`, the lookup of
# the twins (replicas of this machine's JITed code, in asm/ with the
# others), and the tests.

# The kernel part (STUBBENCH_KERNEL, on by default): switched off with one
# line when a tool or library it needs is missing; `stubbench kernel` then
# says it was not built.
if(STUBBENCH_KERNEL)
  find_program(SB_BPF_CLANG NAMES clang clang-16 clang-15 clang-14)
  find_program(SB_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin)
  pkg_check_modules(LIBBPF QUIET libbpf)
  if(NOT SB_BPF_CLANG)
    sb_part_off(STUBBENCH_KERNEL "clang not found (it compiles the BPF programs): apt-get install clang")
  elseif(NOT SB_BPFTOOL)
    sb_part_off(STUBBENCH_KERNEL "bpftool not found (it generates the BPF skeleton): apt-get install bpftool")
  elseif(NOT LIBBPF_FOUND)
    sb_part_off(STUBBENCH_KERNEL "libbpf not found (it loads the BPF programs): apt-get install libbpf-dev")
  endif()
endif()
if(NOT STUBBENCH_KERNEL)
  return()
endif()

# BPF objects and skeletons. Only UAPI and libbpf headers: no kernel BTF needed.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
  OUTPUT_VARIABLE SB_MULTIARCH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT SB_MULTIARCH)
  set(SB_MULTIARCH x86_64-linux-gnu)
endif()
# One way to compile a BPF C source into an object: the project's programs
# and the test object of kernel_obj.cmake alike.
function(sb_bpf_object src obj)
  get_filename_component(dir ${obj} DIRECTORY)
  get_filename_component(name ${obj} NAME)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${SB_BPF_CLANG} -O2 -g -target bpf -Wall -Werror
            -I/usr/include/${SB_MULTIARCH} -c ${src} -o ${obj}
    DEPENDS ${src} ${CMAKE_SOURCE_DIR}/bench/bpf/touch_stack.h
    COMMENT "clang -target bpf: ${name}")
endfunction()

set(SB_BPF_SKELETONS)
foreach(name private_stack_shapes fentry_shape htab_shape kernel_text private_stack_probe
    stack_offset_probe)
  set(src ${CMAKE_SOURCE_DIR}/bench/bpf/${name}.bpf.c)
  set(obj ${CMAKE_BINARY_DIR}/bpf/${name}.bpf.o)
  set(skel ${CMAKE_BINARY_DIR}/bpf/${name}.skel.h)
  sb_bpf_object(${src} ${obj})
  add_custom_command(
    OUTPUT ${skel}
    COMMAND ${SB_BPFTOOL} gen skeleton ${obj} name ${name} > ${skel}
    DEPENDS ${obj}
    COMMENT "bpftool gen skeleton: ${name}.skel.h")
  list(APPEND SB_BPF_SKELETONS ${skel})
endforeach()
add_custom_target(sb_bpf_skeleton DEPENDS ${SB_BPF_SKELETONS})


# JIT reading, decoding, flavour, comparison, dumps (no BPF needed to
# decode and compare recorded dumps).

# Loader, test runs, arms, JIT check, htab shape, twin placement.
file(GLOB SB_KERNEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/kernel/*.c)
add_library(stubbench_kernel STATIC ${SB_KERNEL_SOURCES})
add_dependencies(stubbench_kernel sb_bpf_skeleton)
target_include_directories(stubbench_kernel PUBLIC ${CMAKE_SOURCE_DIR}/include
  PRIVATE ${CMAKE_BINARY_DIR}/bpf ${LIBBPF_INCLUDE_DIRS})
target_link_libraries(stubbench_kernel PUBLIC stubbench_jit stubbench_core ${LIBBPF_LIBRARIES} m)

# The commands of the kernel run (src/kernel_commands/kernel_run.h): the
# built-in shapes, --shape=htab and --probe, each from the run
# configuration to its exit status. Listed, not globbed: the other
# kernel --obj commands of src/kernel_commands build in their own part.
add_library(stubbench_kernel_commands STATIC
  src/kernel_commands/kernel_run.c
  src/kernel_commands/kernel_run_common.c
  src/kernel_commands/kernel_plan.c
  src/kernel_commands/kernel_load.c
  src/kernel_commands/kernel_measure.c
  src/kernel_commands/kernel_findings.c
  src/kernel_commands/kernel_load_figures.c
  src/kernel_commands/kernel_htab_run.c
  src/kernel_commands/kernel_probe_run.c)
target_include_directories(stubbench_kernel_commands PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(stubbench_kernel_commands PUBLIC stubbench_kernel stubbench_session)

# `stubbench kernel`: its entry is in the main program's subcommand table
# as a weak reference (bench/stubbench.c), present only in this part.
target_sources(stubbench PRIVATE ${CMAKE_SOURCE_DIR}/bench/kernel_command.c)
target_link_libraries(stubbench PRIVATE stubbench_kernel_commands)

# Tests. BUILD_TESTING is defined by include(CTest), which the top-level
# CMakeLists.txt runs after this file: add them once it has.
function(sb_kernel_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_executable(test_jit_compare ${CMAKE_SOURCE_DIR}/tests/jit/test_jit_compare.c)
  target_include_directories(test_jit_compare PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_jit_compare PRIVATE stubbench_jit)
  add_test(NAME jit_compare COMMAND test_jit_compare ${CMAKE_SOURCE_DIR}/tests/data)

  # Why a kernel gives no private stack, said from what the probe found, on
  # made-up findings; the recorded JIT of such a kernel.
  add_executable(test_private_stack_reason ${CMAKE_SOURCE_DIR}/tests/kernel/test_private_stack_reason.c)
  target_include_directories(test_private_stack_reason PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_private_stack_reason PRIVATE stubbench_kernel)
  add_test(NAME private_stack_reason COMMAND test_private_stack_reason ${CMAKE_SOURCE_DIR}/tests/data)
  # The kernel stack's page offset read from a probe program's slot address,
  # on made-up instructions and addresses, and the embedded program's slot.
  add_executable(test_stack_offset_probe ${CMAKE_SOURCE_DIR}/tests/kernel/test_stack_offset_probe.c)
  target_include_directories(test_stack_offset_probe PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_stack_offset_probe PRIVATE stubbench_kernel)
  add_test(NAME stack_offset_probe COMMAND test_stack_offset_probe)
  # The placed twins' rbp frame at the page offset asked for, through the
  # sampler's call (a stub with the twins' prologue in a twin's place).
  add_executable(test_placed_stack ${CMAKE_SOURCE_DIR}/tests/kernel/test_placed_stack.c)
  target_include_directories(test_placed_stack PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_placed_stack PRIVATE stubbench_kernel)
  add_test(NAME placed_stack COMMAND test_placed_stack)
  # Kernel, htab and --obj carry on where the kernel gives no private stack
  # (the test hook makes one of any kernel); SKIP (77) without BPF.
  add_test(NAME kernel_no_private_stack COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/kernel/kernel_no_private_stack.py
    $<TARGET_FILE:stubbench> ${CMAKE_BINARY_DIR}/tests/user_prog.bpf.o)
  set_tests_properties(kernel_no_private_stack PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs)

  # Need root/CAP_BPF, JIT, test runs, private stack: SKIP (77) otherwise.
  foreach(t kernel_run kernel_sigint)
    add_executable(test_${t} ${CMAKE_SOURCE_DIR}/tests/kernel/test_${t}.c)
    target_include_directories(test_${t} PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
    target_link_libraries(test_${t} PRIVATE stubbench_kernel)
  endforeach()
  add_test(NAME kernel_run COMMAND test_kernel_run)
  add_test(NAME kernel_sigint COMMAND test_kernel_sigint $<TARGET_FILE:stubbench>)
  set_tests_properties(kernel_run kernel_sigint PROPERTIES SKIP_RETURN_CODE 77)
  # Both load BPF programs and the second measures: not beside each other.
  set_tests_properties(kernel_run kernel_sigint PROPERTIES RESOURCE_LOCK bpf_programs)

  # Output formats of a short real run (SKIP, 77, where BPF cannot run: the
  # command's statuses 3-6, tests/common/kernel_skip.sh): JSON, one document
  # with every arm of both shapes; seed, one naming scheme per shape;
  # --dump-jit, raw bytes and a listing per JITed function, the private
  # ones with r9 setup.
  set(sb_kernel_tests ${CMAKE_SOURCE_DIR}/tests/kernel)
  add_test(NAME kernel_output_json COMMAND sh ${sb_kernel_tests}/kernel_output_json.sh $<TARGET_FILE:stubbench>)
  add_test(NAME kernel_output_seed COMMAND sh ${sb_kernel_tests}/kernel_output_seed.sh $<TARGET_FILE:stubbench>)
  add_test(NAME kernel_dump_jit COMMAND sh ${sb_kernel_tests}/kernel_dump_jit.sh $<TARGET_FILE:stubbench>)
  # The thunk the JIT's returns reach, named through kallsyms, and every
  # thunk replica the same as the kernel's own code (or one line saying why
  # it could not be read).
  add_test(NAME kernel_return_thunk COMMAND ${CMAKE_SOURCE_DIR}/tests/kernel/kernel_return_thunk.sh
    $<TARGET_FILE:stubbench>)
  # --plot: the kernel and twin deltas drawn (a panel per shape and codegen, a line per side),
  # script and data beside the image.
  add_test(NAME kernel_plot COMMAND sh ${sb_kernel_tests}/kernel_plot.sh $<TARGET_FILE:stubbench>)
  # These check what a run writes, not its statistics: every block is kept
  # (STUBBENCH_TEST_DISTURB_NONE), so that a short run on a loaded machine
  # does not end with no usable samples (status 1).
  set_tests_properties(kernel_return_thunk kernel_output_json kernel_output_seed kernel_dump_jit kernel_plot PROPERTIES
    SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)

  # Without capabilities: status 3 and one line naming them. Needs root to
  # drop to nobody with setpriv (util-linux); SKIP otherwise.
  add_test(NAME kernel_no_caps COMMAND sh ${sb_kernel_tests}/kernel_no_caps.sh $<TARGET_FILE:stubbench>)
  set_tests_properties(kernel_no_caps PROPERTIES SKIP_RETURN_CODE 77)

  # The command line before any BPF is touched (so it runs anywhere): bad
  # input exits 2 with one line naming it; --help and --version answer.
  add_test(NAME kernel_cli COMMAND sh ${sb_kernel_tests}/kernel_cli.sh $<TARGET_FILE:stubbench>)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_kernel_add_tests)
