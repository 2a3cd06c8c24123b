# lab.cmake: the codegen lab: alternative private-stack sequences,
# their registry family "lab", and their tests (its plots go through
# src/plot/run_plot.c, as every run's do).

# The lab's stubs and records are asm/lab_alternatives.asm and
# asm/return_thunks.asm (built with every asm/*.asm file); its lookups
# (src/variants/lab_variants.c) and a variant's baseline, by family
# (src/variants/variant_baseline.c), are in stubbench_core.

# gnuplot draws --plot=FILE; it is looked up at run time, so the build does
# not need it: say so once here when it is missing.
find_program(SB_GNUPLOT gnuplot)
if(NOT SB_GNUPLOT)
  message(STATUS "gnuplot not found: stubbench lab --plot will say so and skip the plot (apt-get install gnuplot-nox)")
endif()

# The tests. This file is included before include(CTest), so on the first
# configure BUILD_TESTING is not defined yet: add them at the end of the
# top-level directory (cmake_language(DEFER)).
function(sb_lab_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  set(SB_LAB_TESTS ${CMAKE_SOURCE_DIR}/tests)

  # Golden bytes against the hand-written listings tests/data/lab_*.lst.
  add_executable(test_lab_golden ${SB_LAB_TESTS}/variants/test_lab_golden.c ${SB_LAB_TESTS}/common/golden_check.c)
  target_include_directories(test_lab_golden PRIVATE ${SB_LAB_TESTS}/common)
  target_link_libraries(test_lab_golden PRIVATE stubbench_jit)
  add_test(NAME lab_golden COMMAND test_lab_golden ${SB_LAB_TESTS}/data)

  # Behaviour: counters, callee-saved registers, the frame pointer after
  # setup and calls (also when the callee clobbers r9), call depth balance.
  set_source_files_properties(${SB_LAB_TESTS}/variants/lab_r9_probes.asm PROPERTIES
    OBJECT_DEPENDS "${SB_ASM_INCLUDES}")
  add_executable(test_lab_behaviour ${SB_LAB_TESTS}/variants/test_lab_behaviour.c
    ${SB_LAB_TESTS}/variants/lab_r9_probes.asm)
  target_include_directories(test_lab_behaviour PRIVATE ${SB_LAB_TESTS}/common)
  target_link_libraries(test_lab_behaviour PRIVATE stubbench_core pthread)
  add_test(NAME lab_behaviour COMMAND test_lab_behaviour)

  # The plot writer on synthetic results (with and without gnuplot on PATH).
  add_executable(test_lab_plot ${SB_LAB_TESTS}/plot/test_lab_plot.c)
  target_include_directories(test_lab_plot PRIVATE ${SB_LAB_TESTS}/common)
  target_link_libraries(test_lab_plot PRIVATE stubbench_report)
  add_test(NAME lab_plot COMMAND test_lab_plot)

  # Every arm of every group gets its placed copies.
  add_test(NAME lab_every_arm_placed COMMAND sh ${SB_LAB_TESTS}/session/lab_every_arm_placed.sh $<TARGET_FILE:stubbench>)
  add_test(NAME lab_ci_scope COMMAND sh ${SB_LAB_TESTS}/session/lab_ci_scope.sh $<TARGET_FILE:stubbench>)

  # Exact instructions per iteration: insn_count_lab-* (tests/CMakeLists.txt),
  # from the lab's records.
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_lab_tests)
