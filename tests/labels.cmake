# labels.cmake: every test carries exactly one of four ctest labels, which
# says what it is (docs/testing.md):
#   exact     checks what is exact: bytes, instruction records, parsing,
#             statistics on recorded or made-up data, output structure, error
#             paths. Runs in the sanitizer build (ctest -L exact). A test that
#             runs a short timed run only to check what it writes is exact
#             while it takes under 20 s in the sanitizer build on a 2-vCPU
#             machine (ctest prints the time); slower, it is measures.
#   measures  runs timed loops long enough to be slow under the sanitizers,
#             or needs enough samples that only an uninstrumented build gets.
#   valgrind  runs a program under valgrind (skips in the sanitizer build).
#   fuzz      runs a reader's libFuzzer target for a fixed time (the fuzz
#             build alone, -DSTUBBENCH_FUZZ=ON; labelled where defined).
# A new test: add its name to one list in sb_label_tests below.

# sb_label_tests(): gives every test of the calling directory its label
# from the lists below (a label set where the test is defined counts too);
# fails naming the tests with none or more than one.
function(sb_label_tests)
  set(SB_LABEL_MEASURES
    # the real tool's timed runs (times: ctest -L measures in build-asan)
    gbench_schema lab_every_arm_placed kernel_no_private_stack lab_ci_scope
    diff_summary auto_twin_live past_runs_cli quiet_levels install_tree
    output_formats hostile_inputs run_schema diff_globals readme_compare_py
    fleet_ansible)
  # one_file_variant and insn_count_* are labelled valgrind where defined.
  set(SB_LABEL_VALGRIND)
  set(SB_LABEL_EXACT
    # tests/CMakeLists.txt
    golden padded_layout behaviour listing image_text code_check
    insn_driver_bad_variant stats paired_placements paired_fixture spread_split states
    timer_decide config cli_errors cli_docs comment_paths test_names public_headers architecture_folders one_file_command records_policy readme_subcommands
    readme_summary new_frames_fail
    table_ci_note output_discipline quiet_output states_in_time run_spans_time blocks_log sibling_cli
    reproducibility_load placement code_variant cell_key estimate return_thunks ksyms
    json_return_thunk footprint footprint_cli flavour_host_calls replica_only_build
    processes block_spread parts_overhead cpu_signature warm_rounds disturbed
    steady_states core_states core_states_report core_states_live busy_core
    quiet_record record_file past_runs perf_map figure_checks json_writer json_doc
    reporter_seam one_file_format own_pages attribution attribution_state sibling core_states_0xa7
    core_states_compare placement_states table_width state_outputs text_grid two_state_line
    contained_code child_report gbench_defaults
    # cmake/counters.cmake
    counters_parse counters_perf counters_markers counters_markers_without_likwid
    counters_gbench_json counters_cli
    # cmake/lab.cmake
    lab_golden lab_behaviour lab_plot
    # cmake/report.cmake
    compare figures answer kernel_paired kernel_by_load kernel_noise kernel_gap_line kernel_obj_answer across_runs
    atlas machine_name summary_width answer_report report_kernel_obj diff_report compare_cli plot_cli plot_reference
    kernel_plot_table
    plot_injection hostile_reports
    # cmake/deprivatize.cmake
    deprivatize auto_twin image_diff hostile_code ablation
    annotate_lfence annotate_state deprivatize_cli deprivatize_live
    # cmake/kernel.cmake, cmake/kernel_obj.cmake
    jit_compare private_stack_reason stack_offset_probe placed_stack kernel_run kernel_sigint kernel_output_json
    kernel_output_seed kernel_dump_jit kernel_return_thunk kernel_plot kernel_no_caps kernel_cli
    kernel_obj)
  # sanitizer_reports_clear and sanitizer_reports (cmake/sanitize.cmake, the
  # sanitizer build only) are labelled exact where defined.
  get_property(tests DIRECTORY PROPERTY TESTS)
  set(bad)
  foreach(test IN LISTS tests)
    get_test_property(${test} LABELS labels)
    if(NOT labels)
      set(labels)
    endif()
    foreach(label exact measures valgrind)
      string(TOUPPER ${label} list)
      if(test IN_LIST SB_LABEL_${list})
        list(APPEND labels ${label})
      endif()
    endforeach()
    set(kinds ${labels})
    list(FILTER kinds INCLUDE REGEX "^(exact|measures|valgrind|fuzz)$")
    list(LENGTH kinds n)
    if(NOT n EQUAL 1)
      list(APPEND bad "${test} (${n})")
    else()
      list(REMOVE_DUPLICATES labels)
      set_tests_properties(${test} PROPERTIES LABELS "${labels}")
    endif()
  endforeach()
  if(bad)
    list(JOIN bad ", " bad)
    message(FATAL_ERROR "tests without exactly one of the labels exact, measures, valgrind "
      "(add each to one list in tests/labels.cmake): ${bad}")
  endif()
endfunction()
