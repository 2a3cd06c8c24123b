# lab.cmake: the codegen lab: alternative private-stack sequences,
# their registry family "lab", the gnuplot writer, and their tests.

# The lab's stubs and records are asm/lab_alternatives.asm and
# asm/lab_return_thunks.asm (built with every asm/*.asm file).
target_sources(stubbench_core PRIVATE
  ${CMAKE_SOURCE_DIR}/src/lab/lab_variants.c
  ${CMAKE_SOURCE_DIR}/src/lab/plot.c
)

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
  add_executable(test_lab_golden ${SB_LAB_TESTS}/test_lab_golden.c ${SB_LAB_TESTS}/golden_check.c)
  target_include_directories(test_lab_golden PRIVATE ${SB_LAB_TESTS})
  target_link_libraries(test_lab_golden PRIVATE stubbench_jit)
  add_test(NAME lab_golden_bytes COMMAND test_lab_golden ${SB_LAB_TESTS}/data)

  # Behaviour: counters, callee-saved registers, the frame pointer after
  # setup and calls (also when the callee clobbers r9), call depth balance.
  set_source_files_properties(${SB_LAB_TESTS}/lab_r9_probes.asm PROPERTIES
    OBJECT_DEPENDS "${SB_ASM_INCLUDES}")
  add_executable(test_lab_behaviour ${SB_LAB_TESTS}/test_lab_behaviour.c
    ${SB_LAB_TESTS}/lab_r9_probes.asm)
  target_include_directories(test_lab_behaviour PRIVATE ${SB_LAB_TESTS})
  target_link_libraries(test_lab_behaviour PRIVATE stubbench_core pthread)
  add_test(NAME lab_behaviour COMMAND test_lab_behaviour)

  # Exact instructions per iteration under callgrind, against the counts of
  # the hand listings (per iteration, fixed per run): per-run main prog +
  # 3 subprogs (7 each with ret, 8 with the rethunk, 10 with call depth,
  # + call depth: 1 sar per call, 3 for the main's own thunk return, 2 for
  # the entry); in-loop body 10 + alternative + 3 subprogs, fixed 16 + setup.
  # The plot writer on synthetic results (with and without gnuplot on PATH).
  add_executable(test_lab_plot ${SB_LAB_TESTS}/test_lab_plot.c)
  target_include_directories(test_lab_plot PRIVATE ${SB_LAB_TESTS})
  target_link_libraries(test_lab_plot PRIVATE stubbench_core)
  add_test(NAME lab_plot COMMAND test_lab_plot)

  add_executable(lab_insn_driver ${SB_LAB_TESTS}/lab_insn_driver.c
    ${SB_LAB_TESTS}/lab_count_loop.asm)
  target_link_libraries(lab_insn_driver PRIVATE stubbench_core)
  foreach(spec
      "baseline-perrun;35;0" "baseline-inloop;31;16"
      "mainline-perrun;43;0" "mainline-inloop;37;18"
      "reload-perrun;43;0" "reload-inloop;37;18"
      "callee-saved-perrun;39;0" "callee-saved-inloop;31;20"
      "spill-once-perrun;42;0" "spill-once-inloop;34;20"
      "placement-control-perrun;35;0" "placement-control-inloop;31;16"
      "baseline-rethunk-perrun;39;0" "baseline-rethunk-inloop;34;17"
      "mainline-rethunk-perrun;47;0" "mainline-rethunk-inloop;40;19"
      "reload-rethunk-perrun;47;0" "reload-rethunk-inloop;40;19"
      "callee-saved-rethunk-perrun;43;0" "callee-saved-rethunk-inloop;34;21"
      "spill-once-rethunk-perrun;46;0" "spill-once-rethunk-inloop;37;21"
      "placement-control-rethunk-perrun;39;0" "placement-control-rethunk-inloop;34;17"
      "baseline-calldepth-perrun;52;0" "baseline-calldepth-inloop;43;21"
      "mainline-calldepth-perrun;60;0" "mainline-calldepth-inloop;49;23"
      "reload-calldepth-perrun;60;0" "reload-calldepth-inloop;49;23"
      "callee-saved-calldepth-perrun;56;0" "callee-saved-calldepth-inloop;43;25"
      "spill-once-calldepth-perrun;59;0" "spill-once-calldepth-inloop;46;25"
      "placement-control-calldepth-perrun;52;0" "placement-control-calldepth-inloop;43;21")
    list(GET spec 0 name)
    list(GET spec 1 per_iter)
    list(GET spec 2 fixed)
    add_test(NAME lab_insn_count_${name}
      COMMAND ${SB_LAB_TESTS}/lab_count_insns.sh $<TARGET_FILE:lab_insn_driver>
              lab-${name} ${per_iter} ${fixed})
    set_tests_properties(lab_insn_count_${name} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  add_test(NAME lab_insn_driver_bad_variant COMMAND lab_insn_driver nope 1 1)
  set_tests_properties(lab_insn_driver_bad_variant PROPERTIES
    PASS_REGULAR_EXPRESSION "'nope' is not a lab variant")
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_lab_tests)
