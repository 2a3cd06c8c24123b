# deprivatize.cmake: twins of JITed functions with the other frame (the
# STUBBENCH_DEPRIVATIZE part): a private-stack function re-encoded without its
# private stack, and the reverse (src/twins/deprivatize.c, code_layout.c,
# twin_listing.c) and `stubbench deprivatize`. Zydis 4 decodes and encodes;
# without it the part is off, with one line saying so.

if(STUBBENCH_DEPRIVATIZE)
  find_package(zydis 4 CONFIG QUIET)
  if(NOT zydis_FOUND OR NOT TARGET Zydis::Zydis)
    sb_part_off(STUBBENCH_DEPRIVATIZE "Zydis 4 not found (it re-encodes JITed code): apt-get install libzydis-dev")
  endif()
endif()

if(STUBBENCH_DEPRIVATIZE)
  add_library(stubbench_twins STATIC src/twins/deprivatize.c src/twins/private_frame.c src/twins/code_layout.c src/twins/twin_listing.c
    src/twins/deprivatize_run.c
    src/twins/auto_twin.c src/twins/ablation.c src/twins/code_align.c src/twins/image_diff.c src/twins/insn_align.c
    src/twins/diff_twin.c src/twins/diff_globals.c src/twins/annotate_baseline.c)
  target_include_directories(stubbench_twins PUBLIC ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(stubbench_twins PUBLIC stubbench_jit PRIVATE Zydis::Zydis)
  # The commands stubbench annotate and stubbench diff (annotate.h, diff.h):
  # the parts' ablations and the twins are re-encoded code.
  add_library(stubbench_diff STATIC src/commands/annotate_run.c src/commands/annotate_measure.c
    src/commands/annotate_report.c src/commands/diff.c src/commands/diff_report.c)
  target_include_directories(stubbench_diff PUBLIC ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(stubbench_diff PUBLIC stubbench_twins stubbench_session)
  # Their front ends, and stubbench deprivatize's (weak references in
  # bench/stubbench.c).
  target_sources(stubbench PRIVATE ${CMAKE_SOURCE_DIR}/bench/deprivatize_command.c
    ${CMAKE_SOURCE_DIR}/bench/diff_command.c ${CMAKE_SOURCE_DIR}/bench/annotate_command.c)
  target_link_libraries(stubbench PRIVATE stubbench_twins stubbench_diff)
endif()

# The tests, defined once BUILD_TESTING is (see counters.cmake).
function(sb_deprivatize_tests)
  if(BUILD_TESTING AND STUBBENCH_DEPRIVATIZE)
    set(SB_TESTS ${CMAKE_SOURCE_DIR}/tests)
    # The de-privatized twin of a private-stack function against the kernel's
    # own JIT of it without a private stack, and the reverse, on recorded dumps.
    add_executable(test_deprivatize ${SB_TESTS}/twins/test_deprivatize.c)
    target_include_directories(test_deprivatize PRIVATE ${SB_TESTS}/common ${CMAKE_SOURCE_DIR}/src/twins)
    target_link_libraries(test_deprivatize PRIVATE stubbench_twins)
    add_test(NAME deprivatize COMMAND test_deprivatize ${SB_TESTS}/data)
    # Twins made from the recorded v6.18 JIT dumps of the built-in programs
    # equal the hand-made twins (addresses masked), aim their calls, returns,
    # frames and maps at user code and buffers, and run.
    add_executable(test_auto_twin ${SB_TESTS}/twins/test_auto_twin.c)
    target_include_directories(test_auto_twin PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_auto_twin PRIVATE stubbench_twins)
    add_test(NAME auto_twin COMMAND test_auto_twin ${SB_TESTS}/data)
    # stubbench diff's parts: two images read and paired, the old -> new
    # instruction map, both seed 001 sides' twins against the replicas.
    add_executable(test_image_diff ${SB_TESTS}/twins/test_image_diff.c)
    target_include_directories(test_image_diff PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_image_diff PRIVATE stubbench_twins)
    add_test(NAME image_diff COMMAND test_image_diff ${SB_TESTS}/data)
    # stubbench diff's summary by its form: 10 lines, 100 columns, the
    # change counted, the parts' lines or the hunks (no timing decides).
    add_test(NAME diff_summary COMMAND sh ${SB_TESTS}/commands/diff_summary.sh $<TARGET_FILE:stubbench> ${SB_TESTS}/data)
    # A diff of two listings whose loop bound is a global: the summary says
    # the twins read it zeroed; --global=NAME=VALUE runs the loop VALUE times
    # (instructions single-stepped); bad --global: exit 2.
    add_test(NAME diff_globals COMMAND sh ${SB_TESTS}/twins/diff_globals.sh $<TARGET_FILE:stubbench> ${SB_TESTS}/data)
    # A listing carrying a syscall, ud2, hlt, int3, a jump out ... is refused
    # before any of it runs (src/jit/code_check.c).
    add_test(NAME hostile_code COMMAND sh ${SB_TESTS}/security/hostile_code.sh $<TARGET_FILE:stubbench> ${SB_TESTS}/data)
    # The same listings let past that check (a test hook) still cannot make
    # a system call in the measuring child, and a jump to itself ends by the
    # watchdog (src/harness/contain.c, docs/security-model.md).
    add_test(NAME contained_code COMMAND sh ${SB_TESTS}/security/contained_code.sh $<TARGET_FILE:stubbench> ${SB_TESTS}/data)
    # What a contained child sends on its pipe is checked as hostile input:
    # crafted and random reports (a test hook sends them) end the run with
    # status 1 or 2 and one escaped line, never a hang or a crash.
    add_test(NAME child_report COMMAND ${Python3_EXECUTABLE} ${SB_TESTS}/security/child_report.py $<TARGET_FILE:stubbench>
             ${SB_TESTS}/data)
    # The parts of seed 001's replicas against their baselines, exactly, and
    # their ablations' bytes (stubbench annotate, docs/annotate.md).
    add_executable(test_ablation ${SB_TESTS}/twins/test_ablation.c)
    target_include_directories(test_ablation PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_ablation PRIVATE stubbench_twins)
    add_test(NAME ablation COMMAND test_ablation)
    # annotate's attribution recomputed from a recorded run of the planted
    # lfence: >= 80 % of its extra cost on the lfence, lines reconciled.
    add_test(NAME annotate_lfence COMMAND python3 ${SB_TESTS}/commands/annotate_lfence.py $<TARGET_FILE:stubbench>
      ${SB_TESTS}/data/annotate_lfence_blocks.csv.gz)
    # annotate's and diff's summaries where the cost is a state of the loop
    # (recorded on the Intel Xeon VM) and where the parts add (the lfence).
    add_test(NAME annotate_state COMMAND python3 ${SB_TESTS}/commands/annotate_state.py $<TARGET_FILE:stubbench>
      ${SB_TESTS}/data/annotate_xeon_private_blocks.csv.gz ${SB_TESTS}/data/annotate_lfence_blocks.csv.gz
      ${SB_TESTS}/data/answer_diff.json)
    set(D ${SB_TESTS}/data)
    # stubbench deprivatize: bpftool text in, the listing out, equal to the
    # kernel's; a different function differs (status 1); bad input status 2.
    add_test(NAME deprivatize_cli COMMAND sh ${SB_TESTS}/twins/deprivatize_cli.sh $<TARGET_FILE:stubbench> ${D})
    if(STUBBENCH_KERNEL)
      # Live: this kernel's two JITs of htab_body and of twin_pair.bpf.c's
      # functions against each other's twins, and the test object's sum_big.
      set(sb_twin_pair_obj ${CMAKE_BINARY_DIR}/tests/twin_pair.bpf.o)
      sb_bpf_object(${D}/twin_pair.bpf.c ${sb_twin_pair_obj})
      add_custom_target(sb_twin_pair_obj ALL DEPENDS ${sb_twin_pair_obj})
      add_test(NAME deprivatize_live COMMAND sh ${SB_TESTS}/twins/deprivatize_live.sh $<TARGET_FILE:stubbench>
        ${SB_USER_BPF_OBJ} ${sb_twin_pair_obj})
      set_tests_properties(deprivatize_live PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs
        ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)
      # Live auto-twins: the built-in programs' JIT gives the hand-made twins;
      # a loop bound read from a map makes a twin not comparable.
      set(sb_map_bound_obj ${CMAKE_BINARY_DIR}/tests/map_bound.bpf.o)
      sb_bpf_object(${D}/map_bound.bpf.c ${sb_map_bound_obj})
      add_custom_target(sb_map_bound_obj ALL DEPENDS ${sb_map_bound_obj})
      add_test(NAME auto_twin_live COMMAND sh ${SB_TESTS}/twins/auto_twin_live.sh $<TARGET_FILE:stubbench>
        $<TARGET_FILE:test_auto_twin> ${sb_map_bound_obj})
      set_tests_properties(auto_twin_live PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK bpf_programs
        ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1 TIMEOUT 600)
    endif()
  endif()
endfunction()
cmake_language(DEFER CALL sb_deprivatize_tests)
